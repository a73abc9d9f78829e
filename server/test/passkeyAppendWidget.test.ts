// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://localhost:5199/" }
// The widget's flow when it offers a passkey (passkey-append), with what it tells the server: the client
// information of passkey/append/start, and the passkey-append-shown marker. The real core against the
// real local Frontend API; the browser's WebAuthn capability answers and Web Bluetooth are stubbed, the
// ceremony itself is not reached (happy-dom has no navigator.credentials).
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { CorbadoApp } from '../../src/core/app';
import type { ClientInformation } from '../../src/core/api/types';
import { readStoredProcess, storageKeys } from '../../src/core/storage';
import { Client, latestCode, startTestServer, uniqueEmail, type TestServer } from './helpers/testServer.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ api: { demoOrigin: 'http://localhost:5199', seedFile: join(process.cwd(), 'server/projects.json') } });
});
afterAll(() => server.stop());

const win = window as unknown as { PublicKeyCredential?: unknown };
/** A browser with a platform authenticator and passkey autofill. */
function passkeyBrowser(): void {
  win.PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
    isUserVerifyingPlatformAuthenticatorAvailable: () => Promise.resolve(true),
    isConditionalMediationAvailable: () => Promise.resolve(true),
  });
}
afterEach(() => {
  delete win.PublicKeyCredential;
  localStorage.clear();
});

/** A page load of the widget on pro-1. */
async function pageLoad(): Promise<CorbadoApp> {
  const app = new CorbadoApp({ projectId: 'pro-1', frontendApiUrl: server.url, autoDetectLanguage: false }, window);
  app.start();
  await app.flow.start();
  return app;
}

it('[spec 7.drop-append-shown-on-login] [spec 3.passkey-append-shown-marker] a log-in that offers a passkey notes when (seconds), the next process/init carries it, and the completed log-in drops it', async () => {
  // a user who signed up on a device without passkeys
  const email = uniqueEmail('shown');
  const signup = new Client(server.url, 'pro-1', 'http://localhost:5199');
  await signup.init({}, 'signup-init');
  await signup.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Sam Shown' });
  const done = await signup.step('/v2/auth/identifier/verify/finish', {
    code: await latestCode(server.url, email),
    identifierType: 'email',
    verificationType: 'email-otp',
    isNewDevice: false,
  });
  expect(done.block).toBe('completed');

  passkeyBrowser();
  const app = await pageLoad();
  await app.flow.submitLogin(email, false);
  await app.flow.submitCode(await latestCode(server.url, email));
  expect(app.flow.$block.get()).toMatchObject({ type: 'passkey-append', authType: 'login' });
  const shown = Number(localStorage.getItem(storageKeys.passkeyAppendShown));
  expect(Math.abs(shown - Date.now() / 1000)).toBeLessThan(60);
  expect(Number.isInteger(shown)).toBe(true);

  // another tab starts a process meanwhile: process/init tells the server when the offer was shown
  const inits: unknown[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname === '/v2/auth/process/init') inits.push(JSON.parse(await request.clone().text()));
    return realFetch(request);
  };
  const stored = readStoredProcess('pro-1');
  localStorage.removeItem(storageKeys.authProcess('pro-1'));
  const other = await pageLoad();
  globalThis.fetch = realFetch;
  other.dispose();
  expect(inits).toEqual([expect.objectContaining({ passkeyAppendShown: shown })]);

  // "Maybe later": the log-in completes and the marker goes
  localStorage.setItem(storageKeys.authProcess('pro-1'), JSON.stringify(stored));
  await app.flow.skipPasskey();
  expect(app.flow.$block.get()).toMatchObject({ type: 'completed', authType: 'login' });
  expect(localStorage.getItem(storageKeys.passkeyAppendShown)).toBeNull();
  app.dispose();
});

it('[spec 7.passkey-append-start] the passkey offer after sign-up sends the browser\'s client information to passkey/append/start', async () => {
  passkeyBrowser();
  Object.defineProperty(navigator, 'bluetooth', { configurable: true, value: { getAvailability: () => Promise.resolve(false) } });
  localStorage.setItem(storageKeys.clientHandle, 'ceh-known-device');
  const bodies: { path: string; body: unknown }[] = [];
  const realFetch = globalThis.fetch;
  const inFlight: Promise<unknown>[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const text = await request.clone().text();
    bodies.push({ path: new URL(request.url).pathname, body: text ? JSON.parse(text) : undefined });
    const answer = realFetch(request);
    inFlight.push(answer.catch(() => undefined));
    return answer;
  };
  const app = new CorbadoApp({ projectId: 'pro-1', frontendApiUrl: server.url, autoDetectLanguage: false }, window);
  try {
    app.start();
    await app.flow.start();
    app.flow.switchToAlternative('signup-init');
    const email = uniqueEmail('append-info');
    await app.flow.submitSignup({ fullName: 'Ada', email });
    await app.flow.submitCode(await latestCode(server.url, email));
    expect(app.flow.$block.get()?.type).toBe('passkey-append');

    await app.flow.appendPasskey();
    const start = bodies.find((b) => b.path === '/v2/auth/passkey/append/start');
    const { clientInformation } = start!.body as { clientInformation: ClientInformation };
    expect(clientInformation).toEqual({
      bluetoothAvailable: false,
      clientEnvHandle: 'ceh-known-device',
      canUsePasskeys: true,
      isUserVerifyingPlatformAuthenticatorAvailable: true,
      isConditionalMediationAvailable: true,
    });
    // the failed ceremony (no navigator.credentials here) is reported to the server in the background
    await expect.poll(() => bodies.some((b) => b.path === '/v2/auth/events')).toBe(true);
  } finally {
    await Promise.all(inFlight);
    app.dispose();
    globalThis.fetch = realFetch;
    delete (navigator as { bluetooth?: unknown }).bluetooth;
  }
});
