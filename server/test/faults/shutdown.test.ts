// A graceful stop (SIGTERM, startApi's close()): the calls in flight are answered, not cut, and their
// keep-alive connections do not hold the process; a call that does not end is cut after the grace
// bound. Found by the operator scenario (operatorScenario.test.ts), where SIGTERM to an instance under
// load reset its calls in flight. A call is held in flight by a real SQLite write lock of another
// connection on the file, as another process would hold it.
import BetterSqlite from 'better-sqlite3';
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sealPending } from '../../audit/sealer.ts';
import { DEMO_ORIGIN, startTestServer, type TestServer } from '../helpers/testServer.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server on a SQLite file of its own, whatever TEST_DATABASE_URL says (the lock is SQLite's), and that file locked. */
async function lockedServer(busyMs: number, shutdownGraceMs?: number): Promise<{ server: TestServer; unlock(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'fapi-shutdown-'));
  const file = join(dir, 'db.sqlite');
  const server = await startTestServer({ dir, api: { database: file, databaseTimeouts: { busyMs }, ...(shutdownGraceMs ? { shutdownGraceMs } : {}) } });
  cleanups.push(() => server.stop());
  // the audit trail's start-up pass done first: queued on the locked file, it would hold the connection
  // that the test takes for the call's
  await sealPending(server.api.store);
  const holder = new BetterSqlite(file);
  cleanups.push(() => {
    if (holder.open) holder.close();
  });
  holder.exec('BEGIN IMMEDIATE');
  return {
    server,
    unlock() {
      holder.exec('ROLLBACK');
      holder.close();
    },
  };
}

/** process/init (a write) on a keep-alive connection; its status and Connection header, or the socket error. */
function initOnKeepAlive(url: string, agent: http.Agent): Promise<{ status: number; connection?: string; error?: string }> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ clientInformation: {} });
    const req = http.request(`${url}/v2/auth/process/init`, {
      method: 'POST',
      agent,
      headers: { 'X-Corbado-ProjectID': 'pro-1', Origin: DEMO_ORIGIN, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, error: error.code ?? error.message }));
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ...(res.headers.connection ? { connection: res.headers.connection } : {}) }));
    });
    req.end(body);
  });
}

/** Resolves once a call holds the server's database connection: the write waiting for the held lock. */
async function waitingForTheLock(server: TestServer): Promise<void> {
  await expect.poll(() => server.api.store.db.pools()[0]!.inUse, { timeout: 10_000 }).toBe(1);
}

/** A fresh connection to the server: refused once close() has stopped it listening. */
function connects(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('closing the server', () => {
  it('answers the calls in flight, each with Connection: close, then resolves', async () => {
    const { server, unlock } = await lockedServer(10_000);
    const agent = new http.Agent({ keepAlive: true });
    cleanups.push(() => agent.destroy());
    const inFlight = initOnKeepAlive(server.url, agent);
    await waitingForTheLock(server);
    const order: string[] = [];
    const closing = server.api.close().then(() => order.push('closed'));
    // close() has stopped listening, and waits for the call, which cannot end before the lock is released
    await expect.poll(() => connects(server.url)).toBe(false);
    order.push('unlocked');
    unlock();
    expect(await inFlight).toEqual({ status: 200, connection: 'close' });
    await closing; // resolves, though the client keeps its connections alive
    expect(order).toEqual(['unlocked', 'closed']);
    expect(await initOnKeepAlive(server.url, agent)).toMatchObject({ status: 0, error: 'ECONNREFUSED' });
  });

  it('cuts a call that is still running after the grace bound: a reset, no sooner than the bound', async () => {
    const graceMs = 500;
    const { server, unlock } = await lockedServer(3_000, graceMs);
    cleanups.push(() => unlock());
    const inFlight = initOnKeepAlive(server.url, new http.Agent());
    await waitingForTheLock(server); // connected and in flight, so a refusal cannot pass for the cut
    const closedAt = performance.now();
    const closing = server.api.close();
    // cut while the lock is still held (the call would answer 503 after 3 s), not before the grace bound
    expect(await inFlight).toEqual({ status: 0, error: 'ECONNRESET' });
    expect(performance.now() - closedAt).toBeGreaterThanOrEqual(graceMs - 5);
    await closing; // the store closes once the cut call's wait for the lock (3 s) has ended
  });
});
