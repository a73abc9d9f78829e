// @vitest-environment happy-dom
// Start-up puts nothing but the network between load() and the first screen (issue 15): both start-up
// requests leave in the task that calls load(), before any timer turn, even though the browser's
// passkey capability answers (which process/init carries) come later, as they do in a browser, where
// they are asked of another process. Real HTTP against a local server; fetch is wrapped to note the
// turn in which each request was issued.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Corbado from '../Corbado';
import type { ClientInformation } from './api/types';
import { WARM_UP_DEADLINE_MS } from './process/preflightWarmUp';
import { storageKeys } from './storage';

let server: Server;
let base = '';
/** what the server received, in order */
let received: { call: string; body: unknown; processId?: string; query?: string }[] = [];
/** requests as fetch saw them, with the timer turn they were issued in (0: the task that called load()) */
let issued: { call: string; turn: number }[] = [];
let turn = 0;
/** what the fake browser answers to the capability questions, after `answerAfterMs` */
let platform = { uvpa: true, conditional: true };
let answerAfterMs = 20;

const loginInit = {
  block: 'login-init',
  authType: 'login',
  data: { identifierValue: '', isPhone: false, isPhoneAvailable: false, isEmailAvailable: true, isUsernameAvailable: false, socialData: { providers: [], status: 'initial' } },
  alternatives: [],
};
const common = { appName: 'Test', frontendApiUrl: '', hideBadge: false };
let tokens = 0;

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text ? JSON.parse(text) : undefined));
  });
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const cors = { 'Access-Control-Allow-Origin': request.headers.origin ?? '*', 'Access-Control-Allow-Credentials': 'true' };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'GET, POST', 'Access-Control-Allow-Headers': request.headers['access-control-request-headers'] ?? '' });
      return response.end();
    }
    const call = `${request.method} ${new URL(request.url ?? '/', base).pathname}`;
    const processId = request.headers['x-corbado-process-id'];
    const query = new URL(request.url ?? '/', base).search;
    received.push({ call, body: await readBody(request), ...(typeof processId === 'string' ? { processId } : {}), ...(query ? { query } : {}) });
    const body =
      call === 'GET /v2/session-config'
        ? { useSessionManagement: true }
        : call === 'POST /v2/auth/process/init'
          ? { token: `proc-${++tokens}`, expiresAt: Math.floor(Date.now() / 1000) + 3600, processResponse: { blockBody: loginInit, common } }
          : { blockBody: loginInit, common };
    response.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const realFetch = globalThis.fetch;
