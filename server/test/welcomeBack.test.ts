// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://localhost:5199/" }
// Welcome back (issue 27): the real core against the real local Frontend API. What a completed log-in
// leaves in this browser's storage, the welcome-back screen on the next visit and its one action, the
// graceful fall-back for an account that is gone, forgetting, `rememberLastUser: false`, and the errors
// and completions a host hears of.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CorbadoApp, type CorbadoOptions } from '../../src/core/app';
import type { Completion, ShownError } from '../../src/core/process/flow';
import { storageKeys } from '../../src/core/storage';
import { userWithPasskey } from './helpers/passkeyUser.ts';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { latestCode, outbox, startTestServer, uniqueEmail, type TestServer } from './helpers/testServer.ts';

let server: TestServer;
const apps: CorbadoApp[] = [];
const KEY = storageKeys.lastUser('pro-1');
beforeAll(async () => {
  server = await startTestServer({ api: { demoOrigin: 'http://localhost:5199', seedFile: join(process.cwd(), 'server/projects.json') } });
});
afterAll(async () => {
  apps.forEach((app) => app.dispose());
  await server.stop();
});
afterEach(() => {
  localStorage.clear();
  delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
});

/** A page load: the widget loaded and its process started, as an auth view starts it. */
async function visit(options: Partial<CorbadoOptions> = {}): Promise<CorbadoApp> {
  const app = new CorbadoApp({ projectId: 'pro-1', frontendApiUrl: server.url, autoDetectLanguage: false, ...options }, window);
  apps.push(app);
  app.start();
  await app.flow.start();
  return app;
}

/** Closing the browser: the session is gone (logged out), what local storage keeps stays. */
async function closeBrowser(app: CorbadoApp): Promise<void> {
  await app.logout();
  app.dispose();
}

async function signUpByCode(app: CorbadoApp, email: string): Promise<void> {
  app.flow.switchToAlternative('signup-init');
  await app.flow.submitSignup({ fullName: 'Ada Back', email });
  await app.flow.submitCode(await latestCode(server.url, email));
  expect(app.session.$authState.get()).toBe(1);
}

const stored = () => JSON.parse(localStorage.getItem(KEY) ?? 'null') as unknown;

