// SQLite faults, for real: the file locked by another connection that holds a write transaction, and
// the database full. Each call is answered 503 with Retry-After and the error envelope in bounded time,
// the process keeps serving (liveness answers meanwhile), and service resumes once the fault is gone.
import BetterSqlite from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealPending } from '../../audit/sealer.ts';
import { Client, startTestServer, type TestServer } from '../helpers/testServer.ts';

const BUSY_MS = 600;

describe('SQLite: another connection holds the write lock', () => {
  let server: TestServer;
  let holder: BetterSqlite.Database;
  const errors: string[] = [];

  beforeAll(async () => {
    const dir = tempDir();
    server = await startTestServer({
      dir,
      logger: { info: () => {}, error: (message) => errors.push(message) },
      // a SQLite file whatever TEST_DATABASE_URL says: this is about SQLite's lock
      api: { database: join(dir, 'db.sqlite'), databaseTimeouts: { busyMs: BUSY_MS } },
    });
  });
  afterAll(async () => {
    if (holder?.open) holder.close();
    await server.stop();
  });

  it('answers 503 with Retry-After after the busy timeout, keeps serving liveness meanwhile, and resumes', async () => {
    const client = new Client(server.url, 'pro-1');
    expect((await client.init()).status).toBe(200);

    await sealPending(server.api.store); // no audit pass left to queue on the lock ahead of the calls below
    holder = new BetterSqlite(dbPath(server));
    holder.exec('BEGIN IMMEDIATE'); // the write lock, as another process on the same file would hold it
    try {
      const started = performance.now();
      const pending = new Client(server.url, 'pro-1').init();
      // the wait for the lock must not stop the event loop: liveness answers while the call waits
      const alive = await fetch(`${server.url}/health/alive`);
      const aliveAfter = performance.now() - started;
      expect(alive.status).toBe(200);
      expect(aliveAfter).toBeLessThan(BUSY_MS);

      const res = await pending;
      const elapsed = performance.now() - started;
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
      expect(res.body).toMatchObject({ httpStatusCode: 503, error: { type: 'service_unavailable' } });
      expect(elapsed).toBeGreaterThanOrEqual(BUSY_MS - 50);
      expect(elapsed).toBeLessThan(BUSY_MS + 2_000);
      expect(errors.some((line) => line.includes('SQLITE_BUSY'))).toBe(true);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    // the lock is gone: the next call is served, nobody restarted anything
    expect((await new Client(server.url, 'pro-1').init()).status).toBe(200);
  });
});

describe('SQLite: the database is full', () => {
  let server: TestServer;
  const errors: string[] = [];

  beforeAll(async () => {
    const dir = tempDir();
    server = await startTestServer({
      dir,
      logger: { info: () => {}, error: (message, error) => errors.push(`${message}${error === undefined ? '' : ' +detail'}`) },
      api: { database: join(dir, 'db.sqlite') },
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('answers 503 with one log line, not a crash, and serves again once there is room', async () => {
    const db = server.api.store.db;
    // SQLite's own limit on the file's size: writes that need a new page fail with SQLITE_FULL, as
    // they would on a full disk
    const pages = (await db.get<{ page_count: number }>('PRAGMA page_count'))!.page_count;
    await db.exec(`PRAGMA max_page_count = ${pages}`);
    const statuses: number[] = [];
    let full: Awaited<ReturnType<Client['init']>> | undefined;
    for (let i = 0; i < 200 && !full; i++) {
      const res = await new Client(server.url, 'pro-1').init();
      statuses.push(res.status);
      if (res.status !== 200) full = res;
    }
    expect(full?.status).toBe(503);
    expect(full?.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(full?.body).toMatchObject({ error: { type: 'service_unavailable' } });
    expect(statuses.filter((s) => s !== 200)).toEqual([503]);
    // one line naming the cause, without a stack trace
    const lines = errors.filter((line) => line.includes('SQLITE_FULL'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('+detail');

    expect((await fetch(`${server.url}/health/alive`)).status).toBe(200);
    await db.exec('PRAGMA max_page_count = 1073741823');
    expect((await new Client(server.url, 'pro-1').init()).status).toBe(200);
  });
});

function dbPath(server: TestServer): string {
  return join(server.dir, 'db.sqlite');
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'fapi-fault-'));
}
