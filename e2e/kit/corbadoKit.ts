// The QA kit: what a Playwright test on a site that embeds the Corbado widget needs to drive it.
//
//   import { addPasskeyDevice, latestCode, logInByEmailCode, resetState, signUpByEmailCode } from './corbadoKit';
//
// It lives here, beside the repository's own end-to-end tests, and not in dist/: dist/ is what the
// visitors' browsers download (one global, a size budget, no test code), while this runs in Node
// inside Playwright and needs @playwright/test, which a site must never ship. The repository's own
// tests (e2e/fixtures.ts and everything built on it) use this file, so every `npm test` proves it
// against the current widget. Copy it into your test folder: it depends on @playwright/test alone.
//
// It finds the widget's elements only through what the README ("Testing your site") promises to keep
// stable: roles and accessible names (English texts, the widget's default language). Every view renders
// in an open shadow root, which Playwright's role and CSS locators pierce, so a locator for the element
// you mount the view into (`page.locator('#login')`) is all it needs.
import { expect, type Locator, type Page } from '@playwright/test';

/** The local Frontend API of `npm start` (CORBADO_API_URL overrides it); its dev outbox holds the codes. */
export const DEFAULT_API_URL = process.env.CORBADO_API_URL ?? 'http://localhost:3001';

/** How long the kit waits for a message, a screen or the log-in, unless told otherwise. */
const DEFAULT_TIMEOUT = 15_000;

export interface ApiOptions {
  /** the Frontend API whose dev outbox is read (default DEFAULT_API_URL) */
  apiUrl?: string;
  /** milliseconds to wait (default 15 s) */
  timeout?: number;
}

// ---------------------------------------------------------------------------------------------------
// A virtual passkey device

export interface PasskeyDeviceOptions {
  /**
   * Whether the device answers prompts by itself, as a visitor touching the sensor would (default
   * true). Off, every passkey prompt stays open: a log-in screen's autofill offer then does not log the
   * visitor in at once.
   */
  presence?: boolean;
  /** 'internal' (default): this device's own authenticator; 'cable': a phone reached over hybrid */
  transport?: 'internal' | 'cable';
}

export interface PasskeyCredential {
  credentialId: string;
  rpId?: string;
  /** the user handle the site's Frontend API gave the passkey (base64) */
  userHandle?: string;
  signCount: number;
  /** the passkey's private key (PKCS#8, base64) and whether it is discoverable, as Chromium keeps them */
  privateKey: string;
  isResidentCredential: boolean;
}

export interface PasskeyDevice {
  /** the id Chromium gave the virtual authenticator */
  id: string;
  /** the passkeys stored on the device */
  credentials(): Promise<PasskeyCredential[]>;
  /** puts passkeys of another device on this one: the same visitor in a later browser session */
  addCredentials(credentials: PasskeyCredential[]): Promise<void>;
  /** turns answering prompts by itself on or off (see PasskeyDeviceOptions.presence) */
  setPresence(on: boolean): Promise<void>;
  /** false makes the next ceremony fail the way a visitor cancelling the prompt does */
  setUserVerified(verified: boolean): Promise<void>;
  /** takes the device away: the browser then has no passkey support */
  remove(): Promise<void>;
}

/**
 * Gives the browser of a page a passkey device: a CDP virtual authenticator (CTAP2, resident keys,
 * user verification), which the widget uses as it would Touch ID or Windows Hello. Chromium only.
 * Add it before the widget loads (before `page.goto`), so that the widget sees passkey support.
 */
export async function addPasskeyDevice(page: Page, options: PasskeyDeviceOptions = {}): Promise<PasskeyDevice> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: options.transport ?? 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: options.presence ?? true,
    },
  });
  return {
    id: authenticatorId,
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    addCredentials: async (credentials) => {
      for (const credential of credentials) await cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
    },
    setPresence: async (enabled) => void (await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled })),
    setUserVerified: async (isUserVerified) => void (await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified })),
    remove: async () => void (await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId })),
  };
}

// ---------------------------------------------------------------------------------------------------
// Codes and links from the dev outbox

/** A message the local Frontend API "sent" (development mode keeps them instead of sending them). */
export interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  /** the one-time code, when the message carries one */
  code?: string;
  /** the e-mail link, when the message carries one */
  link?: string;
  /** e-mails: the HTML part */
  html?: string;
  createdAt: string;
}

/**
 * The dev outbox's messages for an address (an e-mail address, or a phone number in E.164), newest
 * first: `GET <Frontend API>/_dev/messages?to=<address>`.
 */
