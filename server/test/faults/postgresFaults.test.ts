// PostgreSQL faults, for real (run by `npm run test:postgres`): a cluster of this file's own, restarted,
// stopped and locked under a real API process. Each asserts what clients and operators see: the process
// does not exit, every call is answered in bounded time (503 with Retry-After while the database is
// away), readiness follows the database, and service resumes without anybody restarting the API.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../scripts/postgresCluster.ts';
import { START_BOUND_MS, startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';
import { Client, DEMO_ORIGIN, POSTGRES_URL } from '../helpers/testServer.ts';

// Tight bounds, so that the test is quick; the defaults are larger (README: "Environment").
const TIMEOUTS = {
  DATABASE_CONNECT_TIMEOUT_MS: '1000',
  DATABASE_POOL_TIMEOUT_MS: '2000',
  DATABASE_STATEMENT_TIMEOUT_MS: '3000',
  DATABASE_LOCK_TIMEOUT_MS: '2000',
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '5000',
};
/** No call may take longer than this, whatever the database does (the bound is 15 s). */
const ANSWER_BOUND_MS = 8_000;

interface Answer {
  status: number;
  /** Access-Control-Allow-Origin: without it a browser hides the 503 from the widget */
  cors?: string | null;
  ms: number;
  retryAfter: string | null;
  type: string | undefined;
}

async function call(url: string): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await new Client(url, 'pro-1').request('POST', '/v2/auth/process/init', { clientInformation: {} }, {});
    return {
      status: res.status,
      ms: performance.now() - started,
      retryAfter: res.headers.get('Retry-After'),
      type: res.body?.error?.type,
      cors: res.headers.get('Access-Control-Allow-Origin'),
    };
  } catch {
    return { status: 0, ms: performance.now() - started, retryAfter: null, type: undefined };
  }
}

async function ready(url: string): Promise<{ status: number; body: { checks?: Record<string, string> } }> {
  const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
  return { status: res.status, body: (await res.json()) as { checks?: Record<string, string> } };
}