const realCredential = (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
beforeEach(() => {
  localStorage.clear();
  answerAfterMs = 20;
  received = [];
  issued = [];
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input as Request;
    issued.push({ call: `${request.method} ${new URL(request.url).pathname}`, turn });
    return realFetch(input, init);
  };
  // a browser with WebAuthn whose capability answers take a while
  const later = <T>(value: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(value()), answerAfterMs));
  (window as { PublicKeyCredential?: unknown }).PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
    isUserVerifyingPlatformAuthenticatorAvailable: () => later(() => platform.uvpa),
    isConditionalMediationAvailable: () => later(() => platform.conditional),
  });
});
afterEach(async () => {
  // what a test left in flight (a background replacement) lands before the next one starts; generous, for
  // a loaded machine (a bound, not a timing assertion)
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  globalThis.fetch = realFetch;
  (window as { PublicKeyCredential?: unknown }).PublicKeyCredential = realCredential;
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Calls load() as a page does, not awaited, with a timer queued just before: its turn ends the task. */
function loadInOneTask(): void {
  turn = 0;
  setTimeout(() => (turn = 1), 0);
  void Corbado.load({ projectId: 'pro-1', frontendApiUrl: base, darkMode: 'off' });
}

/** A next visit (the stored process removed): process/init leaves in the task that calls load(). */
async function nextVisit(): Promise<void> {
  localStorage.removeItem(storageKeys.authProcess('pro-1'));
  received = [];
  issued = [];
  loadInOneTask();
  await until(() => issued.length >= 2, 'two requests');
  expect(issued[1]).toEqual({ call: 'POST /v2/auth/process/init', turn: 0 });
  await until(() => received.length >= 2, 'the requests to arrive');
}

const sentClient = (index = 0) =>
  (received.filter((r) => r.call === 'POST /v2/auth/process/init')[index]?.body as { clientInformation: ClientInformation }).clientInformation;

describe('load()', () => {
  it('issues GET /v2/session-config and POST /v2/auth/process/init in the task that calls it, before the capability answers', async () => {
    platform = { uvpa: false, conditional: true };
    loadInOneTask();
    await until(() => issued.length >= 2, 'two requests');
    expect(issued.slice(0, 2)).toEqual([
      { call: 'GET /v2/session-config', turn: 0 },
      { call: 'POST /v2/auth/process/init', turn: 0 },
    ]);
  });

  it('has both start-up requests sent before load() returns: not some promise turns later, behind the host page\'s .then() that mounts the view', async () => {
    turn = 0;
    const loading = Corbado.load({ projectId: 'pro-1', frontendApiUrl: base, darkMode: 'off' });
    // what the page's .then(() => Corbado.mountAuthUI(…)) would run: queued now, it runs after the requests in any case
    expect(issued.map((request) => request.call)).toEqual(['GET /v2/session-config', 'POST /v2/auth/process/init']);
    await loading;
    await until(() => received.length >= 2, 'the requests to arrive');
  });

  it('a returning visitor: the stored process is loaded in the same task', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    localStorage.setItem(storageKeys.authProcess('pro-1'), JSON.stringify({ id: 'proc-stored', expiresAt, frontendApiUrl: '' }));
    loadInOneTask();
    await until(() => issued.length >= 2, 'two requests');
    expect(issued.slice(0, 2)).toEqual([
      { call: 'GET /v2/session-config', turn: 0 },
      { call: 'GET /v2/auth/process', turn: 0 },
    ]);
  });

  it('sends the answers measured on an earlier visit; a guess the browser contradicts is replaced by a process with its answers', async () => {
    // first visit: the browser answers what a Linux desktop guess does not expect
    platform = { uvpa: true, conditional: false };
    loadInOneTask();
    await until(() => received.filter((r) => r.call === 'POST /v2/auth/process/init').length >= 2, 'the replacement');
    const replaced = sentClient(1);
    expect(replaced.isUserVerifyingPlatformAuthenticatorAvailable).toBe(true);
    expect(replaced.canUsePasskeys).toBe(true);
    expect(replaced.isConditionalMediationAvailable).toBe(false);
    expect(sentClient(0)).not.toEqual(replaced);

    // next visit (stored process removed): the measured answers go with the first request, and stay
    await nextVisit();
    expect(sentClient(0)).toMatchObject({ isUserVerifyingPlatformAuthenticatorAvailable: true, isConditionalMediationAvailable: false });
    // long past the capability answers: a replacement would have been sent by now
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received.filter((r) => r.call === 'POST /v2/auth/process/init')).toHaveLength(1);
  });

  it('an answer on passkeys that comes slowly (1.3 s, a loaded device) still counts: the process sent with the guess is replaced', async () => {
    // it contradicts the guess (conditional mediation where the browser has the call)
    platform = { uvpa: false, conditional: false };
    answerAfterMs = 1_300;
    loadInOneTask();
    await until(() => received.filter((r) => r.call === 'POST /v2/auth/process/init').length === 2, 'the replacement');
    expect(sentClient(1)).toMatchObject({ isUserVerifyingPlatformAuthenticatorAvailable: false, isConditionalMediationAvailable: false });
    expect(JSON.parse(localStorage.getItem(storageKeys.clientCapabilities)!)).toMatchObject({ uvpa: false, conditional: false });
    // the replacement asks the browser too: its answers land within this test, not in the next one's storage
    await new Promise((resolve) => setTimeout(resolve, answerAfterMs));
  });

  it('an answer on passkeys that comes too late (past 3 s) is no answer: it replaces nothing, and nothing is remembered for the next visit', async () => {
    platform = { uvpa: false, conditional: false };
    answerAfterMs = 3_300;
    loadInOneTask();
    await until(() => received.some((r) => r.call === 'POST /v2/auth/process/init'), 'process/init');
    // past the 3 s the widget waits for the answers, and past the answers themselves
    await new Promise((resolve) => setTimeout(resolve, 3_600));
    expect(received.filter((r) => r.call === 'POST /v2/auth/process/init')).toHaveLength(1);
    expect(localStorage.getItem(storageKeys.clientCapabilities)).toBeNull();
  });

  it('[spec 3.process-init-request] [spec 7.process-init] sends bluetoothAvailable and javaScriptHighEntropy once the browser told them, without waiting for them', async () => {
    // a Chromium on Android: Web Bluetooth and User-Agent Client Hints, both answering later than the request leaves
    platform = { uvpa: true, conditional: true };
    const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), answerAfterMs));
    const nav = navigator as Navigator & { bluetooth?: unknown; userAgentData?: unknown };
    Object.defineProperty(nav, 'bluetooth', { configurable: true, value: { getAvailability: () => later(true) } });
    Object.defineProperty(nav, 'userAgentData', {
      configurable: true,
      value: {
        mobile: true,
        platform: 'Android',
        getHighEntropyValues: (hints: string[]) =>
          later({ platform: 'Android', mobile: true, ...(hints.includes('platformVersion') ? { platformVersion: '14.0.0' } : {}) }),
      },
    });
    try {
      loadInOneTask();
      await until(() => issued.length >= 2, 'two requests');
      expect(issued[1]).toEqual({ call: 'POST /v2/auth/process/init', turn: 0 });
      await until(() => received.length >= 2, 'the requests to arrive');
      // a first visit cannot know them yet: left out, not guessed
      expect(sentClient(0).bluetoothAvailable).toBeUndefined();
      expect(sentClient(0).javaScriptHighEntropy).toBeUndefined();
      await until(() => localStorage.getItem(storageKeys.clientCapabilities)?.includes('14.0.0') === true, 'the measured answers');

      // the next visit sends what was measured, in the task that calls load()
      await nextVisit();
      expect(sentClient(0)).toMatchObject({
        bluetoothAvailable: true,
        canUsePasskeys: true,
        javaScriptHighEntropy: { platform: 'Android', platformVersion: '14.0.0', mobile: true },
      });
    } finally {
      delete nav.bluetooth;
      delete nav.userAgentData;
    }
  });
});

