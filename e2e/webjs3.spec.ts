import type { Locator, Page } from '@playwright/test';
import { addAuthenticator, answerPasskeyLogin, API_URL, expect, latestMessage, test, uniqueEmail } from './fixtures';

// Host code written for Corbado's @corbado/web-js 3 (demo/webjs3.html + webjs3.js), run twice:
// with Corbado's own client (the devDependency @corbado/web-js 3.5.0, its script bundle) and with this
// project's bundle in its place. Both call the hosted address https://pro-1.frontendapi.corbado.io, as a
// site in production does; Playwright routes that host to the local Frontend API, and every other
// address outside this machine (the official client's telemetry, fonts, fingerprinting) is refused.

const HOSTED = /^https:\/\/pro-\d+\.frontendapi\.corbado\.io\//;

/** The visitor's steps in each client's own screens; everything the host sees is asserted the same way. */
interface Screens {
  client: 'web-js' | 'own';
  openSignup(auth: Locator): Promise<void>;
  fillSignup(auth: Locator, name: string, email: string): Promise<void>;
  enterCode(auth: Locator, code: string): Promise<void>;
  passkeyCreated(auth: Locator): Promise<void>;
  /** from the log-in screen shown after log-out to the passkey ceremony's start */
  /** reaches the passkey log-in; `ready` readies the authenticator before the ceremony can start */
  toPasskeyLogin(auth: Locator, email: string, ready: () => Promise<unknown>): Promise<void>;
  startPasskeyLogin(auth: Locator): Promise<void>;
  expectUserDetails(user: Locator, name: string, email: string): Promise<void>;
}

const officialScreens: Screens = {
  client: 'web-js',
  openSignup: (auth) => auth.getByRole('button', { name: 'Sign up' }).click(),
  async fillSignup(auth, name, email) {
    await auth.getByRole('textbox', { name: 'Name' }).fill(name);
    await auth.getByRole('textbox', { name: 'Email address' }).fill(email);
  },
  async enterCode(auth, code) {
    await expect(auth.getByText('Enter code to create account')).toBeVisible();
    await auth.locator('input').first().fill(code);
  },
  passkeyCreated: (auth) => expect(auth.getByText('Passkey created')).toBeVisible(),
  // web-js 3 remembers the last identifier and offers it as one tap
  async toPasskeyLogin(auth, email, ready) {
    await expect(auth.getByText(email)).toBeVisible();
    await ready();
  },
  startPasskeyLogin: (auth) => auth.getByText('Login with Passkey').click(),
  async expectUserDetails(user, name, email) {
    await expect(user.getByText('Your Account')).toBeVisible();
    await expect(user.getByRole('textbox', { name: 'Name' })).toHaveValue(name);
    await expect(user.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
    await expect(user.getByText('verified')).toBeVisible();
  },
};

const ownScreens: Screens = {
  client: 'own',
  openSignup: (auth) => auth.getByRole('button', { name: 'Sign up' }).click(),
  async fillSignup(auth, name, email) {
    await auth.getByRole('textbox', { name: 'Full name' }).fill(name);
    await auth.getByRole('textbox', { name: 'Email address' }).fill(email);
  },
  async enterCode(auth, code) {
    await expect(auth.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await auth.getByRole('textbox', { name: 'Digit 1 of 6' }).fill(code);
  },
  passkeyCreated: (auth) => expect(auth.getByRole('heading', { name: 'Passkey created' })).toBeVisible(),
  // this widget too offers the account logged in last ("Welcome back"), its passkey as the one action
  async toPasskeyLogin(auth, email, ready) {
    await expect(auth.getByText(email, { exact: true })).toBeVisible();
    await ready();
    await auth.getByRole('button', { name: 'Log in with passkey' }).click();
  },
  // the passkey log-in starts by itself on its screen
  startPasskeyLogin: async () => {},
  async expectUserDetails(user, name, email) {
    await expect(user.getByRole('heading', { name: 'Your account' })).toBeVisible();
    await expect(user.getByText(name)).toBeVisible();
    await expect(user.getByText(email)).toBeVisible();
    await expect(user.getByText('Verified', { exact: true })).toBeVisible();
  },
};

/**
 * The official client's passkey ceremonies, seen in the page: how many autofill requests (conditional
 * get()) it has started, and the authenticator's presence turned on as its modal log-in's get() starts.
 * web-js starts the autofill on the log-in screen through an API call of its own, so under load it can
 * start after the test turned presence on, and the autofill then logs in before the click (seen once in
 * a fresh-clone run: the log-in went through mediation/finish, and the button the test clicked was gone).
 * With presence on only from the modal get() on, which web-js calls after aborting its autofill request,
 * the click's ceremony is the one answered whatever the order.
 */
async function watchOfficialCeremonies(page: Page, authenticator: { setPresence(enabled: boolean): Promise<unknown> }): Promise<{ autofills: number }> {
  const seen = { autofills: 0 };
  await page.exposeFunction('__testAutofillStarted', () => void seen.autofills++);
  await page.exposeFunction('__testModalGetStarting', () => authenticator.setPresence(true));
  await page.addInitScript(() => {
    const hooks = window as unknown as { __testAutofillStarted(): Promise<void>; __testModalGetStarting(): Promise<void> };
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = async (options?: CredentialRequestOptions) => {
      if (options?.mediation === 'conditional') void hooks.__testAutofillStarted();
      else await hooks.__testModalGetStarting();
      return get(options);
    };
  });
  return seen;
}

/** The pages routed by routeHostedApi in the running test: unrouted before their contexts close at its end. */
const routedPages: Page[] = [];
test.afterEach(async () => {
  for (const page of routedPages.splice(0)) if (!page.isClosed()) await page.unrouteAll({ behavior: 'ignoreErrors' });
});

/** Routes the hosted Frontend API to the local one; answers which paths went through the hosted address. */
async function routeHostedApi(page: Page): Promise<string[]> {
  const hostedCalls: string[] = [];
  routedPages.push(page);
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (HOSTED.test(url.href)) {
      hostedCalls.push(`${route.request().method()} ${url.pathname}`);
      await route.fulfill({ response: await route.fetch({ url: API_URL + url.pathname + url.search }) });
    } else if (url.hostname === 'localhost') {
      await route.continue();
    } else {
      await route.abort('blockedbyclient');
    }
  });
  return hostedCalls;
}

