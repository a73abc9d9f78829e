// Server throughput: the Frontend API in child processes (one, or two sharing a PostgreSQL database),
// 20 closed-loop clients in this process.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { outboxCode, processInit, PROJECT, signupInit, uniqueEmail, type PendingVerification } from './frontendApi.ts';
import { runLoad, type LoadRequest, type LoadResult } from './load.ts';

const BENCH = fileURLToPath(new URL('..', import.meta.url));

export interface ServerResults {
  /** 'SQLite', 'PostgreSQL' */
  database: string;
  instances: number;
  /** whether the API recorded its audit trail */
  auditTrail: boolean;
  where: string;
  concurrency: number;
  durationMs: number;
  processInit: LoadResult;
  verifyFinish: LoadResult & { pool: number; poolBuildMs: number; kind: string };
}

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The API of a checkout (this one by default, or a base commit's beside it) in a child process, started
 * by that checkout's own bench/apiServer.ts with its own dependencies (tsx resolved from its folder).
 */
export async function startChild(database: string, auditTrail: boolean, checkout = join(BENCH, '..')): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(checkout, 'bench', 'apiServer.ts'), database, 'http://localhost:9'], {
    cwd: checkout,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_AUDIT_TRAIL: auditTrail ? 'on' : 'off' },
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the API child did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the API child exited with ${code}`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url);
    });
  });
  return {
    url,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export const JSON_HEADERS = { 'Content-Type': 'application/json', 'X-Corbado-ProjectID': PROJECT };

export function processInitLoad(): LoadRequest {
  return { method: 'POST', path: '/v2/auth/process/init', headers: JSON_HEADERS, body: '{"clientInformation":{}}' };
}

/**
 * Processes at email-verify with their codes, built before the timed window (process/init,
 * signup/init and the outbox read per process), so that the window holds verify/finish calls only.
 */
export async function buildPool(url: string, size: number, concurrency: number): Promise<PendingVerification[]> {
  const pool: PendingVerification[] = [];
  let started = 0;
  let failures = 0;
  const worker = async () => {
    while (started < size) {
      started += 1;
      try {
        const processId = await processInit(url);
        const email = uniqueEmail('load');
        const answer = await signupInit(url, processId, email);
        if (answer.blockBody.block !== 'email-verify') throw new Error(`signup/init answered ${answer.blockBody.block}`);
        pool.push({ processId, email, code: await outboxCode(url, email) });
      } catch (error) {
        failures += 1;
        if (failures > 20) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  return pool;
}

export function verifyLoad(pool: PendingVerification[]): () => LoadRequest | undefined {
  let taken = 0;
  return () => {
    const item = pool[taken++];
    if (!item) return undefined;
    return {
      method: 'POST',
      path: '/v2/auth/identifier/verify/finish',
      headers: { ...JSON_HEADERS, 'X-Corbado-Process-ID': item.processId },
      body: JSON.stringify({ code: item.code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false }),
    };
  };
}

// a correct code completes the sign-up: the answer is the completed block (or passkey-append)
export const verified = (status: number, body: string) => status === 200 && /"block":"(completed|passkey-append)"/.test(body);

export interface ServerBenchOptions {
  durationMs: number;
  concurrency: number;
  calibration: number;
  maxPool: number;
  /** a postgres:// URL of an empty database; SQLite (a temporary file) without one */
  postgresUrl?: string;
  /** false: the API records no audit trail (the baseline of the trail's cost; default true) */
  auditTrail?: boolean;
  /** API instances sharing the database (default 1) */
  instances?: number;
}

export async function serverBench(options: ServerBenchOptions): Promise<ServerResults> {
  const sqlitePath = join(BENCH, 'tmp', `load-${process.pid}-${Date.now()}.sqlite`);
  const database = options.postgresUrl ?? sqlitePath;
  const count = options.instances ?? 1;
  // one after the other: the first migrates the fresh database
  const children: Child[] = [];
  try {
    for (let i = 0; i < count; i++) children.push(await startChild(database, options.auditTrail ?? true));
    const urls = children.map((c) => c.url);
    // warm-up: JIT, page cache, keep-alive sockets, connection pools
    await runLoad({ baseUrl: urls, concurrency: options.concurrency, durationMs: 1500, next: processInitLoad });
    const processInit = await runLoad({ baseUrl: urls, concurrency: options.concurrency, durationMs: options.durationMs, next: processInitLoad });

    // calibration: a small pool tells how many verifications the window will need
    const sample = await buildPool(urls[0]!, options.calibration, options.concurrency);
    const calibration = await runLoad({ baseUrl: urls, concurrency: options.concurrency, durationMs: options.durationMs, next: verifyLoad(sample), accept: verified });
    const poolSize = Math.min(options.maxPool, Math.ceil((calibration.rps * options.durationMs * 1.8) / 1000));
    const poolStarted = performance.now();
    const pool = await buildPool(urls[0]!, poolSize, options.concurrency);
    const poolBuildMs = performance.now() - poolStarted;
    const verify = await runLoad({ baseUrl: urls, concurrency: options.concurrency, durationMs: options.durationMs, next: verifyLoad(pool), accept: verified });
    const engine = options.postgresUrl ? 'PostgreSQL' : 'SQLite';
    return {
      database: engine,
      instances: count,
      auditTrail: options.auditTrail ?? true,
      where: `${count === 1 ? 'API in a child process' : `${count} API child processes on one database, client i on instance i mod ${count}`} (node + tsx), ${engine}, load generator in the benchmark process, loopback 127.0.0.1`,
      concurrency: options.concurrency,
      durationMs: options.durationMs,
      processInit,
      verifyFinish: { ...verify, pool: pool.length, poolBuildMs, kind: 'correct e-mail code, each on its own fresh process (completes the sign-up)' },
    };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    for (const suffix of ['', '-wal', '-shm']) rmSync(sqlitePath + suffix, { force: true });
  }
}