describe('welcome back', () => {
  it('keeps the identifier, its type and the way used, and nothing else; the next visit offers that account and logs it in with one action', async () => {
    const first = await visit();
    const email = uniqueEmail('back');
    await signUpByCode(first, email);
    expect(stored()).toEqual({ value: email, type: 'email', method: 'email-otp' });
    // no token, no process, no user id: only what the screen shows and does
    expect(localStorage.getItem(KEY)).not.toContain(first.session.$user.get()!.sub);
    await closeBrowser(first);
    expect(stored()).toEqual({ value: email, type: 'email', method: 'email-otp' });

    const next = await visit();
    expect(next.flow.$block.get()?.type).toBe('login-init');
    expect(next.flow.$screen.get()).toBe('welcome-back');
    expect(next.flow.$lastUser.get()).toEqual({ value: email, type: 'email', method: 'email-otp' });
    const completions: Completion[] = [];
    next.flow.onComplete((completion) => completions.push(completion));
    const codesBefore = (await outbox(server.url, email)).length;
    // the one action: the code goes to that address and the code screen shows
    await next.flow.continueAsLastUser();
    expect(next.flow.$screen.get()).toBe('email-otp-verification');
    expect(next.flow.$block.get()?.data.identifier).toBe(email);
    expect(await outbox(server.url, email)).toHaveLength(codesBefore + 1);
    await next.flow.submitCode(await latestCode(server.url, email));
    expect(next.session.$authState.get()).toBe(1);
    expect(completions).toEqual([{ authType: 'login', method: 'email-otp' }]);
  });

  it('the way used last decides: a passkey account remembered with its passkey goes to the passkey log-in, remembered with a code gets the code', async () => {
    const { email } = await userWithPasskey(server.url, new SoftAuthenticator('http://localhost:5199'));
    (window as { PublicKeyCredential?: unknown }).PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
      isUserVerifyingPlatformAuthenticatorAvailable: () => Promise.resolve(true),
      isConditionalMediationAvailable: () => Promise.resolve(true),
    });

    localStorage.setItem(KEY, JSON.stringify({ value: email, type: 'email', method: 'passkey' }));
    const byPasskey = await visit();
    expect(byPasskey.flow.$screen.get()).toBe('welcome-back');
    const codesBefore = (await outbox(server.url, email)).length;
    await byPasskey.flow.continueAsLastUser();
    // passkey-background starts the ceremony by itself (src/ui/blocks/passkey-verify)
    expect(byPasskey.flow.$block.get()?.type).toBe('passkey-verify');
    expect(byPasskey.flow.$screen.get()).toBe('passkey-background');
    expect(await outbox(server.url, email)).toHaveLength(codesBefore);
    byPasskey.dispose();
    // the browser closed on the passkey prompt would come back to it: this visit starts afresh
    localStorage.removeItem(storageKeys.authProcess('pro-1'));

    localStorage.setItem(KEY, JSON.stringify({ value: email, type: 'email', method: 'email-otp' }));
    const byCode = await visit();
    expect(byCode.flow.$screen.get()).toBe('welcome-back');
    await byCode.flow.continueAsLastUser();
    expect(byCode.flow.$block.get()?.type).toBe('email-verify');
    expect(byCode.flow.$screen.get()).toBe('email-otp-verification');
    expect(await outbox(server.url, email)).toHaveLength(codesBefore + 1);
  });

  it('an account that is gone: the plain log-in with the identifier filled in and the server\'s error, and the account is forgotten', async () => {
    const gone = uniqueEmail('gone');
    localStorage.setItem(KEY, JSON.stringify({ value: gone, type: 'email', method: 'passkey' }));
    const app = await visit();
    const errors: ShownError[] = [];
    app.flow.onError((error) => errors.push(error));
    expect(app.flow.$screen.get()).toBe('welcome-back');
    await app.flow.continueAsLastUser();
    expect(app.flow.$screen.get()).toBe('login-init');
    expect(app.flow.$block.get()?.data).toMatchObject({ identifierValue: gone, fieldError: { code: 'login_identifier_unknown_user' } });
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(app.flow.$lastUser.get()).toBeUndefined();
    expect(errors).toEqual([{ code: 'login_identifier_unknown_user', message: expect.any(String) }]);
  });

  it('a log-out keeps the account: the page\'s auth view starts over on the welcome-back screen', async () => {
    const app = await visit();
    await signUpByCode(app, uniqueEmail('logout'));
    await app.logout();
    expect(app.flow.$block.get()?.type).toBe('login-init');
    expect(app.flow.$screen.get()).toBe('welcome-back');
  });

  it('"Use another account" forgets: nothing kept, the plain log-in now and on the next visit', async () => {
    const first = await visit();
    await signUpByCode(first, uniqueEmail('other'));
    await closeBrowser(first);
    const app = await visit();
    expect(app.flow.$screen.get()).toBe('welcome-back');
    app.flow.forgetLastUser();
    expect(app.flow.$screen.get()).toBe('login-init');
    expect(app.flow.$lastUser.get()).toBeUndefined();
    expect(localStorage.getItem(KEY)).toBeNull();
    app.dispose();
    expect((await visit()).flow.$screen.get()).toBe('login-init');
  });

  it('deleting the account forgets it', async () => {
    const app = await visit();
    await signUpByCode(app, uniqueEmail('deleted'));
    expect(localStorage.getItem(KEY)).not.toBeNull();
    await app.deleteAccount();
    expect(app.session.$authState.get()).toBe(0);
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(app.flow.$screen.get()).toBe('login-init');
  });

  it('rememberLastUser: false keeps nothing, and removes what an earlier page kept', async () => {
    const email = uniqueEmail('never');
    await signUpByCode(await visit({ rememberLastUser: false }), email);
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(Object.keys(localStorage).filter((key) => key.startsWith('cbo_last_user'))).toEqual([]);

    localStorage.setItem(KEY, JSON.stringify({ value: email, type: 'email', method: 'email-otp' }));
    const app = await visit({ rememberLastUser: false });
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(app.flow.$screen.get()).toBe('login-init');
  });

  it('remembers per project: another project of the same site starts plain', async () => {
    localStorage.setItem(KEY, JSON.stringify({ value: uniqueEmail('p1'), type: 'email', method: 'email-otp' }));
    const other = await visit({ projectId: 'pro-2' });
    expect(other.flow.$screen.get()).toBe('login-init');
  });
});

describe('what the host hears', () => {
  it('each error the flow shows, once, with its code; a sign-up completion says signup and how', async () => {
    const app = await visit();
    const errors: ShownError[] = [];
    const completions: Completion[] = [];
    const stop = app.flow.onError((error) => errors.push(error));
    app.flow.onComplete((completion) => completions.push(completion));
    app.flow.switchToAlternative('signup-init');
    const email = uniqueEmail('heard');
    await app.flow.submitSignup({ fullName: 'Hal Heard', email });
    await app.flow.submitCode('000000');
    // shown again (a re-render, a dismissed popup elsewhere) is not a new error
    app.flow.setScreen('email-otp-verification');
    expect(errors).toEqual([{ code: 'invalid_challenge_solution_email-otp', message: expect.any(String) }]);
    await app.flow.submitCode(await latestCode(server.url, email));
    expect(completions).toEqual([{ authType: 'signup', method: 'email-otp' }]);
    stop();
  });
});
