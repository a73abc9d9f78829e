// @vitest-environment happy-dom
// The flow after a failed call (SPEC.md section 4, "Errors in the flow"), over real HTTP: a server that
// answers what each test scripts, and happy-dom for the window the flow mirrors (address, storage).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
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
/** the JSON bodies of the calls that carried one, per "METHOD /path", in order */
let sent: Record<string, unknown[]> = {};
/** the process each call named (X-Corbado-Process-ID), per "METHOD /path", the last one */
let processOf: Record<string, string | undefined> = {};
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
    processOf[call] = request.headers['x-corbado-process-id'] as string | undefined;
    const answer: Answer = script[call]?.shift() ?? { body: call === 'POST /v2/auth/process/init' ? started(loginInit) : { blockBody: loginInit, common } };
    if (answer.drop) return request.socket.destroy();
    const reply = () => {
      response.writeHead(answer.status ?? 200, { ...cors, 'Content-Type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
    };
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      if (text) (sent[call] ??= []).push(JSON.parse(text));
      // at once unless delayed: a test may have faked the timers
      if (answer.delay) setTimeout(reply, answer.delay);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  localStorage.clear();
  script = {};
  seen = [];
  sent = {};
  processOf = {};
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

  it('[spec 4.error-reinit] answered 500 loads the process again; sign-up stays sign-up while the server is on log-in', async () => {
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

/** A flow started as a page load starts it, with `window` at `address` (path, query, hash). */
async function pageLoad(address = '/'): Promise<Flow> {
  window.history.replaceState(null, '', address);
  const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: base, timeout: 600_000, preview: false });
  const flow = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
  await flow.start();
  return flow;
}
const storedProcessId = () => (JSON.parse(localStorage.getItem('cbo_auth_process-pro-1') ?? 'null') as { id: string } | null)?.id;
const storeProcess = (id: string) => localStorage.setItem('cbo_auth_process-pro-1', JSON.stringify({ id, expiresAt: Math.floor(Date.now() / 1000) + 600, frontendApiUrl: '' }));
/** Lets real I/O (the scripted server's answers) run while the timers are faked, until `check` holds. */
async function untilIo(check: () => boolean): Promise<void> {
  for (let turns = 0; !check(); turns++) {
    if (turns > 100_000) throw new Error('the expected call never arrived');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
afterEach(() => {
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

describe('start-up', () => {
  const signupInit = loginInit.alternatives![0]!;
  const filled = (body: BlockBody, data: Record<string, unknown>): BlockBody => ({ ...body, data: { ...body.data, ...data } });

  it('[spec 4.stored-process] loads the stored process while it is valid, and starts a new one once it has expired', async () => {
    storeProcess('proc-stored');
    const midway = filled(loginInit, { identifierValue: 'ada@example.com' });
    script['GET /v2/auth/process'] = [{ body: { blockBody: midway, common } }];
    const flow = await pageLoad();
    expect(seen).toEqual(['GET /v2/auth/process']);
    expect(flow.$block.get()?.data.identifierValue).toBe('ada@example.com');
    expect(storedProcessId()).toBe('proc-stored');
    flow.dispose();

    seen = [];
    localStorage.setItem('cbo_auth_process-pro-1', JSON.stringify({ id: 'proc-expired', expiresAt: Math.floor(Date.now() / 1000) - 1, frontendApiUrl: '' }));
    (await pageLoad()).dispose();
    expect(seen).toEqual(['POST /v2/auth/process/init']);
    expect(storedProcessId()).toBe(`proc-${tokens}`);
  });

  it('[spec 4.stored-process] a resume shows the sign-up or log-in screen the address names by switching to it, as the server would', async () => {
    // a process with something entered on both screens: not initial, so not replaced in the background
    const entered: BlockBody = {
      ...filled(loginInit, { identifierValue: 'ada@example.com' }),
      alternatives: [{ ...signupInit, data: { ...signupInit.data, identifiers: [{ type: 'email', identifier: 'ada@example.com' }] } }],
    };
    for (const [address, shown] of [
      ['/#register', 'signup-init'],
      ['/#signup-init', 'signup-init'],
      ['/#login', 'login-init'],
    ] as const) {
      storeProcess('proc-stored');
      script['GET /v2/auth/process'] = [{ body: { blockBody: entered, common } }];
      seen = [];
      const flow = await pageLoad(address);
      expect(seen).toEqual(['GET /v2/auth/process']);
      expect(flow.$block.get()?.type).toBe(shown);
      flow.dispose();
    }
  });

  it('[spec 4.init-state] is 0 while loading, 2 once ready, and 1 (the component-unavailable page) when start-up fails', async () => {
    script['POST /v2/auth/process/init'] = [{ delay: 200, body: started(loginInit) }, { status: 500, body: envelope(500, 'internal_error') }];
    const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: base, timeout: 600_000, preview: false });
    const flow = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
    expect(flow.$initState.get()).toBe(0);
    const starting = flow.start();
    await flow.requested();
    expect(flow.$initState.get()).toBe(0);
    await starting;
    expect(flow.$initState.get()).toBe(2);
    flow.dispose();

    localStorage.clear();
    const failing = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
    await failing.start();
    expect(failing.$initState.get()).toBe(1);
    expect(failing.$error.get()).toBeDefined();
    failing.dispose();
  });

  it('[spec 4.stored-process-fails] replaces a stored process that cannot be loaded by a new one without the preferred block the address names', async () => {
    storeProcess('proc-stored');
    script['GET /v2/auth/process'] = [{ status: 500, body: envelope(500, 'internal_error') }];
    const flow = await pageLoad('/#register');
    expect(seen).toEqual(['GET /v2/auth/process', 'POST /v2/auth/process/init']);
    expect(sent['POST /v2/auth/process/init']).toHaveLength(1);
    expect(sent['POST /v2/auth/process/init']![0]).not.toHaveProperty('preferredBlock');
    expect(storedProcessId()).toBe(`proc-${tokens}`);
    expect(flow.$initState.get()).toBe(2);
    flow.dispose();
  });

  it('[spec 4.email-link-first] [spec 4.email-start-screen] [spec 7.screen-operations] an e-mail link in the address is opened on its own process, with the stored one as the proof of this browser, on email-link-verification', async () => {
    storeProcess('proc-stored');
    const link = btoa(JSON.stringify({ process: { id: 'pro-link', expires: Math.floor(Date.now() / 1000) + 600 }, blockData: { identifier: 'ada@example.com', verificationMethod: 'email-link' }, authType: 1 }));
    script['POST /v2/auth/email-link/open'] = [{ body: { blockBody: { block: 'passkey-append', authType: 'signup', data: { identifierValue: 'ada@example.com', identifierType: 'email' } }, common } }];
    window.history.replaceState(null, '', `/?corbadoEmailLinkID=${link}&corbadoToken=tok-1`);
    const api = new ApiClient({ projectId: 'pro-1', frontendApiUrl: base, timeout: 600_000, preview: false });
    const flow = new Flow(api, new Session(api, Promise.resolve(undefined)), 'pro-1', { window });
    const screens: string[] = [];
    flow.$screen.listen((screen) => screens.push(screen));
    await flow.start();
    // shown while the link is checked, then the block the link led to
    expect(screens).toEqual(['email-link-verification', 'passkey-append']);
    expect(seen).toEqual(['POST /v2/auth/email-link/open']);
    expect(processOf['POST /v2/auth/email-link/open']).toBe('proc-stored');
    expect(sent['POST /v2/auth/email-link/open']).toEqual([{ process: 'pro-link', token: 'tok-1' }]);
    expect(window.location.search).toBe('');
    flow.dispose();
  });

  describe('an e-mail link opened in another browser than the one that asked', () => {
    const request = { authType: 'login', browser: 'Firefox 128', os: 'Windows', age: 130, matchCode: '427' };
    const asked: BlockBody = { block: 'email-verify', authType: 'login', data: { verificationMethod: 'email-link', identifier: 'ada@example.com' } };

    async function openedElsewhere(): Promise<Flow> {
      const link = btoa(JSON.stringify({ process: { id: 'pro-link' }, blockData: { identifier: 'ada@example.com', verificationMethod: 'email-link' }, authType: 0 }));
      script['POST /v2/auth/email-link/open'] = [{ body: { blockBody: asked, common, linkRequest: request } }];
      seen = [];
      const flow = await pageLoad(`/?corbadoEmailLinkID=${link}&corbadoToken=tok-1`);
      expect(flow.$screen.get()).toBe('email-link-approval');
      expect(flow.$linkRequest.get()).toEqual(request);
      expect(flow.linkPage).toBe(true);
      // no process header: this browser has none, and asks for nothing by itself
      expect(seen).toEqual(['POST /v2/auth/email-link/open']);
      expect(processOf['POST /v2/auth/email-link/open']).toBeUndefined();
      return flow;
    }

    it('shows what it would approve and sends nothing more until a click; "Yes" says to continue there', async () => {
      const flow = await openedElsewhere();
      await sleep(300);
      expect(seen).toEqual(['POST /v2/auth/email-link/open']);
      script['POST /v2/auth/email-link/approve'] = [{ body: { blockBody: { ...asked, continueOnOtherDevice: { reason: 'email-link-verified' } }, common } }];
      await flow.answerLink('approve');
      expect(sent['POST /v2/auth/email-link/approve']).toEqual([{ process: 'pro-link', token: 'tok-1' }]);
      expect(flow.$screen.get()).toBe('continue-on-other-device');
      expect(flow.$block.get()?.continueReason).toBe('email-link-verified');
      flow.dispose();
    });

    it('"No" shows the declined request; "here instead" keeps the new process and goes on with it', async () => {
      const flow = await openedElsewhere();
      const declined = { ...asked, data: { ...asked.data, error: { code: 'email_link_declined', message: 'declined' } } };
      script['POST /v2/auth/email-link/decline'] = [{ body: { blockBody: declined, common } }];
      await flow.answerLink('decline');
      expect(flow.$screen.get()).toBe('email-link-verification');
      expect(flow.$block.get()?.data.error).toEqual({ code: 'email_link_declined', message: 'declined' });
      flow.dispose();

      const again = await openedElsewhere();
      script['POST /v2/auth/email-link/here'] = [{ body: { blockBody: { block: 'completed', authType: 'login', data: { shortSession: 's.j.t' } }, common, newProcess: { token: 'proc-here', expiresAt: 1 } } }];
      await again.answerLink('here');
      expect(again.$screen.get()).toBe('end');
      expect(localStorage.getItem('cbo_short_session')).toBe('s.j.t');
      again.dispose();
    });
  });

  describe('[spec 4.initial-login] [spec 4.initial-signup] an initial process', () => {
    it.each([
      ['login-init', loginInit, filled(loginInit, { identifierValue: 'ada@example.com' })],
      ['signup-init', signupInit, filled(signupInit, { identifiers: [{ type: 'phone', identifier: '' }, { type: 'email', identifier: 'ada@example.com' }] })],
    ] as const)('a stored %s on which nothing was entered is replaced by a new process; one with an identifier or a started social sign-in is kept', async (_, initial, entered) => {
      for (const [body, replaced] of [[initial, true], [entered, false], [filled(initial, { socialData: { providers: [], status: 'started' } }), false]] as const) {
        localStorage.clear();
        storeProcess('proc-stored');
        seen = [];
        script['GET /v2/auth/process'] = [{ body: { blockBody: body, common } }];
        const flow = await pageLoad();
        // the replacement runs in the background; any action waits for it
        await flow.submitLogin('ada@example.com', false);
        expect(seen.includes('POST /v2/auth/process/init')).toBe(replaced);
        expect(storedProcessId() === 'proc-stored').toBe(!replaced);
        flow.dispose();
      }
    });
  });

  it('[spec 4.initial-login] a resumed initial process is replaced, and so is its replacement when the browser contradicts the guess it was sent with', async () => {
    // the browser answers at once that there is a platform authenticator; happy-dom's guess is none
    fakeWebAuthn({});
    storeProcess('proc-stored');
    // the replacement's answer comes after the browser's: the contradiction is known before the process is
    script['POST /v2/auth/process/init'] = [{ body: started(loginInit), delay: 150 }];
    const flow = await pageLoad();
    const inits = () => (sent['POST /v2/auth/process/init'] ?? []) as { clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable?: boolean } }[];
    await vi.waitFor(() => expect(inits()).toHaveLength(2), { timeout: 5_000, interval: 20 });
    expect(inits().map((body) => body.clientInformation.isUserVerifyingPlatformAuthenticatorAvailable)).toEqual([false, true]);
    await vi.waitFor(() => expect(storedProcessId()).toBe(`proc-${tokens}`), { timeout: 5_000, interval: 20 });
    // and no more: the last one was sent with the browser's answers
    await sleep(300);
    expect(inits()).toHaveLength(2);
    flow.dispose();
  });

  it('[spec 4.initial-login] an action taken before the browser answers waits for the answer, and goes to the process sent with it', async () => {
    // a fresh visit guesses no platform authenticator (happy-dom is no Mac); the visitor submits before the
    // browser says there is one: the log-in is held, and leaves to the replacement, not to the guess
    let answer!: (available: boolean) => void;
    const available = new Promise<boolean>((resolve) => (answer = resolve));
    fakeWebAuthn({}, () => available);
    const flow = await pageLoad();
    const guessed = storedProcessId();
    const loginVerify: BlockBody = { ...emailVerify, authType: 'login' };
    script['POST /v2/auth/login/init'] = [{ body: { blockBody: loginVerify, common } }];
    const login = flow.submitLogin('ada@example.com', false);
    // a bound, not a timing assertion: long enough for the log-in to have left had it not been held
    await sleep(200);
    expect(seen).not.toContain('POST /v2/auth/login/init');
    expect(flow.$busy.get()).toBe(true);
    answer(true);
    await login;
    const inits = (sent['POST /v2/auth/process/init'] ?? []) as { clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable?: boolean } }[];
    expect(inits.map((body) => body.clientInformation.isUserVerifyingPlatformAuthenticatorAvailable)).toEqual([false, true]);
    expect(processOf['POST /v2/auth/login/init']).toBe(storedProcessId());
    expect(storedProcessId()).not.toBe(guessed);
    expect(flow.$screen.get()).toBe('email-otp-verification');
    flow.dispose();
  });

  it('[spec 4.initial-login] a browser whose capability call throws: nothing is left unhandled, no error shown, and the log-in goes to the process shown', async () => {
    // "nothing left unhandled" is vitest's to check: a rejection nobody handles fails the run
    fakeWebAuthn({}, () => {
      throw new TypeError('not in this browser');
    });
    const flow = await pageLoad();
    const process = storedProcessId();
    script['POST /v2/auth/login/init'] = [{ body: { blockBody: { ...emailVerify, authType: 'login' }, common } }];
    await flow.submitLogin('ada@example.com', false);
    expect(processOf['POST /v2/auth/login/init']).toBe(process);
    expect(flow.$error.get()).toBeUndefined();
    expect(flow.$block.get()?.failure).toBeUndefined();
    expect(flow.$screen.get()).toBe('email-otp-verification');
    flow.dispose();
  });

  it('[spec 4.initial-login] a browser that does not answer holds an action 3 s at most; it goes on the guess, and a later answer changes nothing', async () => {
    let answer!: (available: boolean) => void;
    const available = new Promise<boolean>((resolve) => (answer = resolve));
    fakeWebAuthn({}, () => available);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const loading = pageLoad();
      await untilIo(() => storedProcessId() !== undefined);
      const started = await loading;
      const guessed = storedProcessId();
      const loginVerify: BlockBody = { ...emailVerify, authType: 'login' };
      script['POST /v2/auth/login/init'] = [{ body: { blockBody: loginVerify, common } }];
      const login = started.submitLogin('ada@example.com', false);
      await vi.advanceTimersByTimeAsync(2999);
      // real I/O turns enough for a log-in that was not held to reach the scripted server
      for (let turn = 0; turn < 2000; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(seen).not.toContain('POST /v2/auth/login/init');
      await vi.advanceTimersByTimeAsync(1);
      await untilIo(() => seen.includes('POST /v2/auth/login/init'));
      await login;
      expect(processOf['POST /v2/auth/login/init']).toBe(guessed);
      // the answer that comes now is no longer the device's answer for this process: nothing is replaced
      answer(true);
      await vi.advanceTimersByTimeAsync(1000);
      expect(seen.filter((call) => call === 'POST /v2/auth/process/init')).toHaveLength(1);
      expect(storedProcessId()).toBe(guessed);
      expect(started.$screen.get()).toBe('email-otp-verification');
      started.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('abort', () => {
  it('[spec 4.reset-new-process] stores the new process a reset answers with', async () => {
    const flow = await pageLoad();
    const first = storedProcessId();
    const expiresAt = Math.floor(Date.now() / 1000) + 900;
    script['POST /v2/auth/process/reset'] = [{ body: { blockBody: loginInit, common, newProcess: { token: 'proc-after-reset', expiresAt } } }];
    await flow.abort();
    expect(first).not.toBe('proc-after-reset');
    expect(JSON.parse(localStorage.getItem('cbo_auth_process-pro-1')!)).toMatchObject({ id: 'proc-after-reset', expiresAt });
    // and the next call names it
    await flow.submitLogin('ada@example.com', false);
    expect(processOf['POST /v2/auth/login/init']).toBe('proc-after-reset');
    flow.dispose();
  });

  describe('[spec 4.abort-login-direct] [spec 4.abort-forward] back from an e-mail code: confirmed directly during log-in, asked during sign-up', () => {
    it.each([
      ['login', false],
      ['signup', true],
    ] as const)('going back from a %s e-mail code asks first only during sign-up', async (authType, asks) => {
      const flow = await pageLoad('/#login');
      const detach = flow.attachHistory();
      script['POST /v2/auth/login/init'] = [{ body: { blockBody: { ...emailVerify, authType }, common } }];
      await flow.submitLogin('ada@example.com', false);
      expect(window.location.hash).toBe('#email-verify');
      const screens: string[] = [];
      flow.$screen.listen((screen) => screens.push(screen));
      seen = [];
      window.history.replaceState(null, '', '/#login');
      window.dispatchEvent(new PopStateEvent('popstate'));
      await vi.waitFor(() => expect(flow.$busy.get()).toBe(false));
      if (asks) {
        expect(screens).toEqual(['confirm-process-abort']);
        expect(seen).toEqual([]);
        // "complete the sign-up first": back on the step, and forward in the history to its address
        const forward = vi.spyOn(window.history, 'forward');
        flow.cancelAbort();
        expect(flow.$screen.get()).toBe('email-otp-verification');
        expect(forward).toHaveBeenCalledOnce();
        forward.mockRestore();
        expect(seen).toEqual([]);
      } else {
        expect(screens).not.toContain('confirm-process-abort');
        expect(seen).toEqual(['POST /v2/auth/process/reset']);
        expect(flow.$screen.get()).toBe('login-init');
      }
      detach();
      flow.dispose();
    });
  });

  it('[spec 4.abort-exempt] going back from a block exempt from the confirmation (continue-on-other-env) resets at once, also during sign-up', async () => {
    script['POST /v2/auth/process/init'] = [{ body: started({ ...emailVerify, continueOnOtherDevice: { reason: 'process-already-completed' } }) }];
    const flow = await pageLoad('/#register');
    const detach = flow.attachHistory();
    expect(flow.$block.get()).toMatchObject({ type: 'continue-on-other-env', authType: 'signup' });
    const screens: string[] = [];
    flow.$screen.listen((screen) => screens.push(screen));
    seen = [];
    window.history.replaceState(null, '', '/#register');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await vi.waitFor(() => expect(seen).toEqual(['POST /v2/auth/process/reset']));
    expect(screens).not.toContain('confirm-process-abort');
    detach();
    flow.dispose();
  });
});

describe('social sign-in', () => {
  const withSocial = (socialData: Record<string, unknown>): BlockBody => ({ ...loginInit, data: { ...loginInit.data, socialData: { providers: ['google'], ...socialData } } });

  it('[spec 4.social-start] [spec 4.social-redirect] sends the provider, the page address and the auth type, then goes to the address of the provider', async () => {
    const flow = await pageLoad('/login.html?lang=de#login');
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    try {
      script['POST /v2/auth/social/verify/start'] = [{ body: { blockBody: withSocial({ status: 'started', oauthUrl: `${base}/oauth/google` }), common } }];
      await flow.startSocial('google');
      expect(sent['POST /v2/auth/social/verify/start']).toEqual([{ providerType: 'google', redirectUrl: `${window.location.origin}/login.html`, authType: 'login' }]);
      expect(assign).toHaveBeenCalledExactlyOnceWith(`${base}/oauth/google`);
    } finally {
      assign.mockRestore();
    }
    flow.dispose();
  });

  it('a round trip begun on another site than the API: finish carries the result secret of the address, which then leaves the address', async () => {
    script['GET /v2/auth/process'] = [{ body: { blockBody: withSocial({ status: 'finished', error: undefined }), common } }];
    storeProcess('proc-social-cross-site');
    script['POST /v2/auth/social/verify/finish'] = [{ body: { blockBody: { block: 'completed', authType: 'login', data: { shortSession: 's.j.t' } }, common } }];
    const flow = await pageLoad('/shop.html?item=7&cbo_social_result=secret-1');
    await vi.waitFor(() => expect(flow.$block.get()?.type).toBe('completed'));
    expect(sent['POST /v2/auth/social/verify/finish']).toEqual([{ result: 'secret-1' }]);
    expect(window.location.pathname + window.location.search).toBe('/shop.html?item=7');
    flow.dispose();
  });

  it('[spec 4.social-finish] finishes a social log-in that came back finished without an error, and only then', async () => {
    script['GET /v2/auth/process'] = [{ body: { blockBody: withSocial({ status: 'finished', error: undefined }), common } }];
    storeProcess('proc-social');
    script['POST /v2/auth/social/verify/finish'] = [{ body: { blockBody: { block: 'completed', authType: 'login', data: { shortSession: 's.j.t' } }, common } }];
    const flow = await pageLoad();
    await vi.waitFor(() => expect(flow.$block.get()?.type).toBe('completed'));
    // the process's calls (once signed in, the session asks whether its long session was kept: not this test's matter)
    const processCalls = () => seen.filter((call) => call.includes(' /v2/auth/'));
    expect(processCalls()).toEqual(['GET /v2/auth/process', 'POST /v2/auth/social/verify/finish']);
    flow.dispose();

    localStorage.clear();
    storeProcess('proc-social');
    seen = [];
    script['GET /v2/auth/process'] = [{ body: { blockBody: { ...withSocial({ status: 'finished' }), data: { ...withSocial({ status: 'finished' }).data, error: { code: 'social_cancelled', message: 'cancelled' } } }, common } }];
    const failed = await pageLoad();
    await sleep(300);
    expect(processCalls()).toEqual(['GET /v2/auth/process']);
    failed.dispose();
  });
});

describe('the e-mail link screen', () => {
  const linkSent: BlockBody = { ...emailVerify, data: { verificationMethod: 'email-link', identifier: 'ada@example.com' } };
  const statusCalls = () => seen.filter((call) => call === 'GET /v2/auth/identifier/verify/status').length;
  /** how often the next poll was scheduled 2 s ahead */
  let scheduled: () => number;

  /** email-link-sent with the timers faked; the server keeps answering email-verify (the link is not opened) */
  async function onLinkSent(): Promise<Flow> {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const timers = vi.spyOn(globalThis, 'setTimeout');
    scheduled = () => timers.mock.calls.filter((call) => call[1] === 2000).length;
    script['POST /v2/auth/process/init'] = [{ body: started(linkSent) }];
    script['GET /v2/auth/identifier/verify/status'] = Array.from({ length: 300 }, () => ({ body: { blockBody: linkSent, common } }));
    const flow = await pageLoad();
    expect(flow.$screen.get()).toBe('email-link-sent');
    seen = [];
    return flow;
  }

  it('[spec 4.email-poll] [spec 4.email-poll-waiting] [spec 9.email-poll] polls the status every 2 s while the block is still email-verify, past 120 polls, until the link has expired', async () => {
    const flow = await onLinkSent();
    for (let poll = 1; poll <= 150; poll++) {
      await untilIo(() => scheduled() === poll);
      await vi.advanceTimersByTimeAsync(1999);
      expect(statusCalls()).toBe(poll - 1);
      await vi.advanceTimersByTimeAsync(1);
      await untilIo(() => statusCalls() === poll);
    }
    expect(flow.$screen.get()).toBe('email-link-sent');
    // the server says the link expired unused: the tab says so and stops
    script['GET /v2/auth/identifier/verify/status'] = [{ body: { blockBody: { ...linkSent, data: { ...linkSent.data, error: { code: 'invalid_challenge_solution_email-link', message: 'expired' } } }, common } }];
    await untilIo(() => scheduled() === 151);
    await vi.advanceTimersByTimeAsync(2000);
    await untilIo(() => flow.$screen.get() === 'email-link-verification');
    expect(flow.$block.get()?.data.error).toMatchObject({ code: 'invalid_challenge_solution_email-link' });
    await vi.advanceTimersByTimeAsync(20_000);
    await sleep(300);
    expect(statusCalls()).toBe(151);
    flow.dispose();
  }, 120_000);

  it('[spec 4.email-resend-poll] [spec 4.email-resend] a resend sends the link again and polls anew, also after the link had expired', async () => {
    const flow = await onLinkSent();
    script['GET /v2/auth/identifier/verify/status'] = [{ body: { blockBody: { ...linkSent, data: { ...linkSent.data, error: { code: 'invalid_challenge_solution_email-link', message: 'expired' } } }, common } }];
    await untilIo(() => scheduled() === 1);
    await vi.advanceTimersByTimeAsync(2000);
    await untilIo(() => flow.$screen.get() === 'email-link-verification');
    script['POST /v2/auth/identifier/verify/start'] = [{ body: { blockBody: linkSent, common } }];
    await flow.resend();
    flow.setScreen('email-link-sent');
    expect(sent['POST /v2/auth/identifier/verify/start']).toEqual([{ identifierType: 'email', verificationType: 'email-link' }]);
    expect(flow.$block.get()?.data.error).toBeUndefined();
    await untilIo(() => scheduled() === 2);
    await vi.advanceTimersByTimeAsync(2000);
    await untilIo(() => statusCalls() === 2);
    flow.dispose();
  });

  it('stops polling when the request was declined at the link, or the process is gone, and says so', async () => {
    const flow = await onLinkSent();
    script['GET /v2/auth/identifier/verify/status'] = [{ body: { blockBody: { ...linkSent, data: { ...linkSent.data, error: { code: 'email_link_declined', message: 'declined' } } }, common } }];
    await untilIo(() => scheduled() === 1);
    await vi.advanceTimersByTimeAsync(2000);
    await untilIo(() => flow.$screen.get() === 'email-link-verification');
    expect(flow.$block.get()?.data.error).toMatchObject({ code: 'email_link_declined' });
    flow.dispose();

    localStorage.clear();
    seen = [];
    const gone = await onLinkSent();
    script['GET /v2/auth/identifier/verify/status'] = [{ status: 404, body: envelope(404, 'process_not_available') }];
    await untilIo(() => scheduled() === 1);
    await vi.advanceTimersByTimeAsync(2000);
    await untilIo(() => gone.$screen.get() === 'email-link-verification');
    expect(gone.$block.get()?.failure?.kind).toBe('processNotFound');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(statusCalls()).toBe(1);
    gone.dispose();
  });

  it('[spec 4.email-poll-other-device] reports a link finished in another tab or on another device as such, not as verified here', async () => {
    const flow = await onLinkSent();
    script['GET /v2/auth/identifier/verify/status'] = [{ body: { blockBody: { ...linkSent, continueOnOtherDevice: { reason: 'process-already-completed' } }, common } }];
    await vi.advanceTimersByTimeAsync(2000);
    await untilIo(() => flow.$block.get()?.type === 'continue-on-other-env');
    expect(flow.$screen.get()).toBe('continue-on-other-device');
    expect(flow.$block.get()?.continueReason).toBe('process-already-completed');
    expect(flow.$linkVerifiedHere.get()).toBe(false);
    flow.dispose();
  });

  it('[spec 4.email-poll-advance] moves on with the block the poll answers, on the success screen of the original tab', async () => {
    const flow = await onLinkSent();
    script['GET /v2/auth/identifier/verify/status'] = [{ body: { blockBody: { block: 'passkey-append', authType: 'signup', data: { identifierValue: 'ada@example.com', identifierType: 'email' } }, common } }];
    await vi.advanceTimersByTimeAsync(2000);
    await untilIo(() => flow.$block.get()?.type === 'passkey-append');
    expect(flow.$screen.get()).toBe('email-link-success');
    expect(flow.$linkVerifiedHere.get()).toBe(true);
    flow.dispose();
  });
});

describe('[spec 4.completed-clears] [spec 4.completed-tokens] [spec 4.completed-callback] [spec 4.completed-login-marker] a completed process: cleared, both session tokens stored, the callback fired, the passkey-append marker dropped on log-in', () => {
  const completed = (authType: 'login' | 'signup'): BlockBody => ({ block: 'completed', authType, data: { shortSession: 'short.jwt.token', longSession: 'long-session-token' } });

  it.each(['login', 'signup'] as const)(
    'after a %s (a sign-up keeps the marker)',
    async (authType) => {
      const flow = await pageLoad();
      expect(storedProcessId()).toBeTruthy();
      localStorage.setItem('cbo_passkey_append_shown', '1700000000');
      const completions: string[] = [];
      flow.onComplete(({ authType }) => completions.push(authType));
      script['POST /v2/auth/login/init'] = [{ body: { blockBody: completed(authType), common } }];
      await flow.submitLogin('ada@example.com', false);
      expect(flow.$screen.get()).toBe('end');
      expect(localStorage.getItem('cbo_auth_process-pro-1')).toBeNull();
      expect(localStorage.getItem('cbo_short_session')).toBe('short.jwt.token');
      expect(localStorage.getItem('cbo_long_session')).toBe('long-session-token');
      expect(completions).toEqual([authType]);
      expect(localStorage.getItem('cbo_passkey_append_shown')).toBe(authType === 'login' ? null : '1700000000');
      flow.dispose();
    },
  );
});

describe('passkey append', () => {
  it('[spec 4.append-edit-unchanged] editing the identifier to the same value returns to the append screen without a call', async () => {
    const passkeyAppend: BlockBody = { block: 'passkey-append', authType: 'signup', data: { identifierValue: 'ada@example.com', identifierType: 'email' }, alternatives: [] };
    script['POST /v2/auth/process/init'] = [{ body: started(passkeyAppend) }];
    const flow = await pageLoad();
    expect(flow.$screen.get()).toBe('passkey-append');
    flow.setScreen('edit-email');
    seen = [];
    expect(await flow.updateIdentifier('email', 'ada@example.com')).toBeUndefined();
    expect(seen).toEqual([]);
    expect(flow.$screen.get()).toBe('passkey-append');
    // a changed one is sent
    script['POST /v2/auth/identifier/update'] = [{ body: { blockBody: { ...passkeyAppend, data: { ...passkeyAppend.data, identifierValue: 'bob@example.com' } }, common } }];
    flow.setScreen('edit-email');
    await flow.updateIdentifier('email', 'bob@example.com');
    expect(seen).toEqual(['POST /v2/auth/identifier/update']);
    expect(flow.$screen.get()).toBe('passkey-append');
    flow.dispose();
  });
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

  it('[spec 2.initial-screen-passkey-verify] [spec 4.passkey-verify-error] without a fallback the passkey screen stays, and its log-in fails as "not supported", not with a TypeError', async () => {
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

/**
 * A browser with WebAuthn (a platform authenticator, conditional mediation) whose navigator.credentials is
 * `credentials`; `platform`: its answer on the platform authenticator, when it is to come later.
 */
function fakeWebAuthn(credentials: object, platform: () => Promise<boolean> = async () => true): void {
  const PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
    isUserVerifyingPlatformAuthenticatorAvailable: platform,
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

describe('[spec 4.conditional-ui-ignorable] conditional UI (the autofill of login-init), with a fake navigator.credentials.get', () => {
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
  ])('[spec 4.conditional-ui-ignorable] swallows %s (%s): nothing shown, nothing asked of the server', async (name) => {
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

  it('[spec 4.conditional-ui-once] keeps the request of the same challenge when the block is drawn again; a new challenge ends it and starts one', async () => {
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
