// @vitest-environment happy-dom
// The flow after a failed call (SPEC.md section 4, "Errors in the flow"), over real HTTP: a server that
// answers what each test scripts, and happy-dom for the window the flow mirrors (address, storage).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../api/client';
import type { BlockBody } from '../api/types';
import { Session } from '../session/session';
import { getPasskey } from '../webauthn/webauthn';
import { Flow } from './flow';

interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delay?: number;
  /** the connection is cut without an answer */
  drop?: boolean;
}

let server: Server;
let base = '';
/** calls that arrived, as "METHOD /path" */
let seen: string[] = [];
/** answers for the next calls per "METHOD /path"; without one, the process call answers from `current` */
let script: Record<string, Answer[]> = {};

const social = { providers: [], status: 'initial' };
const loginInit: BlockBody = {
  block: 'login-init',
  authType: 'login',
  data: { identifierValue: '', isPhone: false, isPhoneAvailable: false, isEmailAvailable: true, isUsernameAvailable: false, socialData: social },
  alternatives: [{ block: 'signup-init', authType: 'signup', data: { identifiers: [{ type: 'email', identifier: '' }], socialData: social } }],
};
const emailVerify: BlockBody = {
  block: 'email-verify',
  authType: 'signup',
  data: { verificationMethod: 'email-otp', identifier: 'ada@example.com' },
};
const common = { appName: 'Test', frontendApiUrl: '', hideBadge: false };
let tokens = 0;
const started = (blockBody: BlockBody) => ({
  token: `proc-${++tokens}`,
  expiresAt: Math.floor(Date.now() / 1000) + 3600,
  processResponse: { blockBody, common },
});
const envelope = (status: number, type: string) => ({
  httpStatusCode: status,
  message: type,
  requestData: { requestID: 'req-1', link: '' },
  runtime: 0,
  error: { type, links: [] },
});

beforeAll(async () => {
  server = createServer((request, response) => {
    const cors = {
      'Access-Control-Allow-Origin': request.headers.origin ?? '*',
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Expose-Headers': 'Retry-After',
    };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        ...cors,
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': request.headers['access-control-request-headers'] ?? '',
      });
      return response.end();
    }
    const call = `${request.method} ${new URL(request.url ?? '/', base).pathname}`;
    seen.push(call);
    const answer: Answer = script[call]?.shift() ?? { body: call === 'POST /v2/auth/process/init' ? started(loginInit) : { blockBody: loginInit, common } };
    if (answer.drop) return request.socket.destroy();
    setTimeout(() => {
      response.writeHead(answer.status ?? 200, { ...cors, 'Content-Type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
    }, answer.delay ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  localStorage.clear();
  script = {};
});

/** A flow on the log-in screen, switched locally to sign-up as a visitor does with the link. */
async function onSignup(timeout = 2000): Promise<Flow> {
  const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: base, timeout, preview: false });
  const flow = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
  await flow.start();
  expect(flow.$screen.get()).toBe('login-init');
  flow.switchToAlternative('signup-init');
  expect(flow.$screen.get()).toBe('signup-init');
  seen = [];
  return flow;
}

