import type { Page } from '@playwright/test';
import { addAuthenticator, answerPasskeyLogin, expect, latestMessage, startSignUpByEmail, test, uniqueEmail, useAnotherAccount, widget } from './fixtures';

// The widget on legacy host pages (demo/legacy-*.html) whose scripts change the built-ins before the
// bundle loads: a sign-up by e-mail code and a log-in by e-mail code complete on each, and the page's
// own form is never submitted. Each page first proves that its change is in effect, so that a page
// that stopped doing it fails here instead of passing for nothing.

interface LegacyPage {
  name: string;
  /** evaluated in the page: true when the page's legacy change is in effect */
  inEffect: () => boolean;
  /** what else the page shows once the visitor is logged in */
  loggedIn?: (page: Page) => Promise<void>;
}

const pages: LegacyPage[] = [
  {
    name: 'prototype',
    inEffect: () =>
      JSON.stringify(['a']) === '"[\\"a\\"]"' && Object.keys([]).includes('each') && !/native code/.test(String(Function.prototype.bind)),
  },
  {
    name: 'mootools',
    inEffect: () => Array.from('ab').length === 1 && 'legacyTag' in {} && 'contains' in String.prototype,
  },
  {
    name: 'polyfills',
    inEffect: () =>
      !/native code/.test(String(Promise)) &&
      !/native code/.test(String(fetch)) &&
      Array.from(new Set([1])).length === 0 &&
      !/native code/.test(String(Object.assign)),
  },
  {
    name: 'quirks',
    inEffect: () =>
      document.compatMode === 'BackCompat' && typeof (window as unknown as { define?: { amd?: object } }).define?.amd === 'object',
    // the second view on the page, the passkey list, follows the log-in made in the first
    loggedIn: (page) => expect(page.locator('#second-view').getByRole('heading', { name: 'Your passkeys' })).toBeVisible(),
  },
];

async function open(page: Page, legacy: LegacyPage, view: 'signup' | 'login') {
  await page.goto(`/legacy-${legacy.name}.html?view=${view}`);
  expect(await page.evaluate(legacy.inEffect), `the legacy change of legacy-${legacy.name}.html is in effect`).toBe(true);
}

async function expectFormNeverSubmitted(page: Page, legacy: LegacyPage) {
  await expect(page.locator('#host-form-submits')).toHaveText('0');
  expect(new URL(page.url()).pathname).toBe(`/legacy-${legacy.name}.html`);
}

test.describe('legacy host pages', () => {
  // two journeys with two codes each: a bound for a loaded machine, not a timing assertion
  test.setTimeout(90_000);

  for (const legacy of pages) {
    test(`legacy-${legacy.name}.html: sign-up by e-mail code, log-out and log-in by e-mail code`, async ({ page }) => {
      const email = uniqueEmail(`legacy-${legacy.name}`);
      await open(page, legacy, 'signup');
      await startSignUpByEmail(page, email, { url: page.url(), fullName: 'Legacy Tester' });
      const view = widget(page);
      const signUpCode = await latestMessage(email);
      await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill(signUpCode.code!);
      await expect(page.locator('#host-auth-state')).toHaveText('logged in');
      await legacy.loggedIn?.(page);
      await expectFormNeverSubmitted(page, legacy);

      await page.locator('#host-logout').click();
      await expect(page.locator('#host-auth-state')).toHaveText('logged out');

      await open(page, legacy, 'login');
      // the plain log-in (this browser logged in: the account is offered first), its field typed into
      await useAnotherAccount(page);
      await view.getByRole('textbox', { name: 'Email address' }).fill(email);
      // Enter in the field: inside the shadow root it must not reach a form of the page
      await view.getByRole('textbox', { name: 'Email address' }).press('Enter');
      await expect(view.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
      await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email, signUpCode.id)).code!);
      await expect(page.locator('#host-auth-state')).toHaveText('logged in');
      await expectFormNeverSubmitted(page, legacy);
    });
  }

  test('legacy-quirks.html: the script tag defines the global Corbado despite an AMD loader', async ({ page }) => {
    await open(page, pages[3], 'signup');
    await expect(widget(page).getByRole('heading', { name: 'Create your account' })).toBeVisible();
    // the bundle is a plain script that assigns its one global; it does not register with define()
    expect(await page.evaluate(() => [typeof Corbado.load, (window as unknown as { amdDefined?: string[] }).amdDefined])).toEqual(['function', undefined]);
  });

  test('legacy-prototype.html: sign-up with a passkey and log-in with it (WebAuthn results sent as JSON despite Array.prototype.toJSON)', async ({ page }) => {
    const authenticator = await addAuthenticator(page);
    const email = uniqueEmail('legacy-passkey');
    await open(page, pages[0], 'signup');
    const view = await startSignUpByEmail(page, email, { url: page.url(), fullName: 'Legacy Tester' });
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email)).code!);
    await view.getByRole('button', { name: 'Create passkey' }).click();
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    expect(await authenticator.credentials()).toHaveLength(1);
    // no presence while the autofill offers the passkey, so that the visitor types the address first; set
    // before the log-out: the view restarts on the log-in screen at once, and with presence its autofill
    // would log the visitor in again (racing the navigation below)
    await authenticator.setPresence(false);
    await page.locator('#host-logout').click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');

    await open(page, pages[0], 'login');
    await useAnotherAccount(page);
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    await answerPasskeyLogin(page, authenticator);
    const finished = page.waitForResponse((response) => response.url().endsWith('/v2/auth/passkey/login/finish'));
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    expect((await finished).status()).toBe(200);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  });
});
