/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Transport rules: error envelope, headers, CORS, process handling, dev endpoints.
import { describe, expect, it } from 'vitest';
import { Client, createProject, DEMO_ORIGIN, dropTestDatabase, outbox, serverForThisFile, testDatabase, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile();

function expectEnvelope(res: { status: number; body: any }, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({
    httpStatusCode: status,
    message: expect.any(String),
    requestData: { requestID: expect.stringMatching(/^req-/), link: '' },
    runtime: expect.any(Number),
    error: { type, links: [] },
  });
  expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/); // no stack traces
}

describe('error envelope and headers', () => {
  it('answers 404 not_found for an unknown route', async () => {
    const res = await new Client(server.url, 'pro-1').request('GET', '/v2/does-not-exist');
    expectEnvelope(res, 404, 'not_found');
  });

  it('answers 400 project_id_missing without the project header', async () => {
    const res = await fetch(`${server.url}/v2/session-config`);
    expectEnvelope({ status: res.status, body: await res.json() }, 400, 'project_id_missing');
  });

  it('answers 404 project_not_found for an unknown or malformed project', async () => {
    expectEnvelope(await new Client(server.url, 'pro-999999').request('GET', '/v2/session-config'), 404, 'project_not_found');
    expectEnvelope(await new Client(server.url, 'nonsense').request('GET', '/v2/session-config'), 404, 'project_not_found');
  });

  it('answers 400 invalid_request with validation entries for wrong types and missing fields', async () => {
    const client = new Client(server.url, 'pro-1');
    const res = await client.request('POST', '/v2/auth/process/init', {
      clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable: 'yes' },
      preferredBlock: 7,
    });
    expectEnvelope(res, 400, 'invalid_request');
    expect(res.body.error.validation).toEqual(
      expect.arrayContaining([
        { field: 'clientInformation.isUserVerifyingPlatformAuthenticatorAvailable', message: expect.any(String) },
        { field: 'preferredBlock', message: expect.any(String) },
      ]),
    );
    const missing = await client.request('POST', '/v2/auth/process/init', {});
    expectEnvelope(missing, 400, 'invalid_request');
    expect(missing.body.error.validation).toEqual([{ field: 'clientInformation', message: 'is required' }]);
  });

  it('answers 400 for malformed JSON and for non-object bodies, never 500', async () => {
    const client = new Client(server.url, 'pro-1');
    expectEnvelope(await client.request('POST', '/v2/auth/process/init', '{"clientInformation":'), 400, 'invalid_request');
    expectEnvelope(await client.request('POST', '/v2/auth/process/init', '[1,2]'), 400, 'invalid_request');
    expectEnvelope(await client.request('POST', '/v2/auth/process/init', 'null'), 400, 'invalid_request');
    await client.init();
    for (const path of ['/v2/auth/signup/init', '/v2/auth/login/init', '/v2/auth/identifier/verify/finish', '/v2/auth/passkey/append/finish']) {
      expectEnvelope(await client.request('POST', path, '{oops'), 400, 'invalid_request');
      expectEnvelope(await client.request('POST', path, { identifiers: 'x', identifierValue: 1, code: 5, signedChallenge: 3 }), 400, 'invalid_request');
    }
  });

  it('rejects a signed challenge that is not a credential with 400', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init({ isUserVerifyingPlatformAuthenticatorAvailable: true });
    expectEnvelope(await client.request('POST', '/v2/auth/passkey/append/finish', { signedChallenge: 'not json' }), 400, 'invalid_request');
    expectEnvelope(await client.request('POST', '/v2/auth/passkey/login/finish', { signedChallenge: '{"id":1}' }), 400, 'invalid_request');
    expectEnvelope(await client.request('POST', '/v2/auth/passkey/mediation/finish', { signedChallenge: '[]' }), 400, 'invalid_request');
  });
});

