import type { Page } from '@playwright/test';
import { addAuthenticator, API_URL, expect, fulfillApiError, latestMessage, test, uniqueEmail, useAnotherAccount, widget } from './fixtures';

// Faults at several points of a flow (pro-1): the API answers 500, answers only after the widget's
// apiTimeout (the server having done the work), or the network is gone. Each time the visitor reads the
// catalogue's text for an unhandled backend error (SPEC.md section 8), keeps what they typed where the
// screen still exists, and finishes the flow in the same tab once the fault is lifted (SPEC.md section 4,
// "Errors in the flow").

/** the widget's apiTimeout on these pages (?timeout=), small so that a late answer costs little */
const API_TIMEOUT = 2000;
const UNEXPECTED = 'Something went wrong. Please try again later, refresh the page, or contact support@example.com.';
const FAULTS = ['HTTP 500', 'late answer', 'network down'] as const;
type Fault = (typeof FAULTS)[number];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Breaks the next call to one endpoint of the Frontend API the given way ("network down": every call,
 * until lifted). Answers the function that lifts the fault.
 */
async function breakNext(page: Page, endpoint: string, fault: Fault): Promise<() => Promise<void>> {
  if (fault === 'network down') {
    const everything = `${API_URL}/**`;
    await page.route(everything, (route) => route.abort('internetdisconnected'));
    return () => page.unroute(everything);
  }
  await page.route(
    `${API_URL}/v2/auth/${endpoint}`,
    async (route) => {
      if (fault === 'HTTP 500') return fulfillApiError(route, 500, 'internal_error', 'Internal server error');
      // the server does the work; its answer arrives after the widget has given up
      const response = await route.fetch();
      await pause(API_TIMEOUT + 500);
      // a cancelled request's route is not answered (Chromium may have given its id to a newer request)
      if (!route.request().failure()) await route.fulfill({ response });
    },
    { times: 1 },
  );
  return async () => undefined;
}

test.describe('faults during a flow', () => {
  // five faults in one sign-up and log-in; a late answer costs the apiTimeout each time
  test.describe.configure({ timeout: 120_000 });
  for (const fault of FAULTS) {
    test(`${fault} at sign-up submit, resend, code entry, passkey append and log-in submit`, async ({ page }) => {
      const authenticator = await addAuthenticator(page);
      const email = uniqueEmail(`fault-${fault.replace(/\W/g, '')}`);
      await page.goto(`/?timeout=${API_TIMEOUT}`);
      const view = widget(page);
      // sign-up through the log-in screen's link: the server's process stays on log-in meanwhile
      await view.getByRole('button', { name: 'Sign up' }).click();
      const fullName = view.getByRole('textbox', { name: 'Full name' });
      const address = view.getByRole('textbox', { name: 'Email address' });
      const submit = view.getByRole('button', { name: 'Continue', exact: true });
      const failure = view.getByRole('alert').filter({ hasText: UNEXPECTED });
      const otpHeading = view.getByRole('heading', { name: 'Verify your email address' });
      const firstCell = view.getByRole('textbox', { name: 'Digit 1 of 6' });
      const createPasskey = view.getByRole('button', { name: 'Create passkey' });

      // sign-up submit
      await fullName.fill('Grace Hopper');
      await address.fill(email);
      let lift = await breakNext(page, 'signup/init', fault);
      await submit.click();
      await expect(failure).toBeVisible();
      if (fault === 'late answer') {
        // the server signed up and sent the code: the process, loaded again, is on the code screen
        await expect(otpHeading).toBeVisible();
      } else {
        await expect(view.getByRole('heading', { name: 'Create your account' })).toBeVisible();
        await expect(fullName).toHaveValue('Grace Hopper');
        await expect(address).toHaveValue(email);
        await lift();
        await submit.click();
        await expect(otpHeading).toBeVisible();
      }

      // resend, once its countdown is over: the page's clock, installed now, runs as usual but jumps it
      await page.clock.install();
      await page.clock.fastForward('00:31');
      lift = await breakNext(page, 'identifier/verify/start', fault);
      await view.getByRole('button', { name: 'Resend code' }).click();
      await expect(failure).toBeVisible();
      await expect(otpHeading).toBeVisible();
      await lift();

      // code entry
      const { code } = await latestMessage(email);
      lift = await breakNext(page, 'identifier/verify/finish', fault);
      await firstCell.fill(code!);
      await expect(failure).toBeVisible();
      const passkeyHeading = view.getByRole('heading', { name: 'Create your account with a passkey' });
      if (fault === 'late answer') {
        // the server took the code: the process moved on
        await expect(passkeyHeading).toBeVisible();
      } else {
        await expect(otpHeading).toBeVisible();
        await expect(firstCell).toHaveValue('');
        await lift();
        await firstCell.fill(code!);
        await expect(passkeyHeading).toBeVisible();
      }

      // passkey append start
      lift = await breakNext(page, 'passkey/append/start', fault);
      await createPasskey.click();
      await expect(failure).toBeVisible();
      await expect(passkeyHeading).toBeVisible();
      await lift();
      await createPasskey.click();
      await expect(view.getByRole('heading', { name: 'Passkey created' })).toBeVisible();
      await submit.click();
      await expect(page.locator('#host-auth-state')).toHaveText('logged in');
      await expect(page.locator('#host-user')).toContainText('Grace Hopper');
      expect(await authenticator.credentials()).toHaveLength(1);

      // log-in submit (the passkey is not offered in the autofill, so that the e-mail is typed)
      await authenticator.setPresence(false);
      await page.evaluate(() => Corbado.logout());
      await page.goto(`/login.html?timeout=${API_TIMEOUT}`);
      // the plain log-in, where the e-mail is typed (the welcome-back offer is e2e/welcome-back.spec.ts's)
      await useAnotherAccount(page);
      const identifier = view.getByRole('textbox', { name: 'Email address' });
      await identifier.fill(email);
      // the passkey log-in starts by itself once the identifier is taken; it is held until the failure
      // has been seen, and only then does the authenticator answer (the log-in screen, and with it the
      // autofill request, is gone by then)
      let failureSeen!: () => void;
      const seen = new Promise<void>((resolve) => (failureSeen = resolve));
      await page.route(`${API_URL}/v2/auth/passkey/login/start`, async (route) => {
        await seen;
        await authenticator.setPresence(true);
        await route.continue();
      });
      lift = await breakNext(page, 'login/init', fault);
      await submit.click();
      await expect(failure).toBeVisible();
      failureSeen();
      if (fault !== 'late answer') {
        await expect(view.getByRole('heading', { name: 'Log in', exact: true })).toBeVisible();
        await expect(identifier).toHaveValue(email);
        await lift();
        await submit.click();
      }
      await expect(page.locator('#host-auth-state')).toHaveText('logged in');
      await expect(page.locator('#host-user')).toContainText(email);
    });
  }
});