describe('a returning visitor pays no preflight', () => {
  /** requestIdleCallback as Chromium and Firefox have it (happy-dom does not): the test runs the callbacks */
  let idle: { callback: () => void; timeout?: number }[] = [];
  beforeEach(() => {
    idle = [];
    (window as { requestIdleCallback?: unknown }).requestIdleCallback = (callback: () => void, options?: { timeout: number }) =>
      idle.push({ callback, timeout: options?.timeout });
  });
  afterEach(() => {
    delete (window as { requestIdleCallback?: unknown }).requestIdleCallback;
  });
  const loads = () => received.filter((r) => r.call === 'GET /v2/auth/process');

  it('a first visit, once the browser is idle, loads its process once through the URL a returning visit resumes with', async () => {
    platform = { uvpa: false, conditional: true };
    loadInOneTask();
    await until(() => idle.length > 0, 'the idle callback');
    expect(idle).toHaveLength(1);
    expect(idle[0]!.timeout).toBe(WARM_UP_DEADLINE_MS);
    // nothing before the browser is idle
    expect(issued.filter((r) => r.call === 'GET /v2/auth/process')).toEqual([]);
    const token = localStorage.getItem(storageKeys.authProcess('pro-1'));
    idle[0]!.callback();
    await until(() => loads().length > 0, 'the process loaded again');
    // with the process the page holds: the same URL and headers the next visit's resume will send
    expect(loads()).toEqual([{ call: 'GET /v2/auth/process', body: undefined, processId: (JSON.parse(token!) as { id: string }).id }]);
    // and once: a replacement (the capability guess contradicted) or a later answer asks no more
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(idle).toHaveLength(1);
  });

  it('a visit that resumed its stored process has used the URL already: nothing more is asked', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    localStorage.setItem(storageKeys.authProcess('pro-1'), JSON.stringify({ id: 'proc-stored', expiresAt, frontendApiUrl: '' }));
    loadInOneTask();
    await until(() => loads().length > 0, 'the resume');
    // the untouched stored process is replaced in the background by a new one (SPEC section 4)
    await until(() => received.some((r) => r.call === 'POST /v2/auth/process/init'), 'the replacement');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(idle).toEqual([]);
    expect(loads()).toHaveLength(1);
  });

  it('a widget loaded again before the browser was idle: the first one asks nothing', async () => {
    loadInOneTask();
    await until(() => idle.length > 0, 'the idle callback');
    // the host calls load() again (another project here, so the new widget starts its own process)
    void Corbado.load({ projectId: 'pro-2', frontendApiUrl: base, darkMode: 'off' });
    await until(() => idle.length > 1, "the new widget's idle callback");
    idle[0]!.callback();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(loads()).toEqual([]);
    // the new widget's own one still does
    idle[1]!.callback();
    await until(() => loads().length > 0, "the new widget's process loaded again");
  });

  describe('a reload, with the address naming a block', () => {
    afterEach(() => history.replaceState(null, '', location.pathname));
    const stored = (block?: string) =>
      localStorage.setItem(
        storageKeys.authProcess('pro-1'),
        JSON.stringify({ id: 'proc-stored', expiresAt: Math.floor(Date.now() / 1000) + 3600, frontendApiUrl: '', ...(block ? { block } : {}) }),
      );

    /** A page load with a stored process (the block the server last answered, if noted) and the address's hash: the resume request. */
    async function resume(hash: string, server?: string) {
      stored(server);
      history.replaceState(null, '', `${location.pathname}${hash}`);
      received = [];
      loadInOneTask();
      await until(() => loads().length > 0, 'the resume');
      return loads()[0];
    }
    const plain = { call: 'GET /v2/auth/process', body: undefined, processId: 'proc-stored' };

    it('sign-up or log-in: resumed through the plain URL, whose preflight the first visit left answered, and switched to locally', async () => {
      expect(await resume('#login-init', 'login-init')).toEqual(plain);
      expect(await resume('#signup-init', 'login-init')).toEqual(plain);
      expect(await resume('#register', 'login-init')).toEqual(plain);
      expect(await resume('#login', 'signup-init')).toEqual(plain);
    });

    it('another block the server is on already: resumed through the plain URL', async () => {
      expect(await resume('#email-verify', 'email-verify')).toEqual(plain);
    });

    it('[spec 7.process-get] another block the server is not on (or not known to be on): asked for, as SPEC section 4 says', async () => {
      expect(await resume('#email-verify', 'login-init')).toEqual({ ...plain, query: '?preferredBlock=email-verify' });
      // stored without its block, by an earlier version or web-js
      expect(await resume('#email-verify')).toEqual({ ...plain, query: '?preferredBlock=email-verify' });
    });

    it("each answer notes the server's block with the stored process", async () => {
      platform = { uvpa: false, conditional: true };
      loadInOneTask();
      await until(() => received.some((r) => r.call === 'POST /v2/auth/process/init'), 'process/init');
      await until(() => localStorage.getItem(storageKeys.authProcess('pro-1'))?.includes('"block"') === true, 'the block stored');
      expect(JSON.parse(localStorage.getItem(storageKeys.authProcess('pro-1'))!)).toMatchObject({ block: 'login-init' });
    });
  });
});