describe('process header', () => {
  it('answers process_not_available for a missing, unknown or foreign process', async () => {
    const client = new Client(server.url, 'pro-1');
    expectEnvelope(await client.request('GET', '/v2/auth/process'), 404, 'process_not_available');
    client.processToken = 'made-up-token';
    expectEnvelope(await client.request('GET', '/v2/auth/process'), 404, 'process_not_available');
    expectEnvelope(await client.request('POST', '/v2/auth/signup/init', { identifiers: [] }), 404, 'process_not_available');
    const other = new Client(server.url, 'pro-2');
    await other.init();
    const foreign = new Client(server.url, 'pro-1');
    foreign.processToken = other.processToken;
    expectEnvelope(await foreign.request('GET', '/v2/auth/process'), 404, 'process_not_available');
  });

  it('reads the header case-insensitively and ignores a stale one on process/init', async () => {
    const client = new Client(server.url, 'pro-1');
    const init = await client.request('POST', '/v2/auth/process/init', { clientInformation: {} }, { 'X-CORBADO-PROCESS-ID': 'stale' });
    expect(init.status).toBe(200);
    const res = await client.request('GET', '/v2/auth/process', undefined, { 'X-Corbado-Process-ID': init.body.token });
    expect(res.status).toBe(200);
  });

  it('expires a process after processLifetimeSeconds', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init();
    server.clock.advance(3601_000);
    try {
      expectEnvelope(await client.request('GET', '/v2/auth/process'), 404, 'process_not_available');
    } finally {
      server.clock.advance(-3601_000);
    }
  });

  it('uses unguessable process tokens', async () => {
    const client = new Client(server.url, 'pro-1');
    const a = (await client.init()).body.token as string;
    const b = (await client.init()).body.token as string;
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64url').length).toBeGreaterThanOrEqual(16);
  });
});

