import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CorbadoError } from '../errors';
import { ApiClient } from './client';

// A real HTTP server that records what arrives and answers what each test asks for.
let server: Server;
let base = '';
let seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
let answer: { status: number; body?: string; delay?: number } = { status: 200, body: '{}' };

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      setTimeout(() => {
        response.writeHead(answer.status, { 'Content-Type': 'application/json' });
        response.end(answer.body);
      }, answer.delay ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (timeout = 2000, preview = false) =>
  new ApiClient({ projectId: 'pro-7', frontendApiUrl: base, timeout, preview });

describe('ApiClient', () => {
  it('sends the project, client version and flags headers, and the process id on process calls', async () => {
    seen = [];
    answer = { status: 200, body: JSON.stringify({ blockBody: {}, common: {} }) };
    const api = client(2000, true);
    api.processId = 'proc-token';
    await api.loginInit('ada@example.com', false);
    const [request] = seen;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v2/auth/login/init');
    expect(request!.headers['x-corbado-projectid']).toBe('pro-7');
    expect(request!.headers['x-corbado-flags']).toBe('preview');
    expect(JSON.parse(request!.headers['x-corbado-sdk'] as string)).toMatchObject({ name: 'corbado-widget' });
    expect(request!.headers['x-corbado-process-id']).toBe('proc-token');
    expect(JSON.parse(request!.body)).toEqual({ identifierValue: 'ada@example.com', isPhone: false });
  });

  it('sends an empty flags header outside preview mode and no process id on session-config', async () => {
    seen = [];
    answer = { status: 200, body: JSON.stringify({ useSessionManagement: true }) };
    await client().sessionConfig();
    expect(seen[0]!.headers['x-corbado-flags']).toBe('');
    expect(seen[0]!.headers['x-corbado-process-id']).toBeUndefined();
  });

  it('maps process_not_available to "process not found" and other types to an unhandled backend error', async () => {
    answer = { status: 404, body: JSON.stringify({ error: { type: 'process_not_available', links: [] } }) };
    await expect(client().getProcess()).rejects.toMatchObject({ kind: 'processNotFound', recoverable: true });
    answer = { status: 400, body: JSON.stringify({ error: { type: 'invalid_request', links: [] } }) };
    await expect(client().getProcess()).rejects.toMatchObject({ kind: 'unhandledBackendError', type: 'invalid_request' });
    answer = { status: 500, body: 'not json' };
    await expect(client().getProcess()).rejects.toMatchObject({ kind: 'unhandledBackendError', type: 'no_data_in_response' });
  });

  it('treats a 2xx without data as an unhandled backend error', async () => {
    answer = { status: 200, body: '' };
    await expect(client().completeProcess()).rejects.toBeInstanceOf(CorbadoError);
  });

  it('times out after the configured time', async () => {
    answer = { status: 200, body: '{}', delay: 300 };
    await expect(client(50).getProcess()).rejects.toMatchObject({ kind: 'unhandledBackendError', type: 'timeout' });
  });

  it('reports a cancelled request as RequestCancelled, which callers ignore', async () => {
    answer = { status: 200, body: '{}', delay: 300 };
    const controller = new AbortController();
    const pending = client().verifyStatus(controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'RequestCancelled' });
  });

  it('sends the long session as bearer on session calls, and an empty bearer on refresh without one', async () => {
    seen = [];
    answer = { status: 200, body: JSON.stringify({ shortSession: 'x' }) };
    const api = client();
    await api.refresh();
    expect(seen[0]!.headers.authorization).toBe('Bearer');
    api.longSession = () => 'long-token';
    await api.passkeys().catch(() => undefined);
    expect(seen[1]!.headers.authorization).toBe('Bearer long-token');
  });
});
