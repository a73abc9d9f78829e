// Idle keep-alive connections outlive the idle time of the clients that reuse them (server/app.ts,
// KEEP_ALIVE_MS): Node's own agent (fetch, axios, Playwright's route.fetch) drops an idle socket after
// 5 s, Node's server its idle connection after 5 s by default, and with equal times a client reuses the
// socket just as the server closes it: its call fails with a reset (seen in the e2e suite, a hosted-API
// call forwarded by route.fetch). Reverse proxies keep theirs longer still (60 s is common).
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/testServer.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ api: { backendApiPort: 0 } });
});
afterAll(() => server.stop());

/**
 * Two GETs on one connection, the second after `idleMs` of silence: the status codes answered, and
 * whether the server closed the connection before the second could be sent.
 */
async function twoCallsOneSocket(url: string, path: string, idleMs: number): Promise<{ statuses: string[]; closedWhileIdle: boolean }> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  socket.setEncoding('utf8');
  let received = '';
  let closed = false;
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('close', () => (closed = true));
  socket.on('error', () => (closed = true));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]!);
  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 5_000;
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const request = `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`;
  socket.write(request);
  await until(() => statuses().length === 1 || closed);
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const closedWhileIdle = closed;
  if (!closed) {
    socket.write(request);
    await until(() => statuses().length === 2 || closed);
  }
  socket.destroy();
  return { statuses: statuses(), closedWhileIdle };
}

describe('keep-alive', () => {
  it('the Frontend API and the Backend API keep an idle connection past the 5 s of Node’s own agent', { timeout: 20_000 }, async () => {
    const [frontend, backend] = await Promise.all([
      twoCallsOneSocket(server.url, '/health/alive', 6_000),
      twoCallsOneSocket(server.api.backendApiUrl!, '/v2/users', 6_000),
    ]);
    expect(frontend).toEqual({ statuses: ['200', '200'], closedWhileIdle: false });
    // the Backend API without credentials: its refusal, twice, on the one connection
    expect(backend).toEqual({ statuses: ['401', '401'], closedWhileIdle: false });
  });
});
