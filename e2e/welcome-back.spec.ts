import type { Browser, BrowserContext, Page } from '@playwright/test';
import { addAuthenticator, expect, latestMessage, signUpByEmailCode, test, uniqueEmail, widget } from './fixtures';
import { logOut, type PasskeyCredential } from './kit/corbadoKit';

// Welcome back (issue 27, README "Welcome back"): a visitor logs in, closes the browser, comes back in a
// new browser session with what the first one left on disk (local storage, cookies, the passkey on the
// device) and logs in with one action. "Use another account" forgets; `rememberLastUser: false` keeps
// nothing.

const KEY = 'cbo_last_user-pro-1';

interface Session {
  context: BrowserContext;
  page: Page;
}

/**
 * Logs out and closes the browser; answers what it left on disk and, with a device (a platform
 * authenticator), its passkeys.
 */
async function closeBrowser(page: Page, device?: { credentials(): Promise<PasskeyCredential[]> }) {
  await logOut(page);
  const state = await page.context().storageState();
  const credentials = device ? await device.credentials() : undefined;
  await page.context().close();
  return { state, credentials };
}

/**
 * A new browser session on the same disk and the same device: the stored state, and a platform
 * authenticator with the same passkeys only where there was one. (A device that gained one since would
 * contradict the capabilities the widget measured before: the widget replaces its process as soon as the
 * browser says so, and the log-in by code then offers a passkey, which the test's comeback did not have.)
 */
async function comeBack(browser: Browser, baseURL: string, left: Awaited<ReturnType<typeof closeBrowser>>): Promise<Session> {
  const context = await browser.newContext({ baseURL, storageState: left.state });
  const page = await context.newPage();
  if (left.credentials) await (await addAuthenticator(page)).addCredentials(left.credentials);
  return { context, page };
}

const remembered = (page: Page) => page.evaluate((key) => localStorage.getItem(key), KEY);

test.describe('welcome back', () => {
  test('with a passkey: the main button starts the passkey log-in, and one click logs the visitor in', async ({ browser, page, baseURL }) => {
    const device = await addAuthenticator(page);
    const email = uniqueEmail('back-passkey');
    await signUpByEmailCode(page, email, { passkey: true });
    expect(JSON.parse((await remembered(page))!)).toEqual({ value: email, type: 'email', method: 'passkey' });
    const again = await comeBack(browser, baseURL!, await closeBrowser(page, device));

    await again.page.goto('/login.html');
    const view = widget(again.page);
    await expect(view.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await expect(view.getByText(email, { exact: true })).toBeVisible();
    // nothing happens by itself: the offer waits for the visitor
    await expect(again.page.locator('#host-auth-state')).toHaveText('logged out');
    await view.getByRole('button', { name: 'Log in with passkey' }).click();
    await expect(again.page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(again.page.locator('#host-events')).toContainText('corbado:login passkey');
    await again.context.close();
  });

  test('with an e-mail code: the main button sends the code to that address and shows the code screen', async ({ browser, page, baseURL }) => {
    const email = uniqueEmail('back-code');
    await signUpByEmailCode(page, email);
    const sent = (await latestMessage(email)).id;
    const again = await comeBack(browser, baseURL!, await closeBrowser(page));

    await again.page.goto('/');
    const view = widget(again.page);
    await expect(view.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await expect(view.getByText(email, { exact: true })).toBeVisible();
    await view.getByRole('button', { name: 'Email me a code' }).click();
    await expect(view.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
    await expect(view.getByText(email, { exact: true })).toBeVisible();
    const code = await latestMessage(email, sent);
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill(code.code!);
    await expect(again.page.locator('#host-auth-state')).toHaveText('logged in');
    await again.context.close();
  });

  test('"Use another account" forgets: nothing kept, the plain log-in now and after a reload', async ({ page }) => {
    const email = uniqueEmail('back-other');
    await signUpByEmailCode(page, email);
    await logOut(page);
    await page.goto('/login.html');
    const view = widget(page);
    await expect(view.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    expect(await remembered(page)).toContain(email);
    await view.getByRole('button', { name: 'Use another account' }).click();
    await expect(view.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(view.getByRole('textbox', { name: 'Email address' })).toBeFocused();
    expect(await remembered(page)).toBeNull();
    await page.reload();
    await expect(view.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(view.getByRole('textbox', { name: 'Email address' })).toHaveValue('');
    expect(await remembered(page)).toBeNull();
  });

  test('rememberLastUser: false keeps nothing: after a log-in and a log-out the plain log-in shows', async ({ page }) => {
    const email = uniqueEmail('back-never');
    await signUpByEmailCode(page, email, { url: '/?remember=off#register' });
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('cbo_last_user')))).toEqual([]);
    await logOut(page);
    await page.goto('/login.html?remember=off');
    await expect(widget(page).getByRole('heading', { name: 'Log in' })).toBeVisible();
    expect(await remembered(page)).toBeNull();
  });
});
