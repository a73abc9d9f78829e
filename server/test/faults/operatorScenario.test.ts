/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The operator's fault suite (issue 17, part 5): one scenario, the way production meets it. Two real API
// processes (main.ts, development mode, shipped database timeouts) on one PostgreSQL cluster of this
// file's own, 16 clients signing up by e-mail code in a loop over plain HTTP, each call sent to the next
// instance in turn (a load balancer without stickiness), through, one after the other: a database
// restart, an outage (stopped, then started again), a table locked for longer than the statement and
// lock timeouts, an instance killed with SIGKILL (a replacement started, as an orchestrator would), and
// SIGTERM to an instance with calls in flight. The assertions are the promises (README: "When the
// database is away"): no instance exits but those killed, SIGTERM exits 0 with every call in flight
// answered; every call is answered within 15 s (200, or 503 service_unavailable with Retry-After;
// never a 500, never a hang); calls succeed again within 5 s of the database's return; readiness turns
// 503 within 5 s of the database going away and 200 once it is back; /metrics counts the outage's 503s;
// every sign-up a client saw complete is stored exactly once. Loopback only.
// PostgreSQL only (run by `npm run test:postgres`): the faults are a PostgreSQL server's.
import http from 'node:http';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../scripts/postgresCluster.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';
import { DEMO_ORIGIN, POSTGRES_URL } from '../helpers/testServer.ts';

/** The promises under test. */
const ANSWER_BOUND_MS = 15_000;
const RESUME_BOUND_MS = 5_000;
const READINESS_BOUND_MS = 5_000;
/** The outage: the issue asks for 15 s. */
const OUTAGE_MS = 15_000;
/** Longer than the shipped statement_timeout (10 s) and lock_timeout (5 s), which the instances run with. */
const LOCK_HELD_MS = 12_000;
const CLIENTS = 16;

interface Instance {
  name: string;
  proc: ServerProcess;
}

interface Call {
  client: number;
  instance: string;
  step: string;
  status: number;
  /** the socket error when there was no answer */
  error?: string;
  sentAt: number;
  at: number;
  ms: number;
  retryAfter?: string;
  type?: string;
  /** the sign-up's previous attempt at this step got no answer or a 503: its outcome is unknown to the client */
  afterAmbiguous: boolean;
}