describe('a failed call', () => {
  it('refused with 429 leaves the process as it is: same block, same screen, the wait in the error, no reload', async () => {
    const flow = await onSignup();
    const shown = flow.$block.get();
    script['POST /v2/auth/signup/init'] = [{ status: 429, headers: { 'Retry-After': '90' }, body: envelope(429, 'too_many_requests') }];
    await flow.submitSignup({ email: 'ada@example.com' });
    expect(seen).toEqual(['POST /v2/auth/signup/init']);
    // the same block, now carrying the error
    expect(flow.$block.get()).toEqual({ ...shown, failure: expect.objectContaining({ name: 'CorbadoError' }) });
    expect(flow.$screen.get()).toBe('signup-init');
    expect(flow.$block.get()?.failure).toMatchObject({ kind: 'tooManyRequests', retryAfter: 90 });
    expect(flow.$initState.get()).toBe(2);
  });

  it('answered 500 loads the process again; sign-up stays sign-up while the server is on log-in', async () => {
    const flow = await onSignup();
    script['POST /v2/auth/signup/init'] = [{ status: 500, body: envelope(500, 'internal_error') }];
    await flow.submitSignup({ email: 'ada@example.com' });
    expect(seen).toEqual(['POST /v2/auth/signup/init', 'GET /v2/auth/process']);
    expect(flow.$block.get()?.type).toBe('signup-init');
    expect(flow.$screen.get()).toBe('signup-init');
    expect(flow.$block.get()?.failure).toMatchObject({ kind: 'unhandledBackendError', type: 'internal_error' });
  });

  it('answered 503 while the database is away keeps the screen and says so; a reload that fails alike changes nothing', async () => {
    const flow = await onSignup();
    const unavailable = { status: 503, headers: { 'Retry-After': '5' }, body: envelope(503, 'service_unavailable') };
    script['POST /v2/auth/signup/init'] = [unavailable];
    script['GET /v2/auth/process'] = [unavailable];
    await flow.submitSignup({ email: 'ada@example.com' });
    expect(flow.$block.get()?.type).toBe('signup-init');
    expect(flow.$screen.get()).toBe('signup-init');
    expect(flow.$block.get()?.failure).toMatchObject({ type: 'service_unavailable', status: 503 });
    expect(flow.$initState.get()).toBe(2);
  });

  it('answered too late shows the block the server moved to, on its own screen', async () => {
    // only the sign-up call is late, far past the client's timeout; every other call answers at once
    const flow = await onSignup(1500);
    script['POST /v2/auth/signup/init'] = [{ delay: 5000, body: { blockBody: emailVerify, common } }];
    script['GET /v2/auth/process'] = [{ body: { blockBody: emailVerify, common } }];
    await flow.submitSignup({ email: 'ada@example.com' });
    expect(seen).toEqual(['POST /v2/auth/signup/init', 'GET /v2/auth/process']);
    expect(flow.$block.get()?.type).toBe('email-verify');
    expect(flow.$screen.get()).toBe('email-otp-verification');
    expect(flow.$block.get()?.failure).toMatchObject({ kind: 'unhandledBackendError', type: 'timeout' });
  });

  it('that cannot reach the API keeps the visitor on their screen, not the component-unavailable page', async () => {
    const flow = await onSignup();
    const shown = flow.$block.get();
    const cut = [{ drop: true }];
    script = { 'POST /v2/auth/signup/init': [...cut], 'GET /v2/auth/process': [...cut], 'POST /v2/auth/process/init': [...cut] };
    await flow.submitSignup({ email: 'ada@example.com' });
    expect(seen).toEqual(['POST /v2/auth/signup/init', 'GET /v2/auth/process']);
    // the same block, now carrying the error
    expect(flow.$block.get()).toEqual({ ...shown, failure: expect.objectContaining({ name: 'CorbadoError' }) });
    expect(flow.$screen.get()).toBe('signup-init');
    expect(flow.$initState.get()).toBe(2);
    expect(flow.$block.get()?.failure).toMatchObject({ kind: 'unhandledBackendError', type: 'no_data_in_response' });
  });

  it('for a process the server no longer knows starts a new one, still on sign-up', async () => {
    const flow = await onSignup();
    script['POST /v2/auth/signup/init'] = [{ status: 404, body: envelope(404, 'process_not_available') }];
    await flow.submitSignup({ email: 'ada@example.com' });
    expect(seen).toEqual(['POST /v2/auth/signup/init', 'POST /v2/auth/process/init']);
    expect(JSON.parse(localStorage.getItem('cbo_auth_process-pro-1')!).id).toBe(`proc-${tokens}`);
    expect(flow.$screen.get()).toBe('signup-init');
    expect(flow.$block.get()?.failure).toMatchObject({ kind: 'processNotFound' });
  });

  it("sits on its block and leaves with it: switching to log-in and back shows no error, and the view's own error stays unset", async () => {
    const flow = await onSignup();
    script['POST /v2/auth/signup/init'] = [{ status: 500, body: envelope(500, 'internal_error') }];
    await flow.submitSignup({ email: 'ada@example.com' });
    expect(flow.$block.get()).toMatchObject({ type: 'signup-init', failure: { type: 'internal_error' } });
    expect(flow.$error.get()).toBeUndefined();
    flow.switchToAlternative('login-init');
    expect(flow.$block.get()?.type).toBe('login-init');
    expect(flow.$block.get()?.failure).toBeUndefined();
    flow.switchToAlternative('signup-init');
    expect(flow.$block.get()?.failure).toBeUndefined();
  });

  it('on the link-sent screen leaves with the block when the poll finds the link opened elsewhere', async () => {
    const linkSent: BlockBody = { ...emailVerify, data: { verificationMethod: 'email-link', identifier: 'ada@example.com' } };
    const appended: BlockBody = { block: 'passkey-appended', authType: 'signup', data: {} };
    script['POST /v2/auth/process/init'] = [{ body: started(linkSent) }];
    script['GET /v2/auth/identifier/verify/status'] = [{ body: { blockBody: linkSent, common } }];
    script['POST /v2/auth/identifier/verify/start'] = [{ status: 500, body: envelope(500, 'internal_error') }];
    script['GET /v2/auth/process'] = [{ body: { blockBody: linkSent, common } }];
    const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: base, timeout: 2000, preview: false });
    const flow = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
    await flow.start();
    expect(flow.$screen.get()).toBe('email-link-sent');
    await flow.resend();
    expect(flow.$block.get()).toMatchObject({ type: 'email-verify', failure: { type: 'internal_error' } });
    script['GET /v2/auth/identifier/verify/status'] = [{ body: { blockBody: appended, common } }];
    await vi.waitFor(() => expect(flow.$block.get()?.type).toBe('passkey-appended'), { timeout: 15_000, interval: 100 });
    expect(flow.$block.get()?.failure).toBeUndefined();
    expect(flow.$error.get()).toBeUndefined();
    flow.setScreen('passkey-appended');
  }, 30_000);
});

