/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// SPEC §7, "The calls the product makes": the widget's own API client (src/core/api/client.ts) against
// the real local Frontend API over HTTP. Each test makes one call of SPEC's table as the widget makes
// it, checks what went over the wire (method, path, payload, headers) and that our server answers it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/core/api/client';
import type { ClientInformation, ProcessResponse } from '../../src/core/api/types';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { DEMO_ORIGIN, latestCode, latestLink, outbox, serverForThisFile, uniqueEmail, uniquePhone, uniqueUsername } from './helpers/testServer.ts';

const server = serverForThisFile();

/** What a browser with a platform authenticator and passkey autofill tells process/init. */
const PASSKEY_BROWSER: ClientInformation = {
  bluetoothAvailable: true,
  canUsePasskeys: true,
  isUserVerifyingPlatformAuthenticatorAvailable: true,
  isConditionalMediationAvailable: true,
  javaScriptHighEntropy: { platform: 'macOS', platformVersion: '14.5.0', mobile: false },
};

interface Sent {
  method: string;
  path: string;
  search: string;
  headers: Headers;
  credentials: RequestCredentials;
  body: any;
}

/** Every request the widget's client sent, as fetch received it. */
let sent: Sent[] = [];
const realFetch = globalThis.fetch;
beforeEach(() => {
  sent = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    // the Origin a browser adds: the page's, one the project allows
    const made = new Request(input, init);
    const headers = new Headers(made.headers);
    headers.set('Origin', DEMO_ORIGIN);
    const request = new Request(made, { headers });
    const text = await request.clone().text();
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname,
      search: url.search,
      headers: request.headers,
      credentials: request.credentials,
      body: text ? JSON.parse(text) : undefined,
    });
    return realFetch(request);
  };
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** The last request to `path`. */
function lastTo(path: string): Sent {
  const found = sent.filter((s) => s.path === path).at(-1);
  if (!found) throw new Error(`nothing was sent to ${path}`);
  return found;
}

/** The widget's client for a project, as load() creates it (the default timeout of SPEC §7). */
const widget = (projectId = 'pro-1') => new ApiClient({ projectId, frontendApiUrl: server.url, timeout: 30_000, preview: false });

/** process/init as the widget sends it; later calls go with the process (its id and its frontendApiUrl). */
async function started(projectId = 'pro-1', preferredBlock?: string, clientInformation = PASSKEY_BROWSER) {
  const api = widget(projectId);
  const init = await api.processInit({ clientInformation, preferredBlock });
  api.processId = init.token;
  api.processBaseUrl = init.processResponse.common.frontendApiUrl;
  return { api, init };
}

/** A sign-up by e-mail on its code screen. */
async function onEmailCode(projectId = 'pro-1', clientInformation = PASSKEY_BROWSER) {
  const { api } = await started(projectId, 'signup-init', clientInformation);
  const email = uniqueEmail('calls');
  const answer = await api.signupInit([{ type: 'email', identifier: email }], 'Ada Lovelace');
  expect(answer.blockBody.block).toBe('email-verify');
  return { api, email };
}

/** A sign-up that proved its address and is offered a passkey. */
async function onPasskeyAppend() {
  const { api, email } = await onEmailCode();
  const answer = await api.verifyFinish('email', 'email-otp', await latestCode(server.url, email), false);
  expect(answer.blockBody.block).toBe('passkey-append');
  return { api, email };
}

/** A user signed up with a passkey of `authenticator`; the client holds the long session. */
async function signedUpWithPasskey(authenticator = new SoftAuthenticator()) {
  const { api, email } = await onPasskeyAppend();
  const start = await api.passkeyAppendStart(PASSKEY_BROWSER);
  await api.passkeyAppendFinish(authenticator.create(String(start.blockBody.data.challenge)));
  const completed = await api.skipBlock();
  expect(completed.blockBody.block).toBe('completed');
  const longSession = String(completed.blockBody.data.longSession);
  api.longSession = () => longSession;
  return { api, email, authenticator, completed };
}