/** Calls from `workers` clients in a loop until stop() (bounded in count), each answer recorded. */
function load(url: string, workers: number) {
  const answers: (Answer & { at: number })[] = [];
  let running = true;
  const loops = Array.from({ length: workers }, async () => {
    for (let i = 0; running && i < 2_000; i++) {
      const answer = await call(url);
      answers.push({ ...answer, at: performance.now() });
      if (answer.status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
  });
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function until<T>(what: string, boundMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + boundMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${boundMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function expectWellFormed(answers: Answer[]): void {
  for (const answer of answers) {
    expect([200, 503], JSON.stringify(answer)).toContain(answer.status);
    expect(answer.ms, JSON.stringify(answer)).toBeLessThan(ANSWER_BOUND_MS);
    if (answer.status === 503) {
      expect(answer.type).toBe('service_unavailable');
      expect(answer.retryAfter).toMatch(/^\d+$/);
    }
  }
}

/** What a browser needs to let the widget read an answer from the demo origin. */
async function expectReadableByTheWidget(url: string, answer: Answer): Promise<void> {
  expect(answer.cors).toBe(DEMO_ORIGIN);
  const preflight = await fetch(`${url}/v2/auth/process/init`, {
    method: 'OPTIONS',
    headers: { Origin: DEMO_ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-corbado-projectid' },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('Access-Control-Allow-Origin')).toBe(DEMO_ORIGIN);
}

describe.skipIf(!POSTGRES_URL)('PostgreSQL faults under a real API process', () => {
  let cluster: PostgresCluster;
  let api: ServerProcess;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    api = await startServerProcess({ DATABASE_URL: cluster.url, ...TIMEOUTS });
  }, START_BOUND_MS + 30_000);
  afterAll(async () => {
    await api?.stop();
    cluster?.stop();
  }, 30_000);

  it('a table locked longer than lock_timeout: 503 in bounded time, then served again', async () => {
    expect((await call(api.url)).status).toBe(200);
    const side = new pg.Client({ connectionString: cluster.url });
    await side.connect();
    try {
      await side.query('BEGIN');
      await side.query('LOCK TABLE processes IN ACCESS EXCLUSIVE MODE');
      const answer = await call(api.url);
      console.info(`table locked: ${answer.status} after ${Math.round(answer.ms)} ms (lock_timeout ${TIMEOUTS.DATABASE_LOCK_TIMEOUT_MS} ms)`);
      expect(answer.status).toBe(503);
      expect(answer.type).toBe('service_unavailable');
      expect(answer.retryAfter).toMatch(/^\d+$/);
      expect(answer.ms).toBeLessThan(Number(TIMEOUTS.DATABASE_LOCK_TIMEOUT_MS) + 2_000);
      await side.query('ROLLBACK');
    } finally {
      await side.end();
    }
    expect((await call(api.url)).status).toBe(200);
    expect(api.exited()).toBeUndefined();
  }, 30_000);

  it('a restart (pg_ctl restart -m fast) under load: no exit, bounded answers, service resumes by itself', async () => {
    const traffic = load(api.url, 6);
    await until('first answers', 5_000, async () => (traffic.answers.some((a) => a.status === 200) ? true : undefined));
    // Connections checked out in the middle of a transaction, idle between statements, when the server
    // goes: the shape that ended the process (57P01 arrives with no query to fail, as an 'error' event).
    // Sign-ups count their e-mail sends on the limit counters' own connections while their transaction
    // waits; a lock on the counters keeps them waiting there.
    const wedged = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const client = new Client(api.url, 'pro-1');
        expect((await client.init()).status).toBe(200);
        return client;
      }),
    );
    const side = new pg.Client({ connectionString: cluster.url });
    side.on('error', () => {}); // the restart ends this connection too
    await side.connect();
    await side.query('BEGIN');
    await side.query('LOCK TABLE rate_limit_buckets IN ACCESS EXCLUSIVE MODE');
    const signups = wedged.map(async (client, i): Promise<Answer> => {
      const started = performance.now();
      try {
        const res = await client.request('POST', '/v2/auth/signup/init', {
          identifiers: [{ type: 'email', identifier: `fault-${i}-${Date.now()}@example.com` }],
          fullName: 'Fault Test',
        });
        return { status: res.status, ms: performance.now() - started, retryAfter: res.headers.get('Retry-After'), type: res.body?.error?.type };
      } catch {
        return { status: 0, ms: performance.now() - started, retryAfter: null, type: undefined }; // no answer at all
      }
    });
    await new Promise((r) => setTimeout(r, 300));
    const restarted = performance.now();
    await cluster.restart();
    const back = performance.now();
    await side.end().catch(() => {});
    expectWellFormed(await Promise.all(signups));
    const resumed = await until('a call served after the restart', 15_000, async () =>
      traffic.answers.find((a) => a.at > back && a.status === 200),
    );
    await new Promise((r) => setTimeout(r, 1_000));
    await traffic.stop();
    const during = traffic.answers.filter((a) => a.at >= restarted);
    console.info(
      `restart took ${Math.round(back - restarted)} ms; first success ${Math.round(resumed.at - back)} ms after the database was back; ` +
        `${during.length} answers since: ${during.filter((a) => a.status === 503).length} × 503, slowest ${Math.round(Math.max(...during.map((a) => a.ms)))} ms`,
    );
    expect(api.exited(), api.output()).toBeUndefined();
    expectWellFormed(traffic.answers);
    expect(resumed.at - back).toBeLessThan(5_000);
    expect((await ready(api.url)).status).toBe(200);
  }, 60_000);

  it('an outage (database stopped): 503 meanwhile, readiness 503 then 200, liveness throughout, service resumes by itself', async () => {
    expect((await call(api.url)).status).toBe(200);
    const stoppedAt = performance.now();
    await cluster.pause();
    try {
      const answer = await call(api.url);
      console.info(`database stopped: call answered ${answer.status} after ${Math.round(answer.ms)} ms`);
      expect(answer.status).toBe(503);
      expect(answer.type).toBe('service_unavailable');
      expect(answer.retryAfter).toMatch(/^\d+$/);
      expect(answer.ms).toBeLessThan(ANSWER_BOUND_MS);
      await expectReadableByTheWidget(api.url, answer);
      const notReady = await until('readiness 503', 5_000, async () => {
        const r = await ready(api.url);
        return r.status === 503 ? r : undefined;
      });
      console.info(`readiness 503 ${Math.round(performance.now() - stoppedAt)} ms after the stop: ${JSON.stringify(notReady.body.checks)}`);
      expect(notReady.body.checks?.database).toMatch(/^unreachable/);
      expect((await fetch(`${api.url}/health/alive`)).status).toBe(200);
      // a few seconds of outage under calls
      const traffic = load(api.url, 4);
      await new Promise((r) => setTimeout(r, 3_000));
      await traffic.stop();
      expectWellFormed(traffic.answers);
      expect(traffic.answers.every((a) => a.status === 503)).toBe(true);
    } finally {
      await cluster.resume();
    }
    const back = performance.now();
    await until('readiness 200', 15_000, async () => ((await ready(api.url)).status === 200 ? true : undefined));
    const readyAfter = performance.now() - back;
    await until('a call served', 5_000, async () => ((await call(api.url)).status === 200 ? true : undefined));
    console.info(`database back: ready after ${Math.round(readyAfter)} ms, calls served after ${Math.round(performance.now() - back)} ms`);
    expect(api.exited(), api.output()).toBeUndefined();
  }, 60_000);
});