describe('in a browser without WebAuthn (as WebKitGTK, and happy-dom here)', () => {
  const loginEmailVerify: BlockBody = { ...emailVerify, authType: 'login' };
  const passkeyVerify = (alternatives: BlockBody[]): BlockBody => ({
    block: 'passkey-verify',
    authType: 'login',
    data: { challenge: '', identifierValue: 'ada@example.com' },
    alternatives,
  });

  async function onLogin(): Promise<{ flow: Flow; screens: string[] }> {
    expect(window.PublicKeyCredential).toBeUndefined();
    const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: base, timeout: 2000, preview: false });
    const flow = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
    await flow.start();
    const screens: string[] = [];
    flow.$screen.listen((screen) => screens.push(screen));
    seen = [];
    return { flow, screens };
  }

  it('the log-in of an account with a passkey goes on to its e-mail code at once, never showing the passkey screen', async () => {
    const { flow, screens } = await onLogin();
    script['POST /v2/auth/login/init'] = [{ body: { blockBody: passkeyVerify([loginEmailVerify]), common } }];
    script['POST /v2/auth/identifier/verify/start'] = [{ body: { blockBody: loginEmailVerify, common } }];
    await flow.submitLogin('ada@example.com', false);
    expect(seen).toEqual(['POST /v2/auth/login/init', 'POST /v2/auth/identifier/verify/start']);
    expect(flow.$block.get()?.type).toBe('email-verify');
    expect(screens).toEqual(['email-otp-verification']);
    expect(flow.$error.get()).toBeUndefined();
  });

  it('[spec 2.initial-screen-passkey-verify] without a fallback the passkey screen stays, and its log-in fails as "not supported", not with a TypeError', async () => {
    const { flow } = await onLogin();
    script['POST /v2/auth/login/init'] = [{ body: { blockBody: passkeyVerify([]), common } }];
    script['POST /v2/auth/passkey/login/start'] = [{ body: { blockBody: { ...passkeyVerify([]), data: { challenge: '{"publicKey":{}}' } }, common } }];
    await flow.submitLogin('ada@example.com', false);
    expect(flow.$screen.get()).toBe('passkey-background');
    await flow.loginWithPasskey();
    expect(flow.$screen.get()).toBe('passkey-error');
    expect(flow.$ceremonyError.get()).toMatchObject({ kind: 'passkeysNotSupported' });
    await expect(getPasskey('{"publicKey":{}}', true)).rejects.toMatchObject({ kind: 'passkeysNotSupported' });
  });
});

/** A browser with WebAuthn (a platform authenticator, conditional mediation) whose navigator.credentials is `credentials`. */
function fakeWebAuthn(credentials: object): void {
  const PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
    isUserVerifyingPlatformAuthenticatorAvailable: async () => true,
    isConditionalMediationAvailable: async () => true,
  });
  Object.assign(window, { PublicKeyCredential });
  Object.defineProperty(navigator, 'credentials', { value: credentials, configurable: true });
}
afterEach(() => {
  delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  delete (navigator as { credentials?: unknown }).credentials;
});

