// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://localhost:5199/" }
// The real core (API client, flow, session) against the real local Frontend API over HTTP.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningApi } from '../app.ts';
import { ROTATION_GRACE_MS } from '../session/Sessions.ts';
import { latestCode, outbox, startTestServer, type TestServer } from './helpers/testServer.ts';
import { CorbadoApp } from '../../src/core/app';
import { readStoredProcess, storageKeys, writeStoredProcess } from '../../src/core/storage';

let server: TestServer;
let api: RunningApi;
const apps: CorbadoApp[] = [];

beforeAll(async () => {
  // happy-dom's import.meta.url is not a file URL: name the projects file by path
  server = await startTestServer({ api: { demoOrigin: 'http://localhost:5199', seedFile: join(process.cwd(), 'server/projects.json') } });
  api = server.api;
});
afterAll(async () => {
  apps.forEach((app) => app.dispose());
  await server.stop();
});
beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

/** A widget as a page load creates it: load() starts the session and the process. */
async function pageLoad(projectId = 'pro-1'): Promise<CorbadoApp> {
  const app = new CorbadoApp({ projectId, frontendApiUrl: api.url, autoDetectLanguage: false }, window);
  apps.push(app);
  app.start();
  await app.flow.start();
  return app;
}

describe('start-up against the real server', () => {
  it('a fresh visitor gets a new process, stored with its expiry, on log-in', async () => {
    const app = await pageLoad();
    expect(app.flow.$initState.get()).toBe(2);
    expect(app.flow.$block.get()?.type).toBe('login-init');
    expect(app.flow.$appName.get()).not.toBe('');
    const stored = readStoredProcess('pro-1')!;
    expect(stored.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(stored.frontendApiUrl).toBe(api.url);
  });

  it('the hash picks the preferred block', async () => {
    window.history.replaceState(null, '', '/#register');
    const app = await pageLoad();
    expect(app.flow.$block.get()?.type).toBe('signup-init');
  });

  it('a stored process in the middle of a flow is resumed after a reload', async () => {
    const first = await pageLoad();
    first.flow.switchToAlternative('signup-init');
    await first.flow.submitSignup({ fullName: 'Ada', email: `resume-${Date.now()}@example.com` });
    expect(first.flow.$block.get()?.type).toBe('email-verify');
    const id = readStoredProcess('pro-1')!.id;
    window.history.replaceState(null, '', '/#email-verify');
    const second = await pageLoad();
    expect(second.flow.$block.get()?.type).toBe('email-verify');
    expect(second.flow.$screen.get()).toBe('email-otp-verification');
    expect(readStoredProcess('pro-1')!.id).toBe(id);
  });

  it('[spec 3.auth-process-valid] a stored process past its expiresAt is not used, though the server still knows it', async () => {
    // a process in the middle of a sign-up, which a reload would resume (as the test above shows)
    const first = await pageLoad();
    first.flow.switchToAlternative('signup-init');
    await first.flow.submitSignup({ fullName: 'Ada', email: `expired-${Date.now()}@example.com` });
    const stored = readStoredProcess('pro-1')!;
    expect(first.flow.$block.get()?.type).toBe('email-verify');
    // only the stored expiry says it is over: the server would still answer for it
    writeStoredProcess('pro-1', { ...stored, expiresAt: Math.floor(Date.now() / 1000) - 1 });
    window.history.replaceState(null, '', '/#email-verify');
    const second = await pageLoad();
    expect(second.flow.$block.get()?.type).toBe('login-init');
    expect(readStoredProcess('pro-1')!.id).not.toBe(stored.id);
  });

  it('a stored process the server does not know is replaced by a new one', async () => {
    writeStoredProcess('pro-1', { id: 'unknown-token', expiresAt: Math.floor(Date.now() / 1000) + 600, frontendApiUrl: api.url });
    const app = await pageLoad();
    expect(app.flow.$initState.get()).toBe(2);
    expect(readStoredProcess('pro-1')!.id).not.toBe('unknown-token');
  });

  it('an initial stored process is shown at once and replaced in the background', async () => {
    await pageLoad();
    const first = readStoredProcess('pro-1')!.id;
    const app = await pageLoad();
    expect(app.flow.$block.get()?.type).toBe('login-init');
    await expect.poll(() => readStoredProcess('pro-1')!.id).not.toBe(first);
  });

  it('[spec 4.init-state] an unknown project fails the start-up: init state 1', async () => {
    const app = await pageLoad('pro-424242');
    expect(app.flow.$initState.get()).toBe(1);
  });
});

describe('actions against the real server', () => {
  it('[spec 4.process-update] [spec 7.screen-operations] signs up with an e-mail code: completion clears the process and stores both session tokens', async () => {
    const app = await pageLoad();
    const completions: string[] = [];
    app.flow.onComplete(({ authType }) => completions.push(authType));
    app.flow.switchToAlternative('signup-init');
    const email = `flow-${Date.now()}@example.com`;
    await app.flow.submitSignup({ fullName: 'Ada Lovelace', email });
    await app.flow.submitCode('000000');
    expect(app.flow.$block.get()?.data.error).toMatchObject({ code: 'invalid_challenge_solution_email-otp' });
    await app.flow.submitCode(await latestCode(api.url, email));
    expect(app.flow.$block.get()?.type).toBe('completed');
    expect(completions).toEqual(['signup']);
    expect(readStoredProcess('pro-1')).toBeUndefined();
    expect(localStorage.getItem('cbo_long_session')).toBeTruthy();
    expect(app.session.$user.get()).toMatchObject({ email, name: 'Ada Lovelace' });
    expect(app.session.$authState.get()).toBe(1);
  });

  it('[spec 4.email-edit] [spec 7.screen-operations] an unchanged identifier returns to the code screen without a call; a changed one sends a new code', async () => {
    const app = await pageLoad();
    app.flow.switchToAlternative('signup-init');
    const email = `edit-${Date.now()}@example.com`;
    await app.flow.submitSignup({ fullName: 'Ada', email });
    app.flow.setScreen('edit-email');
    const calls = vi.spyOn(globalThis, 'fetch');
    try {
      expect(await app.flow.updateIdentifier('email', email)).toBeUndefined();
      expect(calls).not.toHaveBeenCalled();
    } finally {
      calls.mockRestore();
    }
    expect(app.flow.$screen.get()).toBe('email-otp-verification');
    expect(await outbox(api.url, email)).toHaveLength(1);
    const changed = `edited-${Date.now()}@example.com`;
    app.flow.setScreen('edit-email');
    expect(await app.flow.updateIdentifier('email', changed)).toBeUndefined();
    expect(app.flow.$block.get()?.data.identifier).toBe(changed);
    expect(await latestCode(api.url, changed)).toMatch(/^\d{6}$/);
  });

  it('[spec 4.abort-reset] [spec 7.screen-operations] abort resets the process: a new one is stored and the entered data is gone', async () => {
    const app = await pageLoad();
    app.flow.switchToAlternative('signup-init');
    await app.flow.submitSignup({ fullName: 'Ada', email: `abort-${Date.now()}@example.com` });
    const before = readStoredProcess('pro-1')!.id;
    await app.flow.abort('signup-init');
    expect(readStoredProcess('pro-1')!.id).not.toBe(before);
    expect(app.flow.$block.get()?.type).toBe('signup-init');
  });

  it('[spec 4.error-reinit] a lost process is re-initialised and the error is shown on the new block', async () => {
    const app = await pageLoad();
    app.api.processId = 'gone';
    await app.flow.submitLogin('someone@example.com', false);
    expect(app.flow.$block.get()?.failure?.kind).toBe('processNotFound'); // on the new block (SPEC §4)
    expect(app.flow.$error.get()).toBeUndefined();
    expect(app.flow.$block.get()?.type).toBe('login-init');
    expect(readStoredProcess('pro-1')!.id).not.toBe('gone');
  });
});

describe('account actions against the real server', () => {
  it('adds, verifies, makes primary and removes an address, renames, and deletes the account; the session follows', async () => {
    const app = await pageLoad();
    app.flow.switchToAlternative('signup-init');
    const email = `core-acct-${Date.now()}@example.com`;
    await app.flow.submitSignup({ fullName: 'Ada Lovelace', email });
    await app.flow.submitCode(await latestCode(api.url, email));
    const { account, session } = app;
    await account.loadMe();
    await account.loadConfig();
    expect(account.$config.get()?.identifiers).toEqual([{ type: 'email', loginIdentifier: true, maxPerUser: 2 }]);

    const second = `core-acct-2-${Date.now()}@example.com`;
    await account.addIdentifier('email', second);
    const me = () => (account.$me.get() as { state: 'ready'; value: { fullName: string; identifiers: { id: string; value: string; status: string; primary?: boolean }[] } }).value;
    const added = me().identifiers.find((i) => i.value === second)!;
    expect(added).toMatchObject({ status: 'pending', primary: false });
    await account.sendCode({ ...added, type: 'email' });
    await expect(account.verifyIdentifier({ ...added, type: 'email' }, '000000')).rejects.toMatchObject({ type: 'invalid_challenge_solution_email-otp' });
    await account.verifyIdentifier({ ...added, type: 'email' }, await latestCode(api.url, second));
    expect(me().identifiers.find((i) => i.value === second)!.status).toBe('verified');

    await account.updateIdentifier({ ...added, type: 'email' }, second, true);
    expect(session.$user.get()?.email).toBe(second);
    await account.updateName('Ada King');
    expect(session.$user.get()?.name).toBe('Ada King');
    expect(me().fullName).toBe('Ada King');
    const old = me().identifiers.find((i) => i.value === email)!;
    await account.removeIdentifier({ ...old, type: 'email' });
    expect(me().identifiers.map((i) => i.value)).toEqual([second]);
    await expect(account.removeIdentifier({ ...me().identifiers[0]!, type: 'email' })).rejects.toMatchObject({ type: 'last_login_identifier' });

    // the long session the core keeps works until the account is gone, then is refused
    const longSession = localStorage.getItem(storageKeys.longSession)!;
    const meWith = (token: string) => fetch(`${api.url}/v2/me`, { headers: { 'X-Corbado-ProjectID': 'pro-1', Authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect(longSession).toBeTruthy();
    expect(await meWith(longSession)).toBe(200);
    await account.deleteAccount();
    expect(session.$authState.get()).toBe(0);
    expect(localStorage.getItem(storageKeys.longSession)).toBeNull();
    expect(await meWith(longSession)).toBe(401);
  });
});

describe('the long session rotates (the core of two tabs against the real server)', () => {
  it('two tabs that refresh at once stay on one chain; a retired value replayed ends it, and the tabs are signed out', async () => {
    const first = await pageLoad();
    first.flow.switchToAlternative('signup-init');
    const email = `core-rotate-${Date.now()}@example.com`;
    await first.flow.submitSignup({ fullName: 'Ada Lovelace', email });
    await first.flow.submitCode(await latestCode(api.url, email));
    const second = await pageLoad(); // another tab of the same browser: the same storage
    expect(second.session.$authState.get()).toBe(1);
    const stolen = localStorage.getItem(storageKeys.longSession)!;

    await Promise.all([first.session.refresh(), second.session.refresh()]);
    const rotated = localStorage.getItem(storageKeys.longSession)!;
    expect(rotated).not.toBe(stolen);
    expect([first, second].map((app) => app.session.$authState.get())).toEqual([1, 1]);
    // long after the grace, the tabs' value rotates on as usual
    server.clock.advance(ROTATION_GRACE_MS + 1_000);
    await second.session.refresh();
    expect(second.session.$authState.get()).toBe(1);
    expect(localStorage.getItem(storageKeys.longSession)).not.toBe(rotated);

    // a copy taken before the first refresh, presented by someone else: the chain ends
    const replay = await fetch(`${api.url}/v2/me/refresh`, { method: 'POST', headers: { 'X-Corbado-ProjectID': 'pro-1', Authorization: `Bearer ${stolen}` } });
    expect(replay.status).toBe(401);
    // the tab that refreshed last is refused; the other one (which a browser would tell through the storage event) too
    await second.session.refresh();
    await first.session.refresh();
    expect([first, second].map((app) => app.session.$authState.get())).toEqual([0, 0]);
    expect(localStorage.getItem(storageKeys.longSession)).toBeNull();
    // the tab that showed the completed sign-up starts over
    await vi.waitFor(() => expect(first.flow.$block.get()?.type).toBe('login-init'));
  });
});