const blockOf = (answer: ProcessResponse) => answer.blockBody.block;

describe('what every call sends', () => {
  it('[spec 7.headers] the project id, client version and flags on every call, "preview" in preview mode: as headers, and in the query of the two first calls (no preflight)', async () => {
    const preview = new ApiClient({ projectId: 'pro-1', frontendApiUrl: server.url, timeout: 30_000, preview: true });
    await preview.sessionConfig();
    await preview.processInit({ clientInformation: PASSKEY_BROWSER });
    const { api } = await started();
    await api.getProcess();
    const carried = (request: Sent, header: string, parameter: string) => request.headers.get(header) ?? new URLSearchParams(request.search).get(parameter) ?? '';
    for (const request of sent) {
      expect(carried(request, 'x-corbado-projectid', 'projectID')).toBe('pro-1');
      expect(JSON.parse(carried(request, 'x-corbado-sdk', 'sdk'))).toEqual({ name: 'corbado-widget', sdkVersion: expect.any(String) });
    }
    expect(sent.map((s) => carried(s, 'x-corbado-flags', 'flags'))).toEqual(['preview', 'preview', '', '']);
    // the first two went in the query alone, and the server answered them
    expect(sent.map((s) => `${s.path} ${s.headers.get('x-corbado-projectid') ?? 'query'}`)).toEqual([
      '/v2/session-config query',
      '/v2/auth/process/init query',
      '/v2/auth/process/init query',
      '/v2/auth/process pro-1',
    ]);
  });

  it('[spec 7.process-headers] [spec 7.process-base-url] process calls send the process id and use credentials, at the frontendApiUrl of the process', async () => {
    // the address load() was given is not where this process lives: process calls must not go there
    const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: 'http://127.0.0.1:9', timeout: 30_000, preview: false });
    const { init } = await started();
    api.processId = init.token;
    api.processBaseUrl = init.processResponse.common.frontendApiUrl;
    expect(api.processBaseUrl).toBe(server.url);
    expect(blockOf(await api.getProcess())).toBe('login-init');
    const request = lastTo('/v2/auth/process');
    expect(request.headers.get('x-corbado-process-id')).toBe(init.token);
    expect(request.credentials).toBe('include');
  });
});