describe('sign-up\'s passkey step on a device that already holds a passkey of the account', () => {
  const passkeyAppend: BlockBody = {
    block: 'passkey-append',
    authType: 'signup',
    data: { identifierValue: 'ada@example.com', identifierType: 'email' },
    alternatives: [],
  };
  const creation = JSON.stringify({
    publicKey: {
      challenge: 'Y2hhbGxlbmdl',
      rp: { name: 'Test', id: 'localhost' },
      user: { id: 'dXNlcg', name: 'ada@example.com', displayName: 'ada@example.com' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      excludeCredentials: [{ type: 'public-key', id: 'ZXhpc3Rpbmc' }],
    },
  });

  it('shows the passkey-already-exists dialog instead of completing; its confirm completes the process', async () => {
    let created = 0;
    // what Chrome answers when an authenticator holds one of excludeCredentials
    fakeWebAuthn({ create: async () => (created++, Promise.reject(new DOMException('The user attempted to register an authenticator that contains one of the credentials already registered with the relying party.', 'InvalidStateError'))) });
    const flow = await onSignup();
    script['POST /v2/auth/signup/init'] = [{ body: { blockBody: passkeyAppend, common } }];
    await flow.submitSignup({ email: 'ada@example.com' });
    expect(flow.$screen.get()).toBe('passkey-append');
    script['POST /v2/auth/passkey/append/start'] = [{ body: { blockBody: { ...passkeyAppend, data: { challenge: creation } }, common } }];
    seen = [];
    await flow.appendPasskey();
    expect(created).toBe(1);
    await vi.waitFor(() => expect(seen).toContain('POST /v2/auth/events'));
    expect(seen).not.toContain('POST /v2/auth/process/complete');
    expect(flow.$ceremonyError.get()).toMatchObject({ kind: 'passkeyAlreadyExists' });
    expect(flow.$screen.get()).toBe('passkey-append');
    expect(flow.$error.get()).toBeUndefined();

    script['POST /v2/auth/process/complete'] = [{ body: { blockBody: { block: 'completed', authType: 'signup', data: {} }, common } }];
    const completed: string[] = [];
    flow.onComplete((completion) => completed.push(completion.authType));
    await flow.confirmPasskeyExists();
    expect(seen).toContain('POST /v2/auth/process/complete');
    expect(flow.$screen.get()).toBe('end');
    expect(flow.$ceremonyError.get()).toBeUndefined();
    expect(completed).toEqual(['signup']);
  });
});

describe('conditional UI (the autofill of login-init), with a fake navigator.credentials.get', () => {
  const withChallenge = (challenge: string): BlockBody => ({
    ...loginInit,
    data: { ...loginInit.data, conditionalUIChallenge: JSON.stringify({ publicKey: { challenge, rpId: 'localhost', allowCredentials: [] } }) },
  });
  /** the browser's answers: each call waits until the test settles it or its request is aborted */
  let calls: { signal: AbortSignal; fail: (error: Error) => void }[] = [];

  beforeEach(() => {
    calls = [];
    fakeWebAuthn({
      get: (options: { signal: AbortSignal }) =>
        new Promise((_, reject) => {
          calls.push({ signal: options.signal, fail: reject });
          options.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    });
  });

  async function onLogin(challenge: string): Promise<Flow> {
    // an initial process is replaced in the background (start-up): both carry the challenge
    script['POST /v2/auth/process/init'] = [{ body: started(withChallenge(challenge)) }, { body: started(withChallenge(challenge)) }];
    // a returning browser: the fake's answers were measured on an earlier visit, so no guess of start-up's
    // is contradicted and no replacement process arrives in the middle of a test
    localStorage.setItem('cbo_client_capabilities', JSON.stringify({ uvpa: true, conditional: true }));
    const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: base, timeout: 2000, preview: false });
    const flow = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
    await flow.start();
    seen = [];
    return flow;
  }

  it.each([
    ['NotAllowedError', 'the autofill dismissed'],
    ['AbortError', 'the request aborted'],
  ])('swallows %s (%s): nothing shown, nothing asked of the server', async (name) => {
    const flow = await onLogin('Y2hhbGxlbmdlLTE');
    const running = flow.startConditionalUi();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    calls[0].fail(new DOMException('no', name));
    await running;
    expect(flow.$error.get()).toBeUndefined();
    expect(flow.$block.get()?.failure).toBeUndefined();
    expect(seen).toEqual([]);
    expect(flow.$screen.get()).toBe('login-init');
  });

  it('shows any other failure (SecurityError) as the flow shows errors: process loaded again, the browser message shown', async () => {
    const flow = await onLogin('Y2hhbGxlbmdlLTE');
    const running = flow.startConditionalUi();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    calls[0].fail(new DOMException('The relying party ID is not a registrable domain suffix', 'SecurityError'));
    await running;
    expect(flow.$block.get()?.failure).toMatchObject({ kind: 'webauthn', message: 'The relying party ID is not a registrable domain suffix' });
    expect(seen).toEqual(['GET /v2/auth/process']);
    expect(flow.$screen.get()).toBe('login-init');
  });

  it('keeps the request of the same challenge when the block is drawn again; a new challenge ends it and starts one', async () => {
    const flow = await onLogin('Y2hhbGxlbmdlLTE');
    void flow.startConditionalUi();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    // an unknown account: the server answers login-init again, with the same (unused) challenge
    script['POST /v2/auth/login/init'] = [{ body: { blockBody: { ...withChallenge('Y2hhbGxlbmdlLTE'), data: { ...withChallenge('Y2hhbGxlbmdlLTE').data, fieldError: { code: 'login_identifier_unknown_user' } } }, common } }];
    await flow.submitLogin('nobody@example.com', false);
    expect(flow.$block.get()?.data.fieldError).toBeTruthy();
    void flow.startConditionalUi();
    void flow.startConditionalUi();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(1);
    expect(calls[0].signal.aborted).toBe(false);
    // a new challenge (the old one was used up)
    script['POST /v2/auth/login/init'] = [{ body: { blockBody: withChallenge('Y2hhbGxlbmdlLTI'), common } }];
    await flow.submitLogin('nobody@example.com', false);
    void flow.startConditionalUi();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0].signal.aborted).toBe(true);
    expect(calls[1].signal.aborted).toBe(false);
    expect(flow.$error.get()).toBeUndefined();
    flow.dispose();
  });
});