for (const screens of [officialScreens, ownScreens]) {
  const title = screens.client === 'web-js' ? 'the official @corbado/web-js 3.5.0' : "this project's bundle in its place";

  test(`[spec 1.view-passkey-list] [spec 1.view-user-details] [spec 1.logout] [spec 1.host-state] web-js 3 host code with ${title}: sign-up, log-out, passkey log-in, account views`, async ({ page }) => {
    test.setTimeout(60_000);
    const hostedCalls = await routeHostedApi(page);
    const authenticator = await addAuthenticator(page);
    const official = screens.client === 'web-js' ? await watchOfficialCeremonies(page, authenticator) : undefined;
    const auth = page.locator('#corbado-auth');
    const panel = {
      authenticated: page.locator('#host-authenticated'),
      token: page.locator('#host-session-token'),
      user: page.locator('#host-user'),
      fullUser: page.locator('#host-full-user'),
      passkeys: page.locator('#host-passkeys'),
      events: page.locator('#host-events'),
    };
    const email = uniqueEmail(`webjs3-${screens.client}`);
    let autofillsBeforeLogOut = 0;

    await test.step('load() against the hosted address, routed to the local Frontend API', async () => {
      await page.goto(`/webjs3.html?client=${screens.client}&api=hosted`);
      await expect(panel.authenticated).toHaveText('false (state 0)');
      await expect(auth.getByRole('button', { name: 'Sign up' })).toBeVisible();
      expect(hostedCalls).toContain('GET /v2/session-config');
      if (screens.client === 'web-js') expect(hostedCalls).toContain('GET /v2/process-config');
    });

    await test.step('sign-up with an e-mail code and a passkey', async () => {
      await screens.openSignup(auth);
      await screens.fillSignup(auth, 'Ada Lovelace', email);
      await auth.getByRole('button', { name: 'Continue', exact: true }).click();
      await screens.enterCode(auth, (await latestMessage(email)).code!);
      await auth.getByRole('button', { name: 'Create passkey' }).click();
      await screens.passkeyCreated(auth);
      await auth.getByRole('button', { name: 'Continue', exact: true }).click();
      await expect(panel.events).toContainText('onLoggedIn');
      await expect(panel.authenticated).toHaveText('true (state 1)');
      await expect(panel.token).toHaveText('a JWT of 3 parts');
      await expect(panel.user).toHaveText(JSON.stringify({ email, name: 'Ada Lovelace' }));
      expect(await authenticator.credentials()).toHaveLength(1);
    });

    await test.step('the user details and passkey list views, and getFullUser() / getPasskeys()', async () => {
      await screens.expectUserDetails(page.locator('#corbado-user'), 'Ada Lovelace', email);
      await expect(page.locator('#corbado-passkeys').getByText('Passkey', { exact: true })).toBeVisible();
      await expect(page.locator('#corbado-passkeys').getByText(/Chrome.* on Linux/)).toBeVisible();
      await expect(panel.fullUser).toHaveText(`Ada Lovelace <${email}>`);
      await expect(panel.passkeys).toHaveText('1 passkey(s)');
    });

    await test.step('log-out', async () => {
      // the log-in view that follows would offer the passkey in the autofill at once
      await authenticator.setPresence(false);
      autofillsBeforeLogOut = official?.autofills ?? 0;
      await page.getByRole('button', { name: 'Log out' }).click();
      await expect(panel.events).toContainText('logged out');
      await expect(panel.authenticated).toHaveText('false (state 0)');
      await expect(panel.token).toHaveText('none');
      await expect(panel.user).toHaveText('none');
      expect(await page.evaluate(() => Corbado.sessionToken)).toBeUndefined();
    });

    await test.step('log-in with the passkey', async () => {
      const finished = page.waitForResponse((response) => response.url().endsWith('/v2/auth/passkey/login/finish'));
      // this bundle starts the passkey log-in by itself: the authenticator answers as it starts, not the
      // autofill; the official client starts it on a click, once its autofill request is waiting (presence
      // comes on with the click's ceremony: watchOfficialCeremonies)
      const ready = () =>
        official ? expect.poll(() => official.autofills).toBeGreaterThan(autofillsBeforeLogOut) : answerPasskeyLogin(page, authenticator);
      await screens.toPasskeyLogin(auth, email, ready);
      await screens.startPasskeyLogin(auth);
      const completed = (await (await finished).json()) as { blockBody: { block: string; data: { passkeyOperation: { operationType: string } } } };
      expect(completed.blockBody.block).toBe('completed');
      expect(completed.blockBody.data.passkeyOperation.operationType).toBe('verify');
      await expect(panel.authenticated).toHaveText('true (state 1)');
      await expect(panel.user).toHaveText(JSON.stringify({ email, name: 'Ada Lovelace' }));
      await expect(panel.passkeys).toHaveText('1 passkey(s)');
      await screens.expectUserDetails(page.locator('#corbado-user'), 'Ada Lovelace', email);
    });
  });
}