describe('the auth process calls, answered by the local Frontend API', () => {
  it('[spec 7.process-init] POST /v2/auth/process/init with the client information, passkeyAppendShown and preferredBlock', async () => {
    const api = widget();
    const init = await api.processInit({ clientInformation: PASSKEY_BROWSER, passkeyAppendShown: 1_700_000_000, preferredBlock: 'signup-init' });
    const request = lastTo('/v2/auth/process/init');
    expect(request.method).toBe('POST');
    expect(request.body).toEqual({ clientInformation: PASSKEY_BROWSER, passkeyAppendShown: 1_700_000_000, preferredBlock: 'signup-init' });
    expect(request.headers.get('x-corbado-process-id')).toBeNull();
    expect(init).toMatchObject({ token: expect.any(String), expiresAt: expect.any(Number), newClientEnvHandle: expect.any(String) });
    expect(init.processResponse.common.frontendApiUrl).toBe(server.url);
    expect(blockOf(init.processResponse)).toBe('signup-init');
  });

  it('[spec 7.process-get] GET /v2/auth/process with the optional query preferredBlock', async () => {
    const { api } = await started('pro-1', 'login-init');
    expect(blockOf(await api.getProcess())).toBe('login-init');
    expect(lastTo('/v2/auth/process')).toMatchObject({ method: 'GET', search: '', body: undefined });
    expect(blockOf(await api.getProcess('signup-init'))).toBe('signup-init');
    expect(lastTo('/v2/auth/process').search).toBe('?preferredBlock=signup-init');
  });

  it('[spec 7.signup-init] POST /v2/auth/signup/init with {identifiers, fullName}', async () => {
    const { api, email } = await onEmailCode();
    expect(lastTo('/v2/auth/signup/init')).toMatchObject({
      method: 'POST',
      body: { identifiers: [{ type: 'email', identifier: email }], fullName: 'Ada Lovelace' },
    });
    expect(blockOf(await api.getProcess())).toBe('email-verify');
  });

  it('[spec 7.verify-start] POST /v2/auth/identifier/verify/start with {verificationType, identifierType}: a new code goes out', async () => {
    const { api, email } = await onEmailCode();
    const before = (await outbox(server.url, email)).length;
    server.clock.advance(31_000); // past the resend wait of the first code
    const answer = await api.verifyStart('email', 'email-otp');
    expect(lastTo('/v2/auth/identifier/verify/start')).toMatchObject({ method: 'POST', body: { identifierType: 'email', verificationType: 'email-otp' } });
    expect(blockOf(answer)).toBe('email-verify');
    expect(answer.blockBody.error).toBeUndefined();
    expect(await outbox(server.url, email)).toHaveLength(before + 1);
  });

  it('[spec 7.verify-finish] POST /v2/auth/identifier/verify/finish with {verificationType, identifierType, code, isNewDevice}', async () => {
    await onPasskeyAppend();
    expect(lastTo('/v2/auth/identifier/verify/finish')).toMatchObject({
      method: 'POST',
      body: { identifierType: 'email', verificationType: 'email-otp', code: expect.stringMatching(/^\d{6}$/), isNewDevice: false },
    });
  });

  it('[spec 7.identifier-update] POST /v2/auth/identifier/update with {identifierType, value}', async () => {
    const { api } = await onEmailCode();
    const changed = uniqueEmail('changed');
    const answer = await api.identifierUpdate('email', changed);
    expect(lastTo('/v2/auth/identifier/update')).toMatchObject({ method: 'POST', body: { identifierType: 'email', value: changed } });
    expect(answer.blockBody).toMatchObject({ block: 'email-verify', data: { identifier: changed } });
    expect((await api.getProcess()).blockBody.data.identifier).toBe(changed);
  });

  it('[spec 7.process-reset] POST /v2/auth/process/reset: the answer holds newProcess {token, expiresAt}', async () => {
    const { api } = await onEmailCode();
    const answer = await api.resetProcess();
    expect(lastTo('/v2/auth/process/reset')).toMatchObject({ method: 'POST', body: undefined });
    expect(answer.newProcess).toEqual({ token: expect.any(String), expiresAt: expect.any(Number) });
    expect(answer.newProcess!.token).not.toBe(api.processId);
    expect(blockOf(answer)).toBe('signup-init');
  });

  it('[spec 7.passkey-append-start] POST /v2/auth/passkey/append/start with the client information', async () => {
    const { api } = await onPasskeyAppend();
    const answer = await api.passkeyAppendStart(PASSKEY_BROWSER);
    expect(lastTo('/v2/auth/passkey/append/start')).toMatchObject({ method: 'POST', body: { clientInformation: PASSKEY_BROWSER } });
    expect(blockOf(answer)).toBe('passkey-append');
    expect(JSON.parse(String(answer.blockBody.data.challenge))).toHaveProperty('publicKey.challenge');
  });

  it('[spec 7.passkey-append-finish] [spec 7.block-skip] POST /v2/auth/passkey/append/finish with {signedChallenge}; POST /v2/auth/block/skip', async () => {
    const { completed } = await signedUpWithPasskey();
    const finish = lastTo('/v2/auth/passkey/append/finish');
    expect(finish.method).toBe('POST');
    expect(Object.keys(finish.body)).toEqual(['signedChallenge']);
    expect(JSON.parse(finish.body.signedChallenge)).toHaveProperty('response.attestationObject');
    expect(lastTo('/v2/auth/block/skip')).toMatchObject({ method: 'POST', body: undefined });
    expect(completed.blockBody.data.shortSession).toEqual(expect.any(String));
  });

  it('[spec 7.process-complete] POST /v2/auth/process/complete ("Maybe later" on the passkey offer)', async () => {
    const { api } = await onPasskeyAppend();
    const answer = await api.completeProcess();
    expect(lastTo('/v2/auth/process/complete')).toMatchObject({ method: 'POST', body: undefined });
    expect(blockOf(answer)).toBe('completed');
  });

  it('[spec 7.login-init] [spec 7.passkey-login-start] [spec 7.passkey-login-finish] POST login/init {isPhone, identifierValue}, passkey/login/start (empty body), passkey/login/finish {signedChallenge}', async () => {
    const { email, authenticator } = await signedUpWithPasskey();
    const { api } = await started('pro-1', 'login-init');
    expect(blockOf(await api.loginInit(email, false))).toBe('passkey-verify');
    expect(lastTo('/v2/auth/login/init')).toMatchObject({ method: 'POST', body: { identifierValue: email, isPhone: false } });
    const start = await api.passkeyLoginStart();
    expect(lastTo('/v2/auth/passkey/login/start')).toMatchObject({ method: 'POST', body: {} });
    const answer = await api.passkeyLoginFinish(authenticator.get(String(start.blockBody.data.challenge)));
    expect(Object.keys(lastTo('/v2/auth/passkey/login/finish').body)).toEqual(['signedChallenge']);
    expect(blockOf(answer)).toBe('completed');
  });

  it('[spec 7.passkey-mediation-finish] POST /v2/auth/passkey/mediation/finish with {signedChallenge} (the passkey from the autofill)', async () => {
    const { authenticator } = await signedUpWithPasskey();
    const { api, init } = await started('pro-1', 'login-init');
    const challenge = String(init.processResponse.blockBody.data.conditionalUIChallenge);
    const answer = await api.passkeyMediationFinish(authenticator.get(challenge));
    expect(Object.keys(lastTo('/v2/auth/passkey/mediation/finish').body)).toEqual(['signedChallenge']);
    expect(blockOf(answer)).toBe('completed');
  });

  it('[spec 7.username-collect] [spec 7.phone-collect] POST /v2/auth/username/collect and /v2/auth/phone/collect', async () => {
    const { api, email } = await onEmailCode('pro-7');
    expect(blockOf(await api.verifyFinish('email', 'email-otp', await latestCode(server.url, email), false))).toBe('username-collect');
    const username = uniqueUsername('calls');
    expect(blockOf(await api.usernameCollect(username))).toBe('phone-collect');
    expect(lastTo('/v2/auth/username/collect')).toMatchObject({ method: 'POST', body: { username } });
    const phone = uniquePhone();
    expect(blockOf(await api.phoneCollect(phone))).toBe('passkey-append');
    expect(lastTo('/v2/auth/phone/collect')).toMatchObject({ method: 'POST', body: { phone } });
  });

  it('[spec 7.verify-status] [spec 3.verification-status-response] [spec 7.screen-operations] GET /v2/auth/identifier/verify/status: the answer holds blockBody with continueOnOtherDevice, block, error', async () => {
    // a browser without a platform authenticator: pro-2 asks for the link straight away
    const { api, email } = await onEmailCode('pro-2', { canUsePasskeys: false, isUserVerifyingPlatformAuthenticatorAvailable: false });
    const waiting = await api.verifyStatus();
    expect(lastTo('/v2/auth/identifier/verify/status')).toMatchObject({ method: 'GET', body: undefined });
    expect(waiting.blockBody).toMatchObject({ block: 'email-verify' });
    expect(waiting.blockBody.error).toBeUndefined();

    // the link, opened on another device, shows what it asks and changes nothing; approved there, this
    // tab's next poll moves on
    const link = await latestLink(server.url, email);
    const payload = JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString());
    const otherDevice = widget('pro-2');
    const token = link.searchParams.get('corbadoToken')!;
    const opened = await otherDevice.emailLink('open', payload.process.id, token);
    expect(lastTo('/v2/auth/email-link/open')).toMatchObject({ method: 'POST', body: { process: payload.process.id, token } });
    expect(opened.linkRequest).toMatchObject({ authType: 'signup', matchCode: waiting.blockBody.data.matchCode });
    expect(blockOf(await api.verifyStatus())).toBe('email-verify');
    const there = await otherDevice.emailLink('approve', payload.process.id, token);
    expect(there.blockBody.continueOnOtherDevice).toEqual({ reason: 'email-link-verified' });
    expect(blockOf(await api.verifyStatus())).toBe('completed');
    expect((await api.verifyStatus()).blockBody.continueOnOtherDevice).toEqual({ reason: 'process-already-completed' });
  });

  it('[spec 7.screen-operations] the phone verify screen: start and finish phone code verification', async () => {
    const { api } = await started('pro-3', 'signup-init', { canUsePasskeys: false, isUserVerifyingPlatformAuthenticatorAvailable: false });
    const phone = uniquePhone();
    expect(blockOf(await api.signupInit([{ type: 'phone', identifier: phone }]))).toBe('phone-verify');
    server.clock.advance(31_000); // past the resend wait of the first code
    expect(blockOf(await api.verifyStart('phone', 'phone-otp'))).toBe('phone-verify');
    expect(lastTo('/v2/auth/identifier/verify/start').body).toEqual({ identifierType: 'phone', verificationType: 'phone-otp' });
    const answer = await api.verifyFinish('phone', 'phone-otp', await latestCode(server.url, phone), false);
    expect(lastTo('/v2/auth/identifier/verify/finish').body).toMatchObject({ identifierType: 'phone', verificationType: 'phone-otp', isNewDevice: false });
    expect(blockOf(answer)).toBe('completed');
  });

  it('[spec 7.social-start] POST /v2/auth/social/verify/start with {providerType, redirectUrl, authType}', async () => {
    const { api } = await started('pro-1', 'signup-init');
    const redirectUrl = 'http://localhost:5173/';
    const answer = await api.socialStart('github', redirectUrl, 'signup');
    expect(lastTo('/v2/auth/social/verify/start')).toMatchObject({ method: 'POST', body: { providerType: 'github', redirectUrl, authType: 'signup' } });
    expect(answer.blockBody.data.socialData).toMatchObject({ status: 'started', oauthUrl: expect.stringContaining('/github/') });
  });

  it('[spec 7.social-finish] POST /v2/auth/social/verify/finish with an empty body', async () => {
    const { api } = await started('pro-1', 'signup-init');
    await api.socialStart('google', 'http://localhost:5173/', 'signup');
    // before the provider's callback there is nothing to finish: the server says so in-band or with a 4xx
    const answer = await api.socialFinish().catch((error: { status?: number }) => error);
    expect(lastTo('/v2/auth/social/verify/finish')).toMatchObject({ method: 'POST', body: {} });
    if ('status' in answer && answer.status !== undefined) expect(answer.status).toBeLessThan(500);
    else expect((answer as ProcessResponse).blockBody.block).toBe('signup-init');
  });
});