describe('the error catalogue in the flow (SPEC.md section 8)', () => {
  const passkeyVerify: BlockBody = { block: 'passkey-verify', authType: 'login', data: { challenge: '', identifierValue: 'ada@example.com' }, alternatives: [] };
  const loginChallenge = (allowCredentials: object[]) =>
    JSON.stringify({ publicKey: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required', allowCredentials } });

  async function startedFlow(): Promise<Flow> {
    const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: base, timeout: 2000, preview: false });
    const flow = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
    await flow.start();
    seen = [];
    return flow;
  }

  it('[spec 8.global-error] keeps the error of the initial load as the global error, until the start is tried again', async () => {
    script['POST /v2/auth/process/init'] = [{ status: 500, body: envelope(500, 'internal_error') }];
    const flow = await startedFlow();
    expect(flow.$initState.get()).toBe(1);
    expect(flow.$error.get()).toMatchObject({ kind: 'unhandledBackendError', type: 'internal_error', recoverable: false });
    expect(flow.$block.get()).toBeUndefined();
    await flow.retry();
    expect(flow.$error.get()).toBeUndefined();
    expect(flow.$initState.get()).toBe(2);
  });

  it('[spec 8.no-passkey-available] a passkey log-in whose challenge names no passkey of the account is "No passkey available"; the browser is not asked', async () => {
    let asked = 0;
    fakeWebAuthn({ get: async () => (asked++, Promise.reject(new DOMException('timed out or not allowed', 'NotAllowedError'))) });
    localStorage.setItem('cbo_client_capabilities', JSON.stringify({ uvpa: true, conditional: true }));
    const flow = await startedFlow();
    script['POST /v2/auth/login/init'] = [{ body: { blockBody: passkeyVerify, common } }];
    await flow.submitLogin('ada@example.com', false);
    script['POST /v2/auth/passkey/login/start'] = [{ body: { blockBody: { ...passkeyVerify, data: { challenge: loginChallenge([]) } }, common } }];
    await flow.loginWithPasskey();
    expect(asked).toBe(0);
    expect(flow.$screen.get()).toBe('passkey-error');
    expect(flow.$ceremonyError.get()).toMatchObject({ kind: 'noPasskeyAvailable', message: 'No passkey available', recoverable: true });
    // with a passkey named, the browser is asked (and its cancel is a cancel)
    script['POST /v2/auth/passkey/login/start'] = [{ body: { blockBody: { ...passkeyVerify, data: { challenge: loginChallenge([{ type: 'public-key', id: 'Y3JlZA' }]) } }, common } }];
    await flow.loginWithPasskey();
    expect(asked).toBe(1);
    expect(flow.$ceremonyError.get()).toMatchObject({ kind: 'passkeyChallengeCancelled' });
  });

  it('[spec 8.invalid-user-handle-type] a passkey-append block for an identifier type the widget does not know is "Invalid user handle type"', async () => {
    const flow = await onSignup();
    const append = (identifierType: string): BlockBody => ({ block: 'passkey-append', authType: 'signup', data: { identifierValue: 'ada', identifierType }, alternatives: [] });
    script['POST /v2/auth/signup/init'] = [{ body: { blockBody: append('nickname'), common } }];
    await flow.submitSignup({ email: 'ada@example.com' });
    expect(flow.$screen.get()).toBe('signup-init');
    expect(flow.$block.get()?.failure).toMatchObject({ kind: 'invalidUserHandleType', message: 'Invalid user handle type', recoverable: false });
    for (const known of ['email', 'phone', 'username']) {
      script['POST /v2/auth/signup/init'] = [{ body: { blockBody: append(known), common } }];
      await flow.submitSignup({ email: 'ada@example.com' });
      expect(flow.$screen.get()).toBe('passkey-append');
      expect(flow.$block.get()?.failure).toBeUndefined();
    }
  });
});