describe('CORS', () => {
  it('answers a preflight for an allowed origin', async () => {
    const res = await fetch(`${server.url}/v2/auth/process/init`, {
      method: 'OPTIONS',
      headers: { Origin: DEMO_ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-corbado-projectid' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(DEMO_ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, PATCH, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toContain('X-Corbado-Process-ID');
    expect(res.headers.get('access-control-max-age')).toBe('7200');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('refuses a preflight from an unknown origin', async () => {
    const res = await fetch(`${server.url}/v2/auth/process/init`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await res.json()) as any).error.type).toBe('forbidden_origin');
  });

  it('echoes an allowed origin on real requests and errors', async () => {
    const ok = await new Client(server.url, 'pro-1').request('GET', '/v2/session-config');
    expect(ok.headers.get('access-control-allow-origin')).toBe(DEMO_ORIGIN);
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    const err = await new Client(server.url, 'pro-1').request('GET', '/v2/auth/process');
    expect(err.status).toBe(404);
    expect(err.headers.get('access-control-allow-origin')).toBe(DEMO_ORIGIN);
  });

  it('answers 403 forbidden_origin for a disallowed origin on a known project', async () => {
    const res = await new Client(server.url, 'pro-1', 'https://evil.example').request('GET', '/v2/session-config');
    expectEnvelope(res, 403, 'forbidden_origin');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows an origin only for the projects that list it', async () => {
    const id = await createProject(server.url, { allowedOrigins: ['https://shop.example'] });
    expect((await new Client(server.url, id, 'https://shop.example').request('GET', '/v2/session-config')).status).toBe(200);
    expect((await new Client(server.url, 'pro-1', 'https://shop.example').request('GET', '/v2/session-config')).status).toBe(403);
    expect((await new Client(server.url, id, DEMO_ORIGIN).request('GET', '/v2/session-config')).status).toBe(403);
  });
});

describe('session-config and process basics', () => {
  it('answers session-config', async () => {
    const res = await new Client(server.url, 'pro-1').request('GET', '/v2/session-config');
    expect(res.body).toEqual({
      useSessionManagement: true,
      shortSessionCookieConfig: { domain: '', secure: false, sameSite: 'lax', path: '/', lifetimeSeconds: 300 },
      sessionTokenCookieConfig: { domain: '', secure: false, sameSite: 'lax', path: '/', lifetimeSeconds: 300 },
      frontendApiUrl: server.url,
      // the test server listens on 127.0.0.1, the demo page is on localhost: another site (a dev project keeps its long session in storage)
      crossSite: { sessions: 'storage' },
    });
  });

  it('starts with login-init by default, with signup-init as alternative', async () => {
    const res = await new Client(server.url, 'pro-1').init({ isConditionalMediationAvailable: true });
    expect(res.body.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(res.body.newClientEnvHandle).toEqual(expect.any(String));
    const { blockBody, common } = res.body.processResponse;
    expect(common).toEqual({ appName: 'Demo App', frontendApiUrl: server.url, hideBadge: false, environment: 'dev' });
    expect(blockBody.block).toBe('login-init');
    expect(blockBody.authType).toBe('login');
    expect(blockBody.data).toMatchObject({
      blockType: 'login-init',
      identifierValue: '',
      isPhone: false,
      isEmailAvailable: true,
      isUsernameAvailable: false,
      isPhoneAvailable: false,
      socialData: { providers: ['google', 'microsoft', 'github'], status: 'initial' },
    });
    const conditional = JSON.parse(blockBody.data.conditionalUIChallenge);
    expect(conditional.publicKey).toMatchObject({ rpId: 'localhost', userVerification: 'required', allowCredentials: [] });
    expect(conditional.publicKey.challenge).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(blockBody.alternatives[0].block).toBe('signup-init');
  });

  it('leaves out the conditional UI challenge when the client cannot use it', async () => {
    const res = await new Client(server.url, 'pro-1').init({ isConditionalMediationAvailable: false });
    expect(res.body.processResponse.blockBody.data.conditionalUIChallenge).toBeUndefined();
  });

  it('starts with signup-init when preferred, and only when public sign-up is on', async () => {
    const signup = await new Client(server.url, 'pro-1').init({}, 'signup-init');
    const body = signup.body.processResponse.blockBody;
    expect(body.block).toBe('signup-init');
    expect(body.authType).toBe('signup');
    expect(body.data).toEqual({
      blockType: 'signup-init',
      identifiers: [{ type: 'email', identifier: '' }],
      fullName: { fullName: '' },
      socialData: { providers: ['google', 'microsoft', 'github'], status: 'initial' },
    });
    expect(body.alternatives.map((a: any) => a.block)).toEqual(['login-init']);
    const closed = await new Client(server.url, 'pro-5').init({}, 'signup-init');
    expect(closed.body.processResponse.blockBody.block).toBe('login-init');
    expect(closed.body.processResponse.blockBody.alternatives).toEqual([]);
  });

  it('switches between the init blocks with GET ?preferredBlock and never fails on odd values', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init();
    expect((await client.getStep('/v2/auth/process?preferredBlock=signup-init')).block).toBe('signup-init');
    expect((await client.getStep('/v2/auth/process?preferredBlock=whatever%20%3Cx%3E')).block).toBe('signup-init');
    expect((await client.getStep('/v2/auth/process?preferredBlock=login-init')).block).toBe('login-init');
    expect((await client.getStep('/v2/auth/process')).block).toBe('login-init');
  });

  it('resets a process: the old token dies, a new one comes with the same auth type', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init({}, 'signup-init');
    const old = client.processToken;
    const res = await client.request('POST', '/v2/auth/process/reset');
    expect(res.status).toBe(200);
    expect(res.body.newProcess).toEqual({ token: expect.any(String), expiresAt: expect.any(Number) });
    expect(res.body.blockBody.block).toBe('signup-init');
    expect((await client.request('GET', '/v2/auth/process')).status).toBe(404);
    client.processToken = res.body.newProcess.token;
    expect(old).not.toBe(client.processToken);
    expect((await client.getStep('/v2/auth/process')).block).toBe('signup-init');
  });

  it('accepts events with 204 and validates them', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init();
    expect((await client.request('POST', '/v2/auth/events', { eventType: 'login-explicit-abort' })).status).toBe(204);
    expect((await client.request('POST', '/v2/auth/events', { eventType: 3 })).status).toBe(400);
    client.processToken = undefined;
    expect((await client.request('POST', '/v2/auth/events', { eventType: 'login-error' })).status).toBe(404);
  });

  it('starts social sign-in on the init block and validates the body (details in social.test.ts)', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init();
    const body = await client.step('/v2/auth/social/verify/start', { providerType: 'github', redirectUrl: DEMO_ORIGIN, authType: 'login' });
    expect(body.block).toBe('login-init');
    expect(body.data.socialData).toMatchObject({ status: 'started', oauthUrl: expect.stringContaining('/_dev/oauth/github/login/oauth/authorize?') });
    expect((await client.request('POST', '/v2/auth/social/verify/start', { providerType: 'myspace' })).status).toBe(400);
  });
});

