// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://localhost:5199/" }
// SPEC §3, what the widget keeps in local storage: the real core against the real local Frontend API,
// and the storage as a page would find it afterwards.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CorbadoApp } from '../../src/core/app';
import { storageKeys, writeStoredProcess } from '../../src/core/storage';
import { Client, latestCode, startTestServer, uniqueEmail, type TestServer } from './helpers/testServer.ts';

let server: TestServer;
const apps: CorbadoApp[] = [];
beforeAll(async () => {
  server = await startTestServer({ api: { demoOrigin: 'http://localhost:5199', seedFile: join(process.cwd(), 'server/projects.json') } });
});
afterAll(async () => {
  apps.forEach((app) => app.dispose());
  await server.stop();
});
// before each test too: the server project's files share a worker's module graph and, with it, the
// happy-dom window of the widget tests before this file (coreClient.test.ts leaves its last handle)
beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

async function pageLoad(): Promise<CorbadoApp> {
  const app = new CorbadoApp({ projectId: 'pro-1', frontendApiUrl: server.url, autoDetectLanguage: false }, window);
  apps.push(app);
  app.start();
  await app.flow.start();
  return app;
}

/** process/init bodies the widget sends while `run` runs. */
async function initBodies(run: () => Promise<unknown>): Promise<{ clientInformation: { clientEnvHandle?: string } }[]> {
  const bodies: { clientInformation: { clientEnvHandle?: string } }[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname === '/v2/auth/process/init') bodies.push(JSON.parse(await request.clone().text()));
    return realFetch(request);
  };
  try {
    await run();
  } finally {
    globalThis.fetch = realFetch;
  }
  return bodies;
}