describe('[spec 2.social-verify] the provider round trip', () => {
  const withSocial = (status: string, extra: Record<string, unknown> = {}): BlockBody => ({
    ...loginInit,
    data: { ...loginInit.data, socialData: { providers: ['google'], status }, ...extra },
  });
  const notEnabled = { code: 'social_provider_not_enabled', message: 'not enabled' };

  it('shows the social-verify screen while it starts; a refusal stays there until Back returns to log-in without it', async () => {
    const flow = await onSignup();
    flow.switchToAlternative('login-init');
    const refused = withSocial('initial', { error: notEnabled });
    script['POST /v2/auth/social/verify/start'] = [{ body: { blockBody: { ...refused, error: notEnabled }, common }, delay: 200 }];
    const starting = flow.startSocial('google');
    expect(flow.$screen.get()).toBe('social-verify');
    await starting;
    expect(seen).toEqual(['POST /v2/auth/social/verify/start']);
    expect(flow.$screen.get()).toBe('social-verify');
    expect(flow.$block.get()?.error).toMatchObject({ code: 'social_provider_not_enabled' });
    await flow.leaveSocialVerify();
    expect(flow.$screen.get()).toBe('login-init');
    expect(flow.$block.get()?.error).toBeUndefined();
    expect(flow.$block.get()?.data.error).toBeUndefined();
  });

  it('back from the provider, finishing shows the social-verify screen until the server moves on', async () => {
    script['POST /v2/auth/process/init'] = [{ body: started(withSocial('finished')) }];
    script['POST /v2/auth/social/verify/finish'] = [{ body: { blockBody: emailVerify, common }, delay: 200 }];
    const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: base, timeout: 2000, preview: false });
    const flow = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
    await flow.start();
    await vi.waitFor(() => expect(seen).toContain('POST /v2/auth/social/verify/finish'));
    expect(flow.$screen.get()).toBe('social-verify');
    await vi.waitFor(() => expect(flow.$screen.get()).toBe('email-otp-verification'));
    flow.dispose();
  });

  it('a social-verify block from the server has its own screen, and Back starts over', async () => {
    script['POST /v2/auth/process/init'] = [{ body: started({ block: 'social-verify', authType: 'login', data: { socialData: { providers: ['google'], status: 'started' } } }) }];
    const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: base, timeout: 2000, preview: false });
    const flow = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
    await flow.start();
    expect(flow.$screen.get()).toBe('social-verify');
    seen = [];
    await flow.leaveSocialVerify();
    expect(seen).toContain('POST /v2/auth/process/reset');
    flow.dispose();
  });
});