describe('dev endpoints', () => {
  it('lists outbox messages newest first, filtered by recipient', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init({}, 'signup-init');
    const email = uniqueEmail('Outbox');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Olga Outbox' });
    server.clock.advance(31_000);
    await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
    const messages = await outbox(server.url, email.toUpperCase());
    expect(messages).toHaveLength(2);
    expect(messages[0]!.code).not.toBe(messages[1]!.code);
    expect(Date.parse(messages[0]!.createdAt)).toBeGreaterThan(Date.parse(messages[1]!.createdAt));
    expect(messages[0]).toMatchObject({ channel: 'email', to: email, subject: `Your Demo App code: ${messages[0]!.code}` });
    expect((await outbox(server.url)).length).toBeGreaterThanOrEqual(2);
  });

  it('shows the outbox as an escaped HTML page', async () => {
    const id = await createProject(server.url, { appName: '<script>alert(1)</script>', passkeys: false });
    const client = new Client(server.url, id);
    await client.init({}, 'signup-init');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail() }] });
    const res = await fetch(`${server.url}/_dev/`);
    const html = await res.text();
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)</script>');
  });

  it('creates projects with fresh ids and rejects bad configurations', async () => {
    const post = (body: string) => fetch(`${server.url}/_dev/projects`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    const a = await post(JSON.stringify({ appName: 'A' }));
    const b = await post('{}');
    expect(a.status).toBe(201);
    const idA = ((await a.json()) as any).id as string;
    const idB = ((await b.json()) as any).id as string;
    expect(idA).toMatch(/^pro-\d+$/);
    expect(idB).not.toBe(idA);
    const res = await new Client(server.url, idA).init({}, 'signup-init');
    expect(res.body.processResponse.common.appName).toBe('A');
    for (const bad of [
      '{"passkeys":"yes"}',
      '{"identifiers":{"username":{"verification":"email-otp"}}}',
      '{"identifiers":{}}',
      '{"allowedOrigins":["not an origin"]}',
      '{"passkeyAppend":"sometimes"}',
      '{"id":"pro-1"}',
      '[]',
      '{bad json',
    ]) {
      const r = await post(bad);
      expect(r.status, bad).toBe(400);
      expect(((await r.json()) as any).error.type).toBe('invalid_request');
    }
  });
});

describe('unexpected failures', () => {
  it('turns an exception into a 500 envelope without details and logs it', async () => {
    const { createApi } = await import('../app.ts');
    const { mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'fapi-500-'));
    const logged: string[] = [];
    const api = await createApi({ ...testDatabase(dir), logger: { info() {}, error: (m) => logged.push(m) } });
    try {
      api.app.get('/boom', () => {
        throw new Error('secret internals');
      });
      const res = await api.app.request('/boom');
      const body = (await res.json()) as any;
      expect(res.status).toBe(500);
      expect(body.error).toEqual({ type: 'internal_error', links: [] });
      expect(JSON.stringify(body)).not.toContain('secret');
      expect(logged.join()).toContain('/boom');
    } finally {
      await api.close();
      await dropTestDatabase(dir);
    }
  });
});