interface Answer {
  status: number;
  error?: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** One call on a connection of its own (no keep-alive), so a refused or cut connection is this call's. */
function send(base: string, method: string, path: string, body: unknown, token: string | undefined): Promise<Answer> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(`${base}${path}`, {
      method,
      agent: false,
      headers: {
        'X-Corbado-ProjectID': 'pro-1',
        'X-Corbado-SDK': JSON.stringify({ name: 'web-core', sdkVersion: '0.0.0-test' }),
        Origin: DEMO_ORIGIN,
        ...(token ? { 'x-corbado-process-id': token } : {}),
        ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
      },
    });
    // a hang shows as a call of 30 s, which the 15 s bound fails
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('no answer'), { code: 'HANG' })), 30_000);
    const done = (answer: Answer) => {
      clearTimeout(timer);
      resolve(answer);
    };
    req.on('error', (error: NodeJS.ErrnoException) => done({ status: 0, error: error.code ?? error.message, headers: {}, body: undefined }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error: NodeJS.ErrnoException) => done({ status: 0, error: `cut in the body: ${error.code ?? error.message}`, headers: {}, body: undefined }));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text for the message
        }
        done({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
    req.end(payload);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, boundMs: number, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + boundMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${boundMs} ms`);
    await sleep(50);
  }
}

class SignUpAbandoned extends Error {}

/** 16 clients signing up in a loop; each call goes to the next instance of `pool`, as a load balancer sends it. */
function signUpTraffic(pool: Instance[], runId: string) {
  const calls: Call[] = [];
  const completed: { email: string; at: number }[] = [];
  const abandoned: { email: string; step: string; call: Call }[] = [];
  let turn = 0;
  let running = true;

  async function step(client: number, name: string, method: string, path: string, body: unknown, token?: string): Promise<any> {
    let ambiguous = false;
    for (let attempt = 0; attempt < 600; attempt++) {
      if (!running) throw new SignUpAbandoned('stopped');
      const instance = pool[turn++ % pool.length]!;
      const sentAt = performance.now();
      const answer = await send(instance.proc.url, method, path, body, token);
      const at = performance.now();
      const call: Call = {
        client,
        instance: instance.name,
        step: name,
        status: answer.status,
        sentAt,
        at,
        ms: at - sentAt,
        afterAmbiguous: ambiguous,
        ...(answer.error ? { error: answer.error } : {}),
        ...(answer.status === 503 ? { retryAfter: String(answer.headers['retry-after']), type: answer.body?.error?.type } : {}),
      };
      calls.push(call);
      if (answer.status === 200) return answer.body;
      if (answer.status === 503 || answer.status === 0) {
        ambiguous = true;
        await sleep(answer.status === 503 ? 250 : 50);
        continue;
      }
      throw Object.assign(new SignUpAbandoned(`${name} answered ${answer.status}: ${JSON.stringify(answer.body)}`), { call });
    }
    throw new SignUpAbandoned(`${name}: no success in 600 attempts`);
  }

  async function signUp(client: number, email: string): Promise<void> {
    const init = await step(client, 'process/init', 'POST', '/v2/auth/process/init', { clientInformation: {}, preferredBlock: 'signup-init' });
    const token: string = init.token;
    const verify = await step(client, 'signup/init', 'POST', '/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Operator Test' }, token);
    expect(verify.blockBody.block).toBe('email-verify');
    const [message] = await step(client, 'dev outbox', 'GET', `/_dev/messages?to=${encodeURIComponent(email)}`, undefined);
    const finish = { code: message.code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false };
    const done = await step(client, 'verify/finish', 'POST', '/v2/auth/identifier/verify/finish', finish, token);
    expect(done.blockBody.block).toBe('completed');
    completed.push({ email, at: performance.now() });
  }

  const loops = Array.from({ length: CLIENTS }, async (_, client) => {
    for (let n = 0; running; n++) {
      const email = `operator.${runId}.${client}.${n}@example.com`;
      try {
        await signUp(client, email);
      } catch (error) {
        if (!(error instanceof SignUpAbandoned)) throw error;
        const call = (error as SignUpAbandoned & { call?: Call }).call;
        if (call) abandoned.push({ email, step: call.step, call });
      }
    }
  });

  return {
    calls,
    completed,
    abandoned,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Readiness of every instance, asked every 100 ms, each answer recorded. */
function readinessProbes(instances: Instance[]) {
  const answers: { instance: string; status: number; at: number }[] = [];
  let running = true;
  const loops = instances.map(async (instance) => {
    while (running) {
      const answer = await send(instance.proc.url, 'GET', '/health/ready', undefined, undefined);
      answers.push({ instance: instance.name, status: answer.status, at: performance.now() });
      await sleep(100);
    }
  });
  return {
    answers,
    firstAfter(instance: string, status: number, after: number) {
      return answers.find((a) => a.instance === instance && a.status === status && a.at > after);
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function unavailableCount(instance: Instance): Promise<number> {
  const answer = await send(instance.proc.url, 'GET', '/metrics', undefined, undefined);
  expect(answer.status).toBe(200);
  const match = /^fapi_service_unavailable_total (\S+)$/m.exec(String(answer.body));
  expect(match, 'fapi_service_unavailable_total').not.toBeNull();
  return Number(match![1]);
}

describe.skipIf(!POSTGRES_URL)('the operator scenario on PostgreSQL (needs PostgreSQL: run by npm run test:postgres)', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
  }, 60_000);

  it('two instances, 16 clients: restart, outage, locked table, SIGKILL, SIGTERM', { timeout: 170_000 }, async () => {
    const testStarted = performance.now();
    const cluster: PostgresCluster = await startPostgresCluster();
    cleanups.push(() => cluster.stop());
    const env = { DATABASE_URL: cluster.url, METRICS_ENABLED: 'on' };
    const start = async (name: string): Promise<Instance> => {
      const proc = await startServerProcess(env);
      cleanups.push(() => proc.kill());
      return { name, proc };
    };
    const [a, b] = await Promise.all([start('A'), start('B')]);
    const instances: Instance[] = [a!, b!];
    const pool: Instance[] = [a!, b!];
    const alive = () => expect(instances.map((i) => `${i.name}: ${i.proc.exited() ?? 'running'}`)).toEqual(instances.map((i) => `${i.name}: running`));
    const side = async () => {
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      return client;
    };
    /** The first success on every instance answered after `after` (ms after it). */
    const resumed = (what: string, servers: Instance[], after: number) =>
      Promise.all(
        servers.map((server) =>
          until(`${what}: a call served by ${server.name}`, 30_000, () => {
            const first = traffic.calls.find((c) => c.instance === server.name && c.status === 200 && c.at > after);
            return first ? first.at - after : undefined;
          }).catch((error: Error) => {
            // what the instance answered meanwhile, so that a failure says whether it refused, hung or was never asked
            const since = traffic.calls.filter((c) => c.instance === server.name && c.sentAt > after);
            const answers: Record<string, number> = {};
            for (const c of since) {
              const key = c.error ?? `${c.status}${c.type ? ` ${c.type}` : ''}`;
              answers[key] = (answers[key] ?? 0) + 1;
            }
            const slowest = Math.round(Math.max(0, ...since.map((c) => c.ms)));
            throw new Error(`${error.message}; its answers since: ${JSON.stringify(answers)}, the slowest ${slowest} ms; the process ${server.proc.exited() ?? 'running'}\n${server.proc.output().slice(-3000)}`);
          }),
        ),
      );
    const figures: Record<string, number | string> = {};

    const traffic = signUpTraffic(pool, Date.now().toString(36));
    cleanups.push(() => traffic.stop());
    await until('the first sign-ups', 30_000, () => (traffic.completed.length >= CLIENTS ? true : undefined));

    // (1) pg_ctl restart -m fast: every connection of both pools ends
    const restartAt = performance.now();
    await cluster.restart();
    const restartBack = performance.now();
    const restartResume = await resumed('after the restart', [a!, b!], restartBack);
    figures.restartMs = Math.round(restartBack - restartAt);
    figures.restartResumeMs = Math.round(Math.max(...restartResume));
    alive();

    // (2) an outage: stopped, OUTAGE_MS, started again
    const before = await Promise.all([a!, b!].map(unavailableCount));
    const probes = readinessProbes([a!, b!]);
    cleanups.push(() => probes.stop());
    await sleep(300);
    const stopAt = performance.now();
    await cluster.pause();
    const goneAt = performance.now();
    let notReady: number[];
    let during: number[];
    let resumeAt = Number.POSITIVE_INFINITY;
    try {
      notReady = await Promise.all(
        [a!, b!].map((i) => until(`readiness 503 on ${i.name}`, 15_000, () => probes.firstAfter(i.name, 503, stopAt)?.at)),
      );
      await sleep(Math.max(0, OUTAGE_MS - (performance.now() - goneAt)));
      during = await Promise.all([a!, b!].map(unavailableCount)); // /metrics answers without its database
    } finally {
      resumeAt = performance.now();
      await cluster.resume();
    }
    const outageBack = performance.now();
    const ready = await Promise.all(
      [a!, b!].map((i) => until(`readiness 200 on ${i.name}`, 30_000, () => probes.firstAfter(i.name, 200, outageBack)?.at)),
    );
    const outageResume = await resumed('after the outage', [a!, b!], outageBack);
    await probes.stop();
    // the calls sent and answered while the database was down (pg_ctl start returns once it accepts connections)
    const outageCalls = traffic.calls.filter((c) => c.sentAt > goneAt && c.at < resumeAt);
    figures.outageMs = Math.round(resumeAt - goneAt);
    figures.outageCalls = outageCalls.length;
    figures.outageWorstAnswerMs = Math.round(Math.max(...outageCalls.map((c) => c.ms)));
    figures.readiness503AfterMs = Math.round(Math.max(...notReady.map((at) => at - stopAt)));
    figures.readiness200AfterMs = Math.round(Math.max(...ready.map((at) => at - outageBack)));
    figures.outageResumeMs = Math.round(Math.max(...outageResume));
    figures.unavailableCounted = `${before.join('/')} -> ${during.join('/')}`;
    alive();

    // (3) a table every call needs, locked for longer than statement_timeout and lock_timeout
    const locker = await side();
    cleanups.push(() => locker.end().catch(() => {}));
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE processes IN ACCESS EXCLUSIVE MODE');
    const lockedAt = performance.now();
    await sleep(LOCK_HELD_MS);
    await locker.query('ROLLBACK');
    const unlockedAt = performance.now();
    const lockResume = await resumed('after the lock', [a!, b!], unlockedAt);
    const lockCalls = traffic.calls.filter((c) => c.sentAt > lockedAt && c.sentAt < unlockedAt);
    figures.lockWorstAnswerMs = Math.round(Math.max(...lockCalls.map((c) => c.ms)));
    figures.lock503s = lockCalls.filter((c) => c.status === 503).length;
    figures.lockResumeMs = Math.round(Math.max(...lockResume));
    alive();

    /** `action` while calls are in flight: held for a moment by a lock well within lock_timeout */
    const withCallsInFlight = async (action: () => Promise<void> | void) => {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE processes IN ACCESS EXCLUSIVE MODE');
      await sleep(500);
      await action();
      await sleep(500);
      await locker.query('ROLLBACK');
    };

    // (4) A killed (SIGKILL) with calls in flight; the load balancer notices, an orchestrator starts a replacement
    let killedAt = 0;
    await withCallsInFlight(async () => {
      killedAt = performance.now();
      await a!.proc.kill();
    });
    pool.splice(pool.indexOf(a!), 1);
    const c = await start('C');
    instances.push(c);
    pool.push(c);
    await resumed('on the replacement', [c, b!], performance.now());
    expect(a!.proc.exited()).toBe('SIGKILL');
    instances.splice(instances.indexOf(a!), 1);
    alive();

    // (5) SIGTERM to B with calls in flight; the load balancer takes it out at once
    let termAt = 0;
    await withCallsInFlight(() => {
      termAt = performance.now();
      pool.splice(pool.indexOf(b!), 1);
      process.kill(b!.proc.pid, 'SIGTERM');
    });
    const exitCode = await Promise.race([b!.proc.ended, sleep(30_000).then(() => 'still running after 30 s')]);
    figures.sigtermExitMs = Math.round(performance.now() - termAt);
    expect(exitCode, b!.proc.output()).toBe('0');
    instances.splice(instances.indexOf(b!), 1);
    await resumed('after B left', [c], performance.now());
    alive();

    await traffic.stop();
    const calls = traffic.calls;
    figures.calls = calls.length;
    figures.signUpsCompleted = traffic.completed.length;
    figures.signUpsAbandoned = traffic.abandoned.length;
    figures.cutByTheKill = calls.filter((call) => call.instance === 'A' && call.sentAt < killedAt && call.status === 0).length;
    figures.answeredAfterSigterm = calls.filter((call) => call.instance === 'B' && call.sentAt < termAt && call.at > termAt && call.status === 200).length;
    figures.worstAnswerMs = Math.round(Math.max(...calls.map((c) => c.ms)));
    figures.slowest = [...calls]
      .sort((x, y) => y.ms - x.ms)
      .slice(0, 3)
      .map((call) => {
        // calls of that instance in flight when it was sent (more than DATABASE_POOL_SIZE, 10, wait for a connection first)
        const crowd = calls.filter((other) => other.instance === call.instance && other.sentAt <= call.sentAt && other.at > call.sentAt).length;
        return `${call.step} on ${call.instance}: ${call.status} after ${Math.round(call.ms)} ms, ${crowd} in flight there`;
      })
      .join('; ');
    figures.testSeconds = Math.round((performance.now() - testStarted) / 1000);
    console.info(`operator scenario: ${JSON.stringify(figures)}`);

    // every call answered in bounded time: 200, or 503 with its envelope; no answer only from the killed
    // instance, or a refused connection from the one that was stopping
    for (const call of calls) {
      const shown = JSON.stringify(call);
      expect(call.ms, shown).toBeLessThan(ANSWER_BOUND_MS);
      if (call.status === 503) {
        expect(call.type, shown).toBe('service_unavailable');
        expect(call.retryAfter, shown).toMatch(/^\d+$/);
      } else if (call.status === 0) {
        const killedA = call.instance === 'A' && call.at >= killedAt;
        const refusedByB = call.instance === 'B' && call.sentAt >= termAt && call.error === 'ECONNREFUSED';
        expect(killedA || refusedByB, shown).toBe(true);
      } else if (call.status !== 200) {
        // a 4xx only for a step retried after it was cut by the kill: the first try had done it
        expect(call.afterAmbiguous, shown).toBe(true);
        expect(call.status, shown).toBeLessThan(500);
      }
    }
    // the kill cut calls in flight (their clients went on elsewhere); SIGTERM answered every call in flight
    expect(calls.filter((call) => call.instance === 'A' && call.sentAt < killedAt && call.status === 0).length).toBeGreaterThan(0);
    expect(calls.filter((call) => call.instance === 'B' && call.sentAt < termAt && call.status === 0)).toEqual([]);
    expect(calls.filter((call) => call.instance === 'B' && call.sentAt < termAt && call.at > termAt && call.status === 200).length).toBeGreaterThan(0);

    // the promised bounds
    expect(Math.max(...restartResume, ...outageResume, ...lockResume)).toBeLessThan(RESUME_BOUND_MS);
    expect(Math.max(...notReady.map((at) => at - stopAt))).toBeLessThan(READINESS_BOUND_MS);
    expect(Math.max(...ready.map((at) => at - outageBack))).toBeLessThan(RESUME_BOUND_MS);
    expect(outageCalls.length).toBeGreaterThan(CLIENTS);
    expect(outageCalls.filter((call) => call.status !== 503)).toEqual([]);
    expect(during[0]).toBeGreaterThan(before[0]!);
    expect(during[1]).toBeGreaterThan(before[1]!);
    expect(lockCalls.filter((call) => call.status === 503).length).toBeGreaterThan(0);
    // sign-ups went on between the faults
    for (const after of [restartBack, outageBack, unlockedAt, killedAt, termAt]) {
      expect(traffic.completed.some((s) => s.at > after)).toBe(true);
    }

    // every sign-up a client saw complete is stored, once: one user, one verified address
    const db = await side();
    try {
      const emails = traffic.completed.map((s) => s.email);
      const { rows } = await db.query<{ normalized: string; identifiers: string; verified: string; users: string }>(
        `SELECT i.normalized, COUNT(*) AS identifiers, COUNT(*) FILTER (WHERE i.status = 'verified') AS verified, COUNT(DISTINCT u.id) AS users
           FROM identifiers i JOIN users u ON u.id = i.user_id
          WHERE i.project_id = 'pro-1' AND i.type = 'email' AND i.normalized = ANY($1)
          GROUP BY i.normalized`,
        [emails],
      );
      expect(rows).toHaveLength(new Set(emails).size);
      expect(emails).toHaveLength(new Set(emails).size);
      for (const row of rows) expect(row, row.normalized).toMatchObject({ identifiers: '1', verified: '1', users: '1' });
    } finally {
      await db.end();
    }
  });
});
