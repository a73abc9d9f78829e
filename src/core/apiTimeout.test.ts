// SPEC §7: "The default timeout is 30000 ms." A widget loaded without apiTimeout gives a server that does
// not answer 30 s, and no less, before the call fails. Real HTTP to a local server that holds every
// request; the clock is Vitest's (only setTimeout/clearTimeout, which is what the timeout runs on).
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { CorbadoApp } from './app';

let server: Server;
let base = '';
const held: ServerResponse[] = [];
let arrived = 0;

beforeAll(async () => {
  server = createServer((_request, response) => {
    arrived += 1;
    held.push(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => vi.useRealTimers());
afterAll(() => {
  held.forEach((response) => response.destroy());
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

it('[spec 7.timeout] without apiTimeout, a call that gets no answer fails after 30000 ms, not before', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  // the constructor asks for the session configuration at once
  const app = new CorbadoApp({ projectId: 'pro-1', frontendApiUrl: base }, {} as Window);
  let failed: unknown;
  const call = app.api.getProcess().catch((error: unknown) => (failed = error));
  // both requests reach the server (real time passes: the clock only moves when told)
  for (let waited = 0; arrived < 2; waited += 1) {
    if (waited > 1_000) throw new Error('the requests did not arrive');
    await new Promise((resolve) => setImmediate(resolve));
  }
  await vi.advanceTimersByTimeAsync(29_990);
  expect(failed).toBeUndefined();
  await vi.advanceTimersByTimeAsync(20);
  await call;
  expect(failed).toMatchObject({ kind: 'unhandledBackendError', type: 'timeout' });
  await expect(app.sessionConfig).resolves.toBeUndefined();
});
