import { chromium, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';
import { API_URL, createProject, expect, fulfillApiError, latestMessage, signUpByEmailCode, test, uniqueEmail, useAnotherAccount, widget } from './fixtures';

// Signed in means signed in (issue 18): across visits, browser restarts, tabs and server trouble, on the
// demo pages against the real Frontend API. The test projects' short sessions are made short so that
// their expiry comes within a test; nothing here asserts how long anything took.

const PLEASE_LOG_IN = 'Please log in to see this.';

/** the `exp` of the short session a page keeps, in seconds */
async function storedExpiry(page: Page): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('cbo_short_session'));
  expect(token).toBeTruthy();
  return (JSON.parse(Buffer.from(token!.split('.')[1], 'base64url').toString()) as { exp: number }).exp;
}

/** Waits (without a page open) until a short session has expired. */
async function outlive(exp: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, exp * 1000 - Date.now()) + 1_500));
}

async function expectAccountOf(page: Page, email: string) {
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  await expect(page.locator('#host-user')).toContainText(email);
  await expect(page.locator('#user-details')).toContainText(email);
}

test.describe('the session', () => {
  test('a production visitor returning after the short session expired is still signed in, also after a browser restart', async () => {
    test.setTimeout(120_000);
    const projectId = await createProject({ environment: 'prod', passkeys: false, shortSessionLifetimeSeconds: 10 });
    const profile = mkdtempSync(join(tmpdir(), 'corbado-e2e-profile-'));
    const launch = () =>
      chromium.launchPersistentContext(profile, {
        executablePath: chromiumPath(),
        args: CHROMIUM_ARGS,
        baseURL: test.info().project.use.baseURL,
      });
    const email = uniqueEmail('session-prod');
    let browser = await launch();
    try {
      let page = await browser.newPage();
      await signUpByEmailCode(page, email, { url: `/?project=${projectId}#register` });
      // production: the long session is the API's HttpOnly cookie, nothing the page can read
      expect(await page.evaluate(() => localStorage.getItem('cbo_long_session'))).toBeNull();
      const firstExpiry = await storedExpiry(page);
      await page.close();
      await outlive(firstExpiry);

      page = await browser.newPage();
      const refreshed = page.waitForResponse((response) => response.url().endsWith('/v2/me/refresh'));
      await page.goto(`/account.html?project=${projectId}`);
      await expectAccountOf(page, email);
      expect((await refreshed).status()).toBe(200);
      const secondExpiry = await storedExpiry(page);
      expect(secondExpiry).toBeGreaterThan(firstExpiry);

      await browser.close();
      await outlive(secondExpiry);
      browser = await launch();
      page = await browser.newPage();
      await page.goto(`/account.html?project=${projectId}`);
      await expectAccountOf(page, email);
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  test('every tab follows: a log-out in one signs the other out, a log-in in one signs the other in', async ({ context }) => {
    const projectId = await createProject({ passkeys: false });
    const email = uniqueEmail('session-tabs');
    const first = await context.newPage();
    await signUpByEmailCode(first, email, { url: `/?project=${projectId}#register` });
    const second = await context.newPage();
    await second.goto(`/account.html?project=${projectId}`);
    await expectAccountOf(second, email);

    // the visitor switches to the first tab and logs out there
    await first.bringToFront();
    await first.goto(`/account.html?project=${projectId}`);
    await first.getByRole('button', { name: 'Log out' }).click();
    await expect(first.locator('#host-auth-state')).toHaveText('logged out');
    // the other tab follows at once (well before its next 10 s check): state, user and its views
    await expect(second.locator('#host-auth-state')).toHaveText('logged out');
    await expect(second.locator('#host-user')).toHaveText('none');
    await expect(widget(second)).toContainText(PLEASE_LOG_IN);
    await expect(second.locator('#user-details')).toContainText(PLEASE_LOG_IN);

    await first.goto(`/login.html?project=${projectId}`);
    await useAnotherAccount(first);
    const view = widget(first);
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    const sent = (await latestMessage(email)).id;
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email, sent)).code!);
    await expect(first.locator('#host-auth-state')).toHaveText('logged in');
    await expectAccountOf(second, email);
  });

  test('server trouble keeps the visitor: 500s to refresh for 30 s, then refreshed once the API is back; a 401 signs out', async ({ page }) => {
    test.setTimeout(150_000);
    // with 65 s, a session needs its refresh (under 60 s left) from the first check on
    const projectId = await createProject({ passkeys: false, shortSessionLifetimeSeconds: 65 });
    const email = uniqueEmail('session-outage');
    await signUpByEmailCode(page, email, { url: `/?project=${projectId}#register` });
    await page.goto(`/account.html?project=${projectId}`);
    await expectAccountOf(page, email);
    const issued = await storedExpiry(page);

    let failing = true;
    let failures = 0;
    let firstFailure!: () => void;
    const outageStarted = new Promise<void>((resolve) => (firstFailure = resolve));
    await page.route('**/v2/me/refresh', async (route) => {
      if (!failing || route.request().method() !== 'POST') return route.fallback();
      failures++;
      firstFailure();
      await fulfillApiError(route, 500, 'internal_error', 'The database is restarting');
    });
    await outageStarted;
    await page.waitForTimeout(30_000);
    // still signed in after 30 s of failed refreshes, which were retried
    expect(failures).toBeGreaterThan(1);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(page.locator('#user-details')).toContainText(email);
    expect(await storedExpiry(page)).toBe(issued);

    failing = false;
    const recovered = await page.waitForResponse((response) => response.url().endsWith('/v2/me/refresh') && response.status() === 200);
    expect(((await recovered.json()) as { shortSession: string }).shortSession).toBeTruthy();
    await expect.poll(() => storedExpiry(page)).toBeGreaterThan(issued);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');

    // the long session ends on the server (as a log-out elsewhere ends it): the next refresh is refused
    const longSession = await page.evaluate(() => localStorage.getItem('cbo_long_session'));
    const logout = await fetch(`${API_URL}/v2/me/logout`, {
      method: 'POST',
      headers: { 'X-Corbado-ProjectID': projectId, Authorization: `Bearer ${longSession}` },
    });
    expect(logout.status).toBe(204);
    const refused = await page.waitForResponse((response) => response.url().endsWith('/v2/me/refresh'), { timeout: 20_000 });
    expect(refused.status()).toBe(401);
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    await expect(page.locator('#user-details')).toContainText(PLEASE_LOG_IN);
    expect(await page.evaluate(() => localStorage.getItem('cbo_long_session'))).toBeNull();
  });
});
