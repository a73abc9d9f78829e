import { test as base, expect, type Page, type Route } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import * as kit from './kit/corbadoKit';
import type { OutboxMessage } from './kit/corbadoKit';

export { expect };
export const uniqueEmail = kit.uniqueEmail;

export const API_URL = process.env.E2E_API_URL ?? 'http://localhost:3102';

/**
 * `npm run admin -- …` on the e2e server's database, while the server runs; its JSON answer. The
 * console's port goes along, so that an operator added here may sign in on the e2e console's origin.
 */
export function admin(...args: string[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', ...args], {
    env: { ...process.env, DATABASE_PATH: process.env.E2E_DATABASE_PATH, CONSOLE_PORT: new URL(process.env.E2E_CONSOLE_URL ?? 'http://localhost:3109').port },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out) as Record<string, unknown>;
}

export type { OutboxMessage };

/**
 * Waits until the page has loaded its process once through GET /v2/auth/process, which a first visit does
 * once the browser is idle after the first screen (src/core/process/preflightWarmUp.ts), so that a test
 * watching the calls a visitor's action makes does not count it. Read from Resource Timing, so it does not
 * matter whether it happened before this call.
 */
export async function afterPreflightWarmUp(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((entry) => new URL(entry.name).pathname === '/v2/auth/process')), {
      timeout: 10_000,
    })
    .toBe(true);
}

/** The messages the dev outbox of an API (the shared one by default) holds for an address, newest first. */
export function messagesTo(to: string, api = API_URL): Promise<OutboxMessage[]> {
  return kit.outboxMessages(to, { apiUrl: api });
}

/** The newest message the dev outbox of an API holds for an address, waiting for it to arrive. */
export function latestMessage(to: string, after?: string, api = API_URL): Promise<OutboxMessage> {
  return kit.latestMessage(to, { after, apiUrl: api });
}

/** Creates a project with the given configuration on the local Frontend API. */
export async function createProject(config: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${API_URL}/_dev/projects`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(config),
  });
  if (!response.ok) throw new Error(`creating a project failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * A CDP virtual authenticator: platform (internal), resident keys, user verification. With transport
 * 'cable' it stands for a phone reached over hybrid (the browser reports it as cross-platform).
 */
export function addAuthenticator(page: Page, options: { automatic?: boolean; transport?: 'internal' | 'cable' } = {}): Promise<kit.PasskeyDevice> {
  return kit.addPasskeyDevice(page, { presence: options.automatic, transport: options.transport });
}

/**
 * The passkey log-in after an identifier starts by itself. With the authenticator's presence turned off
 * (so that the autofill offered on the log-in screen stays unanswered), this turns it on just as that
 * log-in starts, once the log-in screen and its autofill request are gone.
 */
export async function answerPasskeyLogin(page: Page, authenticator: { setPresence(enabled: boolean): Promise<unknown> }) {
  await page.route(
    '**/v2/auth/passkey/login/start',
    async (route) => {
      await authenticator.setPresence(true);
      await route.fallback();
    },
    { times: 1 },
  );
}

/** A desktop browser's User-Agent, for a device signed in over plain HTTP (signInElsewhere). */
export const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

/**
 * Logs the account of `email` in on "another device": a client of the Frontend API over plain HTTP with
 * that device's User-Agent, by e-mail code (after the passkey step, when the account has a passkey).
 * Answers its long session (dev projects).
 */
export async function signInElsewhere(projectId: string, email: string, userAgent = FIREFOX_ON_WINDOWS): Promise<string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Corbado-ProjectID': projectId, 'User-Agent': userAgent };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${API_URL}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { token?: string; blockBody?: { block: string; data: { longSession?: string } } };
  };
  headers['X-Corbado-Process-ID'] = (await post('/v2/auth/process/init', { clientInformation: {}, preferredBlock: 'login-init' })).token!;
  const sent = (await kit.outboxMessages(email, { apiUrl: API_URL }))[0]?.id;
  const found = await post('/v2/auth/login/init', { identifierValue: email, isPhone: false });
  if (found.blockBody?.block === 'passkey-verify') await post('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
  const code = (await latestMessage(email, sent)).code!;
  const done = await post('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false });
  if (done.blockBody?.block !== 'completed' || !done.blockBody.data.longSession) throw new Error(`the log-in elsewhere ended on ${done.blockBody?.block}`);
  return done.blockBody.data.longSession;
}

/** The widget on a demo page; Playwright's locators reach into its open shadow root. */
export function widget(page: Page) {
  return page.locator('#widget');
}

export interface EmailSignUpOptions {
  /** the demo page with the sign-up; by default the combined view of pro-1 on sign-up */
  url?: string;
  /** typed into "Full name" when given (for projects that ask for it) */
  fullName?: string;
}

/** Opens the sign-up, enters the e-mail address (and the full name) and continues; answers the widget. */
export async function startSignUpByEmail(page: Page, email: string, options: EmailSignUpOptions = {}) {
  await page.goto(options.url ?? '/#register');
  const view = widget(page);
  if (options.fullName !== undefined) await view.getByRole('textbox', { name: 'Full name' }).fill(options.fullName);
  await view.getByRole('textbox', { name: 'Email address' }).fill(email);
  await view.getByRole('button', { name: 'Continue', exact: true }).click();
  return view;
}

/**
 * Signs up by e-mail code on a demo page with the QA kit: the form, then the code from the outbox; with
 * `passkey`, the passkey offered next is created (a virtual authenticator must be added). Ends logged in.
 */
export async function signUpByEmailCode(page: Page, email: string, options: EmailSignUpOptions & { passkey?: boolean } = {}) {
  await page.goto(options.url ?? '/#register');
  await kit.signUpByEmailCode(widget(page), email, { apiUrl: API_URL, fullName: options.fullName, passkey: options.passkey });
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
}

/**
 * Logs out with the host's button on the account page of a project (pro-1 by default), where no auth
 * view is mounted: a log-in view would offer a passkey in the autofill at once.
 */
export async function logOutOnAccountPage(page: Page, projectId?: string) {
  await page.goto(projectId ? `/account.html?project=${projectId}` : '/account.html');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.locator('#host-auth-state')).toHaveText('logged out');
}

/**
 * On a browser that logged in before, log-in offers that account first (README, "Welcome back"):
 * "Use another account" forgets it and shows the plain log-in.
 */
export async function useAnotherAccount(page: Page) {
  const view = widget(page);
  await expect(view.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await view.getByRole('button', { name: 'Use another account' }).click();
}

export const test = base;

/**
 * Answers an intercepted API call with the Frontend API's error envelope, as the server itself would,
 * CORS headers included (the request never reaches the server).
 */
export function fulfillApiError(route: Route, status: number, type: string, message: string, headers: Record<string, string> = {}) {
  return route.fulfill({
    status,
    contentType: 'application/json',
    headers: {
      'Access-Control-Allow-Origin': route.request().headers().origin ?? '*',
      'Access-Control-Allow-Credentials': 'true',
      ...headers,
    },
    body: JSON.stringify({
      httpStatusCode: status,
      message,
      requestData: { requestID: 'req-injected', link: '' },
      runtime: 0,
      error: { type, links: [] },
    }),
  });
}