describe('local storage', () => {
  it('[spec 3.client-handle] keeps the opaque client handle the server issues and names it on the next visit', async () => {
    const first = await initBodies(pageLoad);
    expect(first[0]!.clientInformation.clientEnvHandle).toBeUndefined();
    const handle = localStorage.getItem(storageKeys.clientHandle);
    expect(handle).toMatch(/^ceh-/);

    localStorage.removeItem(storageKeys.authProcess('pro-1'));
    const next = await initBodies(pageLoad);
    expect(next[0]!.clientInformation.clientEnvHandle).toBe(handle);
    // named, it is not replaced
    expect(localStorage.getItem(storageKeys.clientHandle)).toBe(handle);
  });

  it('[spec 3.client-handle] [spec 3.passkey-append-start-response] keeps the client handle the passkey list\'s append start issues when storage had lost it', async () => {
    const app = await pageLoad();
    app.flow.switchToAlternative('signup-init');
    const email = uniqueEmail('handle');
    await app.flow.submitSignup({ fullName: 'Hal Handle', email });
    await app.flow.submitCode(await latestCode(server.url, email));
    expect(app.session.$authState.get()).toBe(1);
    localStorage.removeItem(storageKeys.clientHandle);
    const win = window as unknown as { PublicKeyCredential?: unknown };
    win.PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
      isUserVerifyingPlatformAuthenticatorAvailable: () => Promise.resolve(true),
      isConditionalMediationAvailable: () => Promise.resolve(true),
    });
    try {
      // the ceremony itself fails here (happy-dom has no navigator.credentials): the answer to start is what counts
      await app.account.createPasskey().catch(() => undefined);
    } finally {
      delete win.PublicKeyCredential;
    }
    expect(localStorage.getItem(storageKeys.clientHandle)).toMatch(/^ceh-/);
  });

  it('[spec 3.auth-process-stored] [spec 3.short-session-stored] [spec 3.long-session-stored] [spec 3.storage-keys] keeps the process while it runs, then the short and the long session, under the keys of SPEC §3', async () => {
    const app = await pageLoad();
    const processKey = storageKeys.authProcess('pro-1');
    const stored = JSON.parse(localStorage.getItem(processKey)!) as { id: string; expiresAt: number; frontendApiUrl: string; block?: string };
    // SPEC's three, and the block the server last answered (a resume asks for no other one needlessly:
    // src/core/process/startUp.ts); a record without it, as web-js writes it, is read as well
    expect(Object.keys(stored).sort()).toEqual(['block', 'expiresAt', 'frontendApiUrl', 'id']);
    expect(stored.block).toBe('login-init');
    expect(stored.id).toBe(app.api.processId);
    expect(stored.frontendApiUrl).toBe(server.url);
    // seconds since epoch, in the future
    expect(Number.isInteger(stored.expiresAt)).toBe(true);
    expect(stored.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(stored.expiresAt).toBeLessThan(Date.now() / 1000 + 7 * 86_400);

    app.flow.switchToAlternative('signup-init');
    const email = uniqueEmail('stored');
    await app.flow.submitSignup({ fullName: 'Ada Stored', email });
    await app.flow.submitCode(await latestCode(server.url, email));
    expect(app.flow.$block.get()?.type).toBe('completed');
    expect(localStorage.getItem(processKey)).toBeNull();
    const shortSession = localStorage.getItem(storageKeys.shortSession)!;
    expect(shortSession.split('.')).toHaveLength(3);
    expect(app.session.$shortSession.get()).toBe(shortSession);
    expect(localStorage.getItem(storageKeys.longSession)).toMatch(/.{20,}/);
    const keys = Object.keys(localStorage).filter((key) => key !== storageKeys.clientCapabilities).sort();
    // and the account logged in, for the welcome-back screen of the next visit (process/lastUser.ts), and
    // where the long session is kept (session/session.ts: sessionPersistence)
    expect(keys).toEqual(['cbo_client_handle', 'cbo_last_user-pro-1', 'cbo_long_session', 'cbo_session_persistence', 'cbo_short_session']);
    expect(localStorage.getItem(storageKeys.sessionPersistence)).toBe('storage');
    expect(storageKeys).toMatchObject({
      clientHandle: 'cbo_client_handle',
      passkeyAppendShown: 'cbo_passkey_append_shown',
      shortSession: 'cbo_short_session',
      longSession: 'cbo_long_session',
      socialLogin: 'socialLogin',
    });
    expect(processKey).toBe('cbo_auth_process-pro-1');
  });

  it('[spec 7.process-base-url] [spec 3.auth-process-stored] a stored process is loaded from its own frontendApiUrl, not from the address load() was given', async () => {
    const other = new Client(server.url, 'pro-1', 'http://localhost:5199');
    const init = await other.init({}, 'signup-init');
    await other.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail('elsewhere') }], fullName: 'Else Where' });
    writeStoredProcess('pro-1', { id: init.body.token, expiresAt: init.body.expiresAt, frontendApiUrl: server.url });
    // the address given to load() answers nothing the widget could use (every path there is a 404)
    const app = new CorbadoApp({ projectId: 'pro-1', frontendApiUrl: `${server.url}/elsewhere`, autoDetectLanguage: false }, window);
    apps.push(app);
    app.start();
    await app.flow.start();
    expect(app.flow.$initState.get()).toBe(2);
    expect(app.api.processId).toBe(init.body.token);
    expect(app.flow.$block.get()?.type).toBe('email-verify');
  });

  it('[spec 3.social-login-key] keeps the chosen provider under socialLogin while the provider\'s page loads', async () => {
    const app = await pageLoad();
    const assigned: string[] = [];
    const location = window.location;
    const assign = location.assign.bind(location);
    location.assign = (url: string | URL) => void assigned.push(String(url));
    try {
      await app.flow.startSocial('github');
    } finally {
      location.assign = assign;
    }
    expect(assigned).toEqual([expect.stringContaining('/github/')]);
    expect(localStorage.getItem(storageKeys.socialLogin)).toBe('github');
  });
});

describe('the session context', () => {
  it('[spec 3.session-context] the loaded app, shortSession, loading, isAuthenticated, user and a global error, as they change', async () => {
    // a start-up the API refuses (no such project): the error no block carries is the global one
    const unreachable = new CorbadoApp({ projectId: 'pro-424242', frontendApiUrl: server.url, autoDetectLanguage: false }, window);
    apps.push(unreachable);
    unreachable.start();
    await unreachable.flow.start();
    expect(unreachable.flow.$initState.get()).toBe(1);
    expect(unreachable.flow.$error.get()).toMatchObject({ name: 'CorbadoError' });
    expect(unreachable.session.$authState.get()).toBe(0);

    const app = await pageLoad();
    expect(app.flow.$error.get()).toBeUndefined();
    expect(app.session.$restoring.get()).toBe(false);
    expect(app.session.$user.get()).toBeUndefined();
    app.flow.switchToAlternative('signup-init');
    const email = uniqueEmail('context');
    await app.flow.submitSignup({ fullName: 'Cory Context', email });
    await app.flow.submitCode(await latestCode(server.url, email));
    expect(app.session.$authState.get()).toBe(1);
    expect(app.session.$shortSession.get()).toBe(localStorage.getItem(storageKeys.shortSession));
    expect(app.session.$user.get()).toMatchObject({ email, name: 'Cory Context', orig: email, sub: expect.stringMatching(/^usr-/) });
  });
});