test.describe('faults at start-up', () => {
  test('process/init failing shows the component-unavailable page; Reload recovers once the API answers', async ({ page }) => {
    const answers: Fault[] = ['HTTP 500', 'late answer', 'network down'];
    // by path: the widget names the project in the query of this call (a CORS simple request)
    const isInit = (url: URL) => url.origin === new URL(API_URL).origin && url.pathname === '/v2/auth/process/init';
    await page.route(isInit, async (route) => {
      const fault = answers.shift();
      if (fault === 'HTTP 500') return fulfillApiError(route, 500, 'internal_error', 'Internal server error');
      if (fault === 'network down') return route.abort('internetdisconnected');
      if (fault === 'late answer') await pause(API_TIMEOUT + 500);
      // a cancelled request's route is not answered (Chromium may have given its id to a newer request)
      if (!route.request().failure()) await route.continue();
    });
    await page.goto(`/?timeout=${API_TIMEOUT}`);
    const view = widget(page);
    const unavailable = view.getByRole('heading', { name: 'Log-in is unavailable right now' });
    const reload = view.getByRole('button', { name: 'Reload' });
    await expect(unavailable).toBeVisible();
    await expect(view.getByText('Please reload, or contact support@example.com if it keeps happening.')).toBeVisible();
    for (const left of [1, 0]) {
      const failed = page.waitForEvent('requestfailed', (request) => isInit(new URL(request.url())));
      await reload.click();
      await failed;
      await expect(unavailable).toBeVisible();
      expect(answers).toHaveLength(left);
    }
    await reload.click();
    await expect(view.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await view.getByRole('textbox', { name: 'Email address' }).fill(uniqueEmail('nobody'));
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText("Couldn't find your account.")).toBeVisible();
  });

  test('a stored process the server does not know is replaced by a new one, with no visible error', async ({ page }) => {
    const unknown = `pro-1-unknown-${Date.now()}`;
    await page.goto('/blank.html');
    await page.evaluate(
      ([token, api]) =>
        localStorage.setItem('cbo_auth_process-pro-1', JSON.stringify({ id: token, expiresAt: Math.floor(Date.now() / 1000) + 3600, frontendApiUrl: api })),
      [unknown, API_URL],
    );
    const loaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/v2/auth/process');
    await page.goto('/');
    expect((await loaded).status()).toBe(404);
    const view = widget(page);
    await expect(view.getByRole('heading', { name: 'Log in' })).toBeVisible();
    const stored = () => page.evaluate(() => JSON.parse(localStorage.getItem('cbo_auth_process-pro-1') ?? '{}').id as string | undefined);
    await expect.poll(stored).toMatch(/\w/);
    expect(await stored()).not.toBe(unknown);
    await view.getByRole('textbox', { name: 'Email address' }).fill(uniqueEmail('nobody'));
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText("Couldn't find your account.")).toBeVisible();
    await expect(view.getByRole('alert')).toHaveCount(1);
  });
});
