// @vitest-environment happy-dom
// SPEC §7: "A cancelled request is ignored." The e-mail link screen polls the verification status; when
// the visitor leaves it while a poll is in flight, that request is cancelled, and its end shows nothing
// and starts nothing. Real HTTP against a local server that holds the poll.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient } from '../api/client';
import { Session } from '../session/session';
import { Flow } from './flow';

let server: Server;
let base = '';
const polls: { request: IncomingMessage; response: ServerResponse; closed: boolean }[] = [];

const linkSent = {
  block: 'email-verify',
  authType: 'signup',
  data: { verificationMethod: 'email-link', identifier: 'ada@example.com', retryNotBefore: 0 },
  alternatives: [],
};
const common = { appName: 'Test', frontendApiUrl: '', hideBadge: false };

beforeAll(async () => {
  server = createServer((request, response) => {
    const cors = { 'Access-Control-Allow-Origin': request.headers.origin ?? '*', 'Access-Control-Allow-Credentials': 'true' };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'GET, POST', 'Access-Control-Allow-Headers': request.headers['access-control-request-headers'] ?? '' });
      return response.end();
    }
    const path = new URL(request.url ?? '/', base).pathname;
    if (path === '/v2/auth/identifier/verify/status') {
      // held: only the client's cancel ends it
      const poll = { request, response, closed: false };
      response.on('close', () => (poll.closed = true));
      polls.push(poll);
      return;
    }
    const body =
      path === '/v2/auth/process/init'
        ? { token: 'proc-1', expiresAt: Math.floor(Date.now() / 1000) + 3600, processResponse: { blockBody: linkSent, common } }
        : { blockBody: linkSent, common };
    response.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 15_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('[spec 7.cancelled] a poll cancelled in flight, by leaving the e-mail link screen, is ignored: no error, no next poll', async () => {
  const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: base, timeout: 30_000, preview: false });
  const flow = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
  await flow.start();
  expect(flow.$screen.get()).toBe('email-link-sent');
  const shown = flow.$block.get();

  // the first poll leaves after its interval and is held by the server
  await until(() => polls.length === 1, 'the first poll');
  flow.setScreen('edit-email');
  await until(() => polls[0]!.closed, 'the cancel to reach the server');

  // well past another poll interval: nothing followed, nothing is shown
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  expect(polls).toHaveLength(1);
  expect(flow.$error.get()).toBeUndefined();
  expect(flow.$block.get()).toBe(shown);
  expect(flow.$block.get()?.failure).toBeUndefined();
  expect(flow.$screen.get()).toBe('edit-email');
  flow.dispose();
}, 30_000);