export async function outboxMessages(to: string, options: Pick<ApiOptions, 'apiUrl'> = {}): Promise<OutboxMessage[]> {
  const url = `${options.apiUrl ?? DEFAULT_API_URL}/_dev/messages?to=${encodeURIComponent(to)}`;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the dev outbox answered ${response.status} at ${url} (only a Frontend API in development mode has one)`);
  return (await response.json()) as OutboxMessage[];
}

/** The id of the newest message for an address, if any: pass it as `after` to wait for the next one. */
export async function newestMessageId(to: string, options: Pick<ApiOptions, 'apiUrl'> = {}): Promise<string | undefined> {
  return (await outboxMessages(to, options))[0]?.id;
}

/**
 * The newest message for an address, waiting for it to arrive; with `after` (a message id), one that
 * is newer than that message.
 */
export async function latestMessage(to: string, options: ApiOptions & { after?: string } = {}): Promise<OutboxMessage> {
  const deadline = Date.now() + (options.timeout ?? DEFAULT_TIMEOUT);
  for (;;) {
    const newest = (await outboxMessages(to, options))[0];
    if (newest && newest.id !== options.after) return newest;
    if (Date.now() > deadline) throw new Error(`No new message for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** An address no test has used yet, for a new user per test: `<tag>-<time>-<random>@example.com`. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** The code of the newest message for an address (waiting for it, see latestMessage). */
export async function latestCode(to: string, options: ApiOptions & { after?: string } = {}): Promise<string> {
  const { code } = await latestMessage(to, options);
  if (!code) throw new Error(`the newest message for ${to} carries no code`);
  return code;
}

/** The link of the newest message for an address (waiting for it, see latestMessage). */
export async function latestLink(to: string, options: ApiOptions & { after?: string } = {}): Promise<string> {
  const { link } = await latestMessage(to, options);
  if (!link) throw new Error(`the newest message for ${to} carries no link`);
  return link;
}

// ---------------------------------------------------------------------------------------------------
// Sign-up, log-in, log-out

interface CorbadoOnPage {
  isAuthenticated: boolean;
  logout(): Promise<void>;
}

/** Whether the widget on the page holds a session (`Corbado.isAuthenticated`); false while it navigates. */
export async function isLoggedIn(page: Page): Promise<boolean> {
  try {
    return await page.evaluate(() => (window as unknown as { Corbado?: CorbadoOnPage }).Corbado?.isAuthenticated === true);
  } catch {
    return false; // the page was navigating
  }
}

/**
 * Logs out with `Corbado.logout()` and waits until the widget holds no session. A log-in view shown
 * next offers the passkeys in the autofill: a passkey device that answers by itself logs the visitor
 * in again at once, so make it refuse first (`setUserVerified(false)`, as a visitor cancelling).
 */
export async function logOut(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { Corbado: CorbadoOnPage }).Corbado.logout());
  await expect.poll(() => isLoggedIn(page)).toBe(false);
}

export interface JourneyOptions extends ApiOptions {
  /**
   * What to do when the widget offers a passkey after the code: true creates it (a passkey device
   * must have been added, see addPasskeyDevice); false (default) answers "Maybe later".
   */
  passkey?: boolean;
}

/** The accessible names the kit relies on (English); the README lists them all, per screen. */
const NAMES = {
  signUpHeading: 'Create your account',
  logInHeading: 'Log in',
  welcomeBackHeading: 'Welcome back',
  useAnotherAccount: 'Use another account',
  switchToSignUp: 'Sign up',
  switchToLogIn: 'Log in',
  fullName: 'Full name',
  email: 'Email address',
  continue: 'Continue',
  firstDigit: 'Digit 1 of 6',
  emailCodeInstead: 'Send email code instead',
  createPasskey: 'Create passkey',
  passkeyCreated: 'Passkey created',
  maybeLater: 'Maybe later',
} as const;

/** Polls the conditions in turn until one holds and answers its name; throws after the timeout. */
async function firstOf<T extends string>(conditions: Record<T, () => Promise<boolean>>, timeout: number, what: string): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const [name, holds] of Object.entries(conditions) as [T, () => Promise<boolean>][]) if (await holds()) return name;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The widget's heading or button with exactly this accessible name. */
const button = (view: Locator, name: string) => view.getByRole('button', { name, exact: true });
const heading = (view: Locator, name: string) => view.getByRole('heading', { name, exact: true });

/**
 * Brings an auth view (sign-up and log-in in one) to the wanted start screen; on a browser that logged
 * in before, past the welcome-back screen ("Use another account", which forgets that account).
 */
async function openScreen(view: Locator, wanted: 'signUp' | 'logIn', timeout: number): Promise<void> {
  const signUp = heading(view, NAMES.signUpHeading);
  const logIn = heading(view, NAMES.logInHeading);
  const welcomeBack = heading(view, NAMES.welcomeBackHeading);
  await signUp.or(logIn).or(welcomeBack).first().waitFor({ timeout });
  if (await welcomeBack.isVisible()) await button(view, NAMES.useAnotherAccount).click();
  await signUp.or(logIn).first().waitFor({ timeout });
  if (wanted === 'signUp' && !(await signUp.isVisible())) await button(view, NAMES.switchToSignUp).click();
  if (wanted === 'logIn' && !(await logIn.isVisible())) await button(view, NAMES.switchToLogIn).click();
  await (wanted === 'signUp' ? signUp : logIn).waitFor({ timeout });
}

