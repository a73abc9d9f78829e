import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CorbadoError } from '../errors';
import { addLanguage, configureI18n, t } from '../i18n/i18n';
import { ApiClient } from './client';

// A real HTTP server that records what arrives and answers what each test asks for.
let server: Server;
let base = '';
let seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
let answer: { status: number; body?: string; delay?: number; headers?: Record<string, string> } = { status: 200, body: '{}' };

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      setTimeout(() => {
        response.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
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
  it('[spec 6.project-header] sends the project, client version and flags headers, and the process id on process calls', async () => {
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

  it("names the widget's language in Accept-Language, for the e-mails and SMS a call sends", async () => {
    seen = [];
    answer = { status: 200, body: JSON.stringify({ blockBody: {}, common: {} }) };
    const api = client();
    await api.signupInit([{ type: 'email', identifier: 'ada@example.com' }], undefined, [{ id: 'terms', accepted: true, version: 'v2' }]);
    addLanguage('pl', { common: { or: 'lub' } });
    configureI18n({ defaultLanguage: 'pl', autoDetectLanguage: false });
    await api.loginInit('ada@example.com', false);
    configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false });
    expect(seen.map((request) => request.headers['accept-language'])).toEqual(['en', 'pl']);
    expect(JSON.parse(seen[0]!.body)).toEqual({ identifiers: [{ type: 'email', identifier: 'ada@example.com' }], signupFields: [{ id: 'terms', accepted: true, version: 'v2' }] });
  });

  it('sends an empty flags header outside preview mode', async () => {
    seen = [];
    answer = { status: 200, body: JSON.stringify({ blockBody: {}, common: {} }) };
    await client().getProcess();
    expect(seen[0]!.headers['x-corbado-flags']).toBe('');
  });

  // What a browser sends without a CORS preflight: no header but the safelisted ones (Accept,
  // Accept-Language, Content-Language, and Content-Type only as text/plain, a form or multipart).
  const SAFELISTED = ['accept', 'accept-language', 'content-language', 'content-type'];
  // what Node's fetch adds on its own (a browser adds its own, as forbidden headers)
  const TRANSPORT = ['host', 'connection', 'user-agent', 'accept-encoding', 'sec-fetch-mode', 'content-length'];
  const simpleRequest = (request: (typeof seen)[number]) => {
    expect(Object.keys(request.headers).filter((name) => !SAFELISTED.includes(name) && !TRANSPORT.includes(name))).toEqual([]);
    if (request.headers['content-type'] !== undefined) expect(request.headers['content-type']).toBe('text/plain;charset=UTF-8');
  };

  it('[spec 6.project-header] [spec 7.headers] asks session-config and process/init as simple requests (no preflight): the project in the query, the JSON as text/plain', async () => {
    seen = [];
    answer = { status: 200, body: JSON.stringify({ useSessionManagement: true }) };
    const api = client(2000, true);
    api.processId = 'stale';
    await api.sessionConfig();
    answer = { status: 200, body: JSON.stringify({ token: 't', expiresAt: 1, processResponse: { blockBody: {}, common: {} } }) };
    await api.processInit({ clientInformation: { isConditionalMediationAvailable: true } });
    const urls = seen.map((request) => new URL(request.url!, base));
    expect(seen.map((request, i) => `${request.method} ${urls[i]!.pathname}`)).toEqual(['GET /v2/session-config', 'POST /v2/auth/process/init']);
    for (const url of urls) {
      // what the headers carry on every other call
      expect([...url.searchParams.keys()]).toEqual(['projectID', 'sdk', 'flags']);
      expect(url.searchParams.get('projectID')).toBe('pro-7');
      expect(JSON.parse(url.searchParams.get('sdk')!)).toEqual({ name: 'corbado-widget', sdkVersion: expect.any(String) });
      expect(url.searchParams.get('flags')).toBe('preview');
    }
    for (const request of seen) simpleRequest(request);
    expect(seen[0]!.headers['accept-language']).toBe('en');
    expect(JSON.parse(seen[1]!.body)).toEqual({ clientInformation: { isConditionalMediationAvailable: true } });
  });

  it('asks once more the usual way when the server refuses the simple form (400 or 415: it reads the project from the header only)', async () => {
    for (const status of [400, 415]) {
      seen = [];
      answer = { status, body: JSON.stringify({ error: { type: status === 400 ? 'project_id_missing' : 'unsupported_media_type', links: [] } }) };
      const refused = client().processInit({ clientInformation: {} });
      await expect(refused).rejects.toMatchObject({ kind: 'unhandledBackendError', status });
      expect(seen.map((request) => `${request.method} ${request.url!.replace(/&.*$/, '')}`)).toEqual(['POST /v2/auth/process/init?projectID=pro-7', 'POST /v2/auth/process/init']);
      expect(seen[1]!.headers['x-corbado-projectid']).toBe('pro-7');
      expect(seen[1]!.headers['content-type']).toBe('application/json');
      expect(JSON.parse(seen[1]!.body)).toEqual({ clientInformation: {} });
    }
    // a refusal of the origin is not retried
    seen = [];
    answer = { status: 403, body: JSON.stringify({ error: { type: 'forbidden_origin', links: [] } }) };
    await expect(client().sessionConfig()).rejects.toMatchObject({ status: 403 });
    expect(seen).toHaveLength(1);
  });

  it('[spec 8.process-not-found] [spec 8.unhandled-backend] maps process_not_available to "process not found" and other types to an unhandled backend error', async () => {
    answer = { status: 404, body: JSON.stringify({ error: { type: 'process_not_available', links: [] } }) };
    await expect(client().getProcess()).rejects.toMatchObject({ kind: 'processNotFound', recoverable: true });
    answer = { status: 400, body: JSON.stringify({ error: { type: 'invalid_request', links: [] } }) };
    await expect(client().getProcess()).rejects.toMatchObject({ kind: 'unhandledBackendError', type: 'invalid_request' });
    answer = { status: 500, body: 'not json' };
    await expect(client().getProcess()).rejects.toMatchObject({ kind: 'unhandledBackendError', type: 'no_data_in_response' });
  });

  describe('HTTP 429', () => {
    const envelope = JSON.stringify({
      httpStatusCode: 429,
      message: 'Too many requests',
      requestData: { requestID: 'req-1', link: '' },
      runtime: 0.001,
      error: { type: 'too_many_requests', details: 'login/init per IP', links: [] },
    });
    const refused = async (headers: Record<string, string>) => {
      answer = { status: 429, body: envelope, headers };
      const error = await client().loginInit('ada@example.com', false).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CorbadoError);
      return error as CorbadoError;
    };

    it('becomes "too many requests" with the seconds of Retry-After, recoverable and shown', async () => {
      const error = await refused({ 'Retry-After': '120' });
      expect(error).toMatchObject({ kind: 'tooManyRequests', retryAfter: 120, recoverable: true, ignorable: false });
      expect(t(error.translationKey, error.translationValues, 'en')).toBe('Too many attempts. Please try again in 2 minutes.');
      expect(t(error.translationKey, error.translationValues, 'de')).toBe('Zu viele Versuche. Bitte versuche es in 2 Minuten erneut.');
    });

    it('says one minute in the singular, and less than a minute below it', async () => {
      const minute = await refused({ 'Retry-After': '60' });
      expect(t(minute.translationKey, minute.translationValues, 'en')).toBe('Too many attempts. Please try again in 1 minute.');
      expect(t(minute.translationKey, minute.translationValues, 'de')).toBe('Zu viele Versuche. Bitte versuche es in einer Minute erneut.');
      const seconds = await refused({ 'Retry-After': '45' });
      expect(seconds.retryAfter).toBe(45);
      expect(t(seconds.translationKey, seconds.translationValues, 'en')).toBe('Too many attempts. Please try again in less than a minute.');
      expect(t(seconds.translationKey, seconds.translationValues, 'de')).toBe(
        'Zu viele Versuche. Bitte versuche es in weniger als einer Minute erneut.',
      );
    });

    it('rounds a started minute up: 61 seconds are 2 minutes', async () => {
      const error = await refused({ 'Retry-After': '61' });
      expect(t(error.translationKey, error.translationValues, 'en')).toBe('Too many attempts. Please try again in 2 minutes.');
    });

    it('reads Retry-After as an HTTP date too', async () => {
      const error = await refused({ 'Retry-After': new Date(Date.now() + 300_000).toUTCString() });
      // the date has whole seconds: between 4 and 5 minutes from now
      expect(error.retryAfter).toBeGreaterThan(240);
      expect(error.retryAfter).toBeLessThanOrEqual(300);
      expect(t(error.translationKey, error.translationValues, 'en')).toBe('Too many attempts. Please try again in 5 minutes.');
    });

    it('says "later" when the server names no time or an unreadable one', async () => {
      for (const headers of [{}, { 'Retry-After': 'soon' }] as Record<string, string>[]) {
        const error = await refused(headers);
        expect(error.kind).toBe('tooManyRequests');
        expect(error.retryAfter).toBeUndefined();
        expect(t(error.translationKey, error.translationValues, 'en')).toBe('Too many attempts. Please try again later.');
        expect(t(error.translationKey, error.translationValues, 'de')).toBe('Zu viele Versuche. Bitte versuche es später erneut.');
      }
    });
  });

  it('keeps a 503 (the database of the server away) as service_unavailable, with a text of its own in both languages', async () => {
    answer = {
      status: 503,
      headers: { 'Retry-After': '5' },
      body: JSON.stringify({ httpStatusCode: 503, message: 'Service unavailable', error: { type: 'service_unavailable', links: [] } }),
    };
    const error = (await client().loginInit('ada@example.com', false).catch((e: unknown) => e)) as CorbadoError;
    expect(error).toBeInstanceOf(CorbadoError);
    expect(error).toMatchObject({ status: 503, type: 'service_unavailable', ignorable: false });
    // the error popup shows errors.<type> when there is such a text (ErrorPopup.failureText)
    expect(t(`errors.${error.type}`, {}, 'en')).toBe('The service is briefly unavailable. Please try again in a moment; what you entered is kept.');
    expect(t(`errors.${error.type}`, {}, 'de')).toBe(
      'Der Dienst ist vorübergehend nicht verfügbar. Bitte versuche es gleich noch einmal; deine Eingaben bleiben erhalten.',
    );
  });

  it('[spec 8.unhandled-backend] treats a 2xx without data as an unhandled backend error', async () => {
    answer = { status: 200, body: '' };
    await expect(client().completeProcess()).rejects.toBeInstanceOf(CorbadoError);
    await expect(client().completeProcess()).rejects.toMatchObject({ kind: 'unhandledBackendError', recoverable: false });
  });

  it('times out after the configured time', async () => {
    answer = { status: 200, body: '{}', delay: 300 };
    await expect(client(50).getProcess()).rejects.toMatchObject({ kind: 'unhandledBackendError', type: 'timeout' });
  });

  it('[spec 7.cancelled] reports a cancelled request as RequestCancelled, which callers ignore', async () => {
    answer = { status: 200, body: '{}', delay: 300 };
    const controller = new AbortController();
    const pending = client().verifyStatus(controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'RequestCancelled' });
  });

  it('[spec 6.bearer] sends the long session as bearer on session calls, and an empty bearer on refresh without one', async () => {
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