test('the official @corbado/web-js 3.5.0 keeps its same-browser e-mail link; opened in another browser it logs nobody in', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await routeHostedApi(page);
  const email = uniqueEmail('webjs3-link');
  await page.goto('/webjs3.html?client=web-js&project=pro-2');
  const auth = page.locator('#corbado-auth');
  await auth.getByRole('button', { name: 'Sign up' }).click();
  await auth.getByRole('textbox', { name: 'Email address' }).fill(email);
  await auth.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(auth.getByText('Check your inbox to create your account')).toBeVisible();
  const link = new URL((await latestMessage(email)).link!);
  // the link as a site written for web-js 3 has it: its own page, with the two parameters
  const onWebJs = `/webjs3.html?client=web-js&project=pro-2&${link.searchParams}`;
  const polled = () => page.waitForResponse((r) => r.url().endsWith('/v2/auth/identifier/verify/status'));

  // another browser: web-js finishes the link by itself as the page loads; the server answers an error
  const other = await browser.newContext();
  const device = await other.newPage();
  await routeHostedApi(device);
  const finished = device.waitForResponse((r) => r.url().endsWith('/v2/auth/identifier/verify/finish'));
  await device.goto(onWebJs);
  const answer = (await (await finished).json()) as { blockBody: { continueOnOtherDevice?: unknown; data: { error?: { code: string } } } };
  expect(answer.blockBody.data.error?.code).toBe('email_link_other_browser');
  expect(answer.blockBody.continueOnOtherDevice).toBeUndefined();
  await polled();
  await polled();
  await expect(page.locator('#host-authenticated')).toHaveText('false (state 0)');
  await expect(device.locator('#host-authenticated')).toHaveText('false (state 0)');
  // web-js on that page still polls: a request routed as the context closes would be fulfilled with a
  // response the close disposed of ("Fetch response has been disposed", red in run V)
  await device.unrouteAll({ behavior: 'ignoreErrors' });
  await other.close();

  // a tab of the browser that asked: its cookie names it, and the asking tab logs in (web-js's own flow)
  const second = await page.context().newPage();
  await routeHostedApi(second);
  await second.goto(onWebJs);
  await expect(page.locator('#host-authenticated')).toHaveText('true (state 1)', { timeout: 15_000 });
  await expect(page.locator('#host-user')).toContainText(email);
});