describe('configuration', () => {
  it('[spec 7.session-config] GET /v2/session-config: the answer includes shortSessionCookieConfig and frontendApiUrl', async () => {
    const config = await widget().sessionConfig();
    expect(lastTo('/v2/session-config').method).toBe('GET');
    expect(config.frontendApiUrl).toBe(server.url);
    expect(config.shortSessionCookieConfig).toMatchObject({
      domain: expect.any(String),
      secure: expect.any(Boolean),
      sameSite: expect.stringMatching(/^(lax|strict|none)$/),
      path: expect.any(String),
      lifetimeSeconds: expect.any(Number),
    });
  });

  it('[spec 7.component-config] POST /v2/component-config answers the project\'s public configuration; a body that is not an object is a 400', async () => {
    const post = (projectId: string, body?: string) =>
      realFetch(`${server.url}/v2/component-config`, {
        method: 'POST',
        headers: { 'X-Corbado-ProjectID': projectId, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body,
      });
    for (const body of [undefined, '{}', '{"componentName":"auth"}']) {
      const res = await post('pro-4', body);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        appName: 'Demo App (username and e-mail)',
        environment: 'dev',
        language: 'en',
        hideBadge: false,
        publicSignup: true,
        fullNameRequired: false,
        passkeys: true,
        identifiers: [
          { type: 'email', loginIdentifier: true, verification: 'email-otp' },
          { type: 'username', loginIdentifier: true, verification: 'none' },
        ],
        socialProviders: [],
      });
    }
    expect(((await (await post('pro-1')).json()) as any).socialProviders).toEqual(['google', 'microsoft', 'github']);
    for (const bad of ['[1]', '"auth"', '{']) {
      const res = await post('pro-1', bad);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { type: expect.any(String) } });
    }
    const unknown = await post('pro-424242', '{}');
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
  });
});