describe('the address bar and the screens (SPEC.md section 2)', () => {
  const passkeyAppendBody: BlockBody = { block: 'passkey-append', authType: 'signup', data: { identifierValue: 'ada@example.com', identifierType: 'email' } };
  const completedBody: BlockBody = { block: 'completed', authType: 'signup', data: {} };
  const popTo = (hash: string) => {
    window.history.pushState(null, '', hash);
    window.dispatchEvent(new PopStateEvent('popstate'));
  };
  /** a flow shown by a view (the history attached), on sign-up's e-mail code */
  async function onEmailCode(): Promise<{ flow: Flow; detach: () => void }> {
    window.history.replaceState(null, '', '/');
    const flow = await onSignup();
    const detach = flow.attachHistory();
    script['POST /v2/auth/signup/init'] = [{ body: { blockBody: emailVerify, common } }];
    await flow.submitSignup({ email: 'ada@example.com' });
    expect(flow.$screen.get()).toBe('email-otp-verification');
    seen = [];
    return { flow, detach };
  }

  it('[spec 2.hash-mirrors-block] [spec 2.history-push] names the block in the hash, one history entry per block, none for completed', async () => {
    window.history.replaceState(null, '', '/');
    const flow = await onSignup();
    const detach = flow.attachHistory();
    expect(window.location.hash).toBe('#signup-init');
    const entries = window.history.length;
    flow.switchToAlternative('login-init');
    expect(window.location.hash).toBe('#login-init');
    expect(window.history.length).toBe(entries + 1);
    flow.switchToAlternative('signup-init');
    script['POST /v2/auth/signup/init'] = [{ body: { blockBody: emailVerify, common } }];
    await flow.submitSignup({ email: 'ada@example.com' });
    expect(window.location.hash).toBe('#email-verify');
    expect(window.history.length).toBe(entries + 3);
    script['POST /v2/auth/identifier/verify/finish'] = [{ body: { blockBody: completedBody, common } }];
    await flow.submitCode('123456');
    expect(flow.$screen.get()).toBe('end');
    expect(window.location.hash).toBe('#email-verify');
    expect(window.history.length).toBe(entries + 3);
    detach();
    flow.dispose();
  });

  it('[spec 2.history-push] pushes no entry for continue-on-other-env', async () => {
    const { flow, detach } = await onEmailCode();
    const entries = window.history.length;
    script['POST /v2/auth/identifier/verify/finish'] = [{ body: { blockBody: { ...emailVerify, continueOnOtherDevice: { reason: 'process-already-completed' } }, common } }];
    await flow.submitCode('123456');
    expect(flow.$screen.get()).toBe('continue-on-other-device');
    expect(window.location.hash).toBe('#email-verify');
    expect(window.history.length).toBe(entries);
    detach();
    flow.dispose();
  });

  it('[spec 2.hash-switch] [spec 2.hash-aliases] a hash naming an alternative ("register" for sign-up) switches to it without a call', async () => {
    window.history.replaceState(null, '', '/');
    const flow = await onSignup();
    flow.switchToAlternative('login-init');
    const detach = flow.attachHistory();
    seen = [];
    popTo('#register');
    expect(flow.$block.get()?.type).toBe('signup-init');
    expect(flow.$screen.get()).toBe('signup-init');
    popTo('#login');
    expect(flow.$block.get()?.type).toBe('login-init');
    expect(seen).toEqual([]);
    detach();
    flow.dispose();
  });

  it('[spec 2.hash-abort-confirmation] a hash naming any other block during sign-up asks before aborting', async () => {
    const { flow, detach } = await onEmailCode();
    popTo('#login-init');
    expect(flow.$screen.get()).toBe('confirm-process-abort');
    expect(flow.$block.get()?.type).toBe('email-verify');
    expect(seen).toEqual([]);
    flow.cancelAbort();
    expect(flow.$screen.get()).toBe('email-otp-verification');
    detach();
    flow.dispose();
  });

  it("[spec 2.screen-reset] an answer on the same block keeps the screen; a new block type starts on its first screen", async () => {
    const { flow, detach } = await onEmailCode();
    flow.setScreen('edit-email');
    script['POST /v2/auth/identifier/verify/finish'] = [
      { body: { blockBody: { ...emailVerify, data: { ...emailVerify.data, error: { code: 'invalid_otp', message: 'wrong' } } }, common } },
      { body: { blockBody: passkeyAppendBody, common } },
    ];
    await flow.submitCode('000000');
    expect(flow.$block.get()?.data.error).toBeTruthy();
    expect(flow.$screen.get()).toBe('edit-email');
    await flow.submitCode('123456');
    expect(flow.$screen.get()).toBe('passkey-append');
    detach();
    flow.dispose();
  });
});