/** After a code: the passkey offer, answered as told, until the widget holds the session. */
async function finish(view: Locator, options: JourneyOptions, timeout: number): Promise<void> {
  const page = view.page();
  const offer = button(view, NAMES.createPasskey);
  const next = await firstOf({ loggedIn: () => isLoggedIn(page), offer: () => offer.isVisible() }, timeout, 'the log-in or the passkey offer');
  if (next === 'offer') {
    if (options.passkey) {
      await offer.click();
      await heading(view, NAMES.passkeyCreated).waitFor({ timeout });
      await button(view, NAMES.continue).click();
    } else {
      await button(view, NAMES.maybeLater).click();
    }
  } else if (options.passkey) {
    throw new Error('the widget offered no passkey: add a passkey device before the page loads');
  }
  await expect.poll(() => isLoggedIn(page), { timeout }).toBe(true);
}

/**
 * Signs a new user up by e-mail code in a mounted auth or sign-up view (`view` is the element you
 * mounted it into): the form (with the full name when the project asks for it), the code from the dev
 * outbox, the passkey offer (see JourneyOptions.passkey). Resolves once the widget holds the session.
 */
export async function signUpByEmailCode(view: Locator, email: string, options: JourneyOptions & { fullName?: string } = {}): Promise<void> {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  await openScreen(view, 'signUp', timeout);
  const fullName = view.getByRole('textbox', { name: NAMES.fullName, exact: true });
  if (options.fullName !== undefined || (await fullName.count())) await fullName.fill(options.fullName ?? 'Test User');
  await view.getByRole('textbox', { name: NAMES.email, exact: true }).fill(email);
  const after = await newestMessageId(email, options);
  await button(view, NAMES.continue).click();
  const code = await latestCode(email, { ...options, after });
  await view.getByRole('textbox', { name: NAMES.firstDigit }).fill(code);
  await finish(view, options, timeout);
}

/**
 * Logs an existing user in by e-mail code in a mounted auth or log-in view: the address, then (when
 * the account has a passkey) "Send email code instead", the code from the dev outbox, the passkey offer
 * (see JourneyOptions.passkey). Resolves once the widget holds the session. With a passkey device that
 * holds the account's passkey, make it refuse first (`setUserVerified(false)`, as a visitor cancelling
 * the prompt); if it logs the visitor in with the passkey instead, this throws.
 */
export async function logInByEmailCode(view: Locator, email: string, options: JourneyOptions = {}): Promise<void> {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  const page = view.page();
  await openScreen(view, 'logIn', timeout);
  await view.getByRole('textbox', { name: NAMES.email }).fill(email);
  const after = await newestMessageId(email, options);
  await button(view, NAMES.continue).click();
  const cell = view.getByRole('textbox', { name: NAMES.firstDigit });
  const instead = button(view, NAMES.emailCodeInstead);
  const next = await firstOf(
    { code: () => cell.isVisible(), passkey: () => instead.isVisible(), loggedIn: () => isLoggedIn(page) },
    timeout,
    'the code entry',
  );
  if (next === 'loggedIn') throw new Error('the widget logged in with a passkey before a code was asked for (make the passkey device refuse: setUserVerified(false))');
  if (next === 'passkey') {
    // the fallback is offered while no passkey prompt is open
    await instead.click({ timeout }).catch((error: Error) => {
      throw new Error(`the passkey prompt stayed open (make the passkey device refuse: setUserVerified(false)): ${error.message}`);
    });
  }
  await cell.fill(await latestCode(email, { ...options, after }));
  await finish(view, options, timeout);
}

// ---------------------------------------------------------------------------------------------------
// Reset

export interface ResetOptions {
  /** also clear the rest of this origin's localStorage and its sessionStorage (default: only the widget's keys) */
  siteStorage?: boolean;
  /** reload the page afterwards, so that the widget starts again from the cleared state (default true) */
  reload?: boolean;
}

/**
 * Forgets the visitor: every cookie of the browser context (the widget's short-session cookie on your
 * origin and the Frontend API's own), the widget's localStorage keys on the page's origin (`cbo_…` and
 * `socialLogin`: session, process, device handle), then reloads. Passkeys on a passkey device stay:
 * remove the device for that.
 */
export async function resetState(page: Page, options: ResetOptions = {}): Promise<void> {
  await page.context().clearCookies();
  if (!/^https?:/.test(page.url())) return; // a page that has loaded nothing holds no storage
  await page.evaluate((siteStorage) => {
    if (siteStorage) {
      localStorage.clear();
      sessionStorage.clear();
      return;
    }
    for (const key of Object.keys(localStorage)) if (key.startsWith('cbo_') || key === 'socialLogin') localStorage.removeItem(key);
  }, options.siteStorage ?? false);
  if (options.reload ?? true) await page.reload();
}