describe('the current user (bearer token)', () => {
  it('[spec 7.me] [spec 3.full-user] GET /v2/me with the bearer token', async () => {
    const { api, email } = await signedUpWithPasskey();
    const me = await api.me();
    const request = lastTo('/v2/me');
    expect(request.method).toBe('GET');
    expect(request.headers.get('authorization')).toMatch(/^Bearer .+/);
    expect(me).toMatchObject({ fullName: 'Ada Lovelace', identifiers: [{ type: 'email', value: email, status: 'verified' }], socialAccounts: [] });
  });

  it('[spec 7.me-passkeys] [spec 7.me-passkey-append-start] [spec 7.me-passkey-append-finish] [spec 7.me-passkey-delete] list, append ({clientInformation}, then {attestationResponse, clientInformation}) and delete passkeys', async () => {
    const { api } = await signedUpWithPasskey();
    const listed = await api.passkeys();
    expect(lastTo('/v2/me/passkeys')).toMatchObject({ method: 'GET' });
    expect(listed.passkeys).toHaveLength(1);

    const another = new SoftAuthenticator();
    const start = await api.mePasskeyAppendStart(PASSKEY_BROWSER);
    expect(lastTo('/v2/me/passkeys/append/start')).toMatchObject({ method: 'POST', body: { clientInformation: PASSKEY_BROWSER } });
    expect(lastTo('/v2/me/passkeys/append/start').headers.get('authorization')).toMatch(/^Bearer .+/);
    const attestationResponse = another.create(start.attestationOptions);
    await api.mePasskeyAppendFinish(attestationResponse, PASSKEY_BROWSER);
    expect(lastTo('/v2/me/passkeys/append/finish')).toMatchObject({ method: 'POST', body: { attestationResponse, clientInformation: PASSKEY_BROWSER } });
    const two = (await api.passkeys()).passkeys;
    expect(two).toHaveLength(2);

    const removed = two.find((p) => p.id !== listed.passkeys[0]!.id)!;
    await api.deletePasskey(removed.id);
    const deleted = lastTo(`/v2/me/passkeys/${encodeURIComponent(removed.id)}`);
    expect(deleted.method).toBe('DELETE');
    expect((await api.passkeys()).passkeys.map((p) => p.id)).toEqual([listed.passkeys[0]!.id]);
  });

  it('[spec 7.me-refresh] [spec 7.me-logout] POST /v2/me/refresh with the long session answers shortSession; POST /v2/me/logout ends it', async () => {
    const { api, completed } = await signedUpWithPasskey();
    const refreshed = await api.refresh();
    expect(lastTo('/v2/me/refresh').headers.get('authorization')).toBe(`Bearer ${String(completed.blockBody.data.longSession)}`);
    expect(refreshed.shortSession).toEqual(expect.any(String));
    await api.logout();
    expect(lastTo('/v2/me/logout')).toMatchObject({ method: 'POST' });
    await expect(api.refresh()).rejects.toMatchObject({ status: 401 });
  });
});
