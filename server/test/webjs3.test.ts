// What version 3 of Corbado's client (@corbado/web-js 3.x) reads besides SPEC.md's names: the process
// configuration, the session token and refresh token, the session-token cookie settings, passkey
// timestamps and tags, the project environment, and the e-mail link's temporary process id.
import { describe, expect, it } from 'vitest';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { Client, createProject, DEMO_ORIGIN, jwtPayload, latestCode, latestLink, PASSKEY_DEVICE, serverForThisFile, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile();

describe('configuration', () => {
  it('answers GET /v2/process-config with a client-side process id and this API as frontendApiUrl', async () => {
    const res = await new Client(server.url, 'pro-1').request('GET', '/v2/process-config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ useServerSideProcessId: false, frontendApiUrl: server.url });
    expect(res.headers.get('access-control-allow-origin')).toBe(DEMO_ORIGIN);
  });

  it('refuses process-config for an unknown project like every project call', async () => {
    const res = await new Client(server.url, 'pro-999999').request('GET', '/v2/process-config');
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe('project_not_found');
  });

  it('names the cookie settings also sessionTokenCookieConfig', async () => {
    const { body } = await new Client(server.url, 'pro-1').request('GET', '/v2/session-config');
    expect(body.useSessionManagement).toBe(true);
    expect(body.sessionTokenCookieConfig).toEqual({ domain: '', secure: false, sameSite: 'lax', path: '/', lifetimeSeconds: 300 });
    expect(body.sessionTokenCookieConfig).toEqual(body.shortSessionCookieConfig);
  });

  it('allows the X-Corbado-Temp-Process-ID header in preflights', async () => {
    const res = await fetch(`${server.url}/v2/auth/identifier/verify/finish`, {
      method: 'OPTIONS',
      headers: { Origin: DEMO_ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-corbado-temp-process-id' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('X-Corbado-Temp-Process-ID');
  });
});

describe('a sign-up as version 3 of the client sees it', () => {
  it('hands out sessionToken and refreshToken beside shortSession and longSession, and refreshes into sessionToken', async () => {
    const client = new Client(server.url, 'pro-1');
    const init = await client.init(PASSKEY_DEVICE, 'signup-init');
    expect(init.body.processResponse.common).toEqual({ appName: 'Demo App', frontendApiUrl: server.url, hideBadge: false, environment: 'dev' });
    const email = uniqueEmail('v3');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Vera Three' });
    const append = await client.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp', // version 3 sends no isNewDevice
    });
    expect(append.block).toBe('passkey-append');
    const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    await client.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(started.data.challenge) });
    const completed = await client.step('/v2/auth/block/skip');
    expect(completed.block).toBe('completed');
    const { data } = completed;
    expect(data.sessionToken).toBe(data.shortSession);
    expect(data.refreshToken).toBe(data.longSession);
    expect(jwtPayload(data.sessionToken)).toMatchObject({ email, name: 'Vera Three', orig: email });

    // version 3 refreshes with the refresh token as bearer and reads sessionToken
    const refreshed = await client.request('POST', '/v2/me/refresh', undefined, { Authorization: `Bearer ${data.refreshToken}` });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.sessionToken).toBe(refreshed.body.shortSession);
    expect(jwtPayload(refreshed.body.sessionToken).sub).toBe(jwtPayload(data.sessionToken).sub);

    const { body } = await client.request('GET', '/v2/me/passkeys');
    const [passkey] = body.passkeys;
    expect(passkey.createdMs).toBe(server.clock.now);
    expect(passkey.lastUsedMs).toBe(server.clock.now);
    expect(new Date(passkey.createdMs).toISOString().slice(0, 19)).toBe(passkey.created);
    expect(passkey.tags).toEqual(['synced', 'hybrid']);
    expect(passkey.aaguidDetails).toEqual({ name: expect.any(String), iconLight: expect.stringMatching(/^data:image\//), iconDark: expect.stringMatching(/^data:image\//) });
  });

  it('leaves the refresh token out of a prod project, like the long session', async () => {
    const id = await createProject(server.url, { environment: 'prod', passkeys: false });
    const client = new Client(server.url, id);
    await client.init({}, 'signup-init');
    const email = uniqueEmail('prod');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    const completed = await client.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
    });
    expect(completed.block).toBe('completed');
    expect(completed.data.sessionToken).toBe(completed.data.shortSession);
    expect(completed.data).not.toHaveProperty('refreshToken');
    expect(completed.data).not.toHaveProperty('longSession');
  });
});

describe('the e-mail link of version 3', () => {
  it('carries the process id as tempId; a finish naming it in X-Corbado-Temp-Process-ID continues the asking tab only in the browser that asked', async () => {
    const original = new Client(server.url, 'pro-2');
    const init = await original.init({}, 'signup-init');
    const browserCookie = init.headers.getSetCookie().find((c) => c.startsWith('cbo_browser='))!.split(';')[0]!;
    const email = uniqueEmail('temp');
    expect((await original.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] })).block).toBe('email-verify');
    const link = await latestLink(server.url, email);
    const payload = JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString());
    expect(payload.process.tempId).toBe(payload.process.id);
    expect(payload.process.tempId).not.toBe(original.processToken);
    const finish = (cookie?: string) =>
      new Client(server.url, 'pro-2').request(
        'POST',
        '/v2/auth/identifier/verify/finish',
        { code: link.searchParams.get('corbadoToken'), identifierType: 'email', verificationType: 'email-link' },
        { 'X-Corbado-Temp-Process-ID': payload.process.tempId, ...(cookie ? { Cookie: cookie } : {}) },
      );

    // another browser: an error web-js shows, nothing spent, nobody logged in
    const elsewhere = await finish();
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.blockBody.data.error.code).toBe('email_link_other_browser');
    expect((await original.getStep('/v2/auth/identifier/verify/status')).block).toBe('email-verify');

    // the browser that asked (its cookie): the link tab says "continue there", the asking tab moves on
    const there = await finish(browserCookie);
    expect(there.body.blockBody.continueOnOtherDevice).toEqual({ reason: 'email-link-verified' });
    expect(there.body.blockBody.data.sessionToken).toBeUndefined();
    const here = await original.getStep('/v2/auth/identifier/verify/status');
    expect(here.block).toBe('completed');
    expect(jwtPayload(here.data.sessionToken).email).toBe(email);
  });
});
