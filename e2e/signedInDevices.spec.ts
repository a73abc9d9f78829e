import type { Browser, BrowserContext, Page } from '@playwright/test';
import { API_URL, createProject, expect, latestMessage, signUpByEmailCode, test, uniqueEmail, widget } from './fixtures';

// Issue 24: the devices a person is signed in on, and ending them. Each browser here is a context of
// its own (its own storage and cookies), as two computers would be; the account page of the demo shows
// the user details view. The long session rotates at every refresh; a retired value replayed ends it.

const PLEASE_LOG_IN = 'Please log in to see this.';

/** Logs in on the log-in page of a project with the code sent to the address. */
async function logInByEmailCode(page: Page, projectId: string, email: string) {
  await page.goto(`/login.html?project=${projectId}`);
  const view = widget(page);
  await view.getByRole('textbox', { name: 'Email address' }).fill(email);
  const sent = (await latestMessage(email)).id;
  await view.getByRole('button', { name: 'Continue', exact: true }).click();
  await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email, sent)).code!);
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
}

/** A browser of its own on the account page, signed in to the account of `email`. */
async function anotherBrowser(browser: Browser, projectId: string, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await logInByEmailCode(page, projectId, email);
  await page.goto(`/account.html?project=${projectId}`);
  await expect(page.locator('#user-details')).toContainText(email);
  return { context, page };
}

const devices = (page: Page) => page.locator('#user-details').getByRole('listitem').filter({ hasText: /Signed in .*, last active / });

test.describe('the devices a person is signed in on', () => {
  test('the account page lists them; signing one out signs THAT browser out within seconds; then everywhere else', async ({ page, browser }) => {
    test.setTimeout(120_000);
    const projectId = await createProject({ passkeys: false });
    const email = uniqueEmail('devices');
    await signUpByEmailCode(page, email, { url: `/?project=${projectId}#register` });
    const second = await anotherBrowser(browser, projectId, email);
    const third = await anotherBrowser(browser, projectId, email);
    // how often the second browser asks whether its session lives (its page is open and visible)
    const checks: number[] = [];
    second.page.on('request', (request) => {
      if (request.url().endsWith('/v2/me/sessions/current')) checks.push(Date.now());
    });

    await page.goto(`/account.html?project=${projectId}`);
    const details = page.locator('#user-details');
    await expect(details.getByRole('heading', { name: 'Signed-in devices' })).toBeVisible();
    await expect(devices(page)).toHaveCount(3);
    await expect(devices(page).filter({ hasText: 'This device' })).toHaveCount(1);
    await expect(devices(page).first()).toContainText(/Chrome (Headless )?\d+ on Linux/);

    // the second browser logged in before the third: the list's order is the last use, newest first
    const endButtons = details.getByRole('button', { name: /^Sign out: Chrome (Headless )?\d+ on Linux$/ });
    await expect(endButtons).toHaveCount(2);
    const ended = Date.now();
    await endButtons.last().click();
    await expect(devices(page)).toHaveCount(2);
    await expect(details.getByRole('heading', { name: 'Signed-in devices' })).toBeFocused();

    // the browser whose session ended learns it at its next check, without a refresh being due
    await expect(second.page.locator('#host-auth-state')).toHaveText('logged out', { timeout: 15_000 });
    expect(Date.now() - ended).toBeLessThan(15_000);
    await expect(second.page.locator('#user-details')).toContainText(PLEASE_LOG_IN);
    expect(await second.page.evaluate(() => localStorage.getItem('cbo_long_session'))).toBeNull();
    // bounded: never more often than the 10 s check
    for (let i = 1; i < checks.length; i++) expect(checks[i]! - checks[i - 1]!).toBeGreaterThan(9_000);
    // the other browsers are still in
    await expect(third.page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');

    await details.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(devices(page)).toHaveCount(1);
    await expect(details.getByRole('button', { name: 'Sign out everywhere else' })).toHaveCount(0);
    await expect(third.page.locator('#host-auth-state')).toHaveText('logged out', { timeout: 15_000 });
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await second.context.close();
    await third.context.close();
  });

  test('German: the same list and actions in German', async ({ page }) => {
    const projectId = await createProject({ passkeys: false });
    const email = uniqueEmail('devices-de');
    await signUpByEmailCode(page, email, { url: `/?project=${projectId}#register` });
    await page.goto(`/account.html?project=${projectId}&lang=de`);
    const details = page.locator('#user-details');
    await expect(details.getByRole('heading', { name: 'Angemeldete Geräte' })).toBeVisible();
    await expect(details.getByRole('listitem').filter({ hasText: /^Chrome (Headless )?\d+ auf Linux\s*Angemeldet am .*, zuletzt aktiv am .*Dieses Gerät$/ })).toHaveCount(1);
  });
});

test.describe('the long session rotates in a real browser (a prod project: the HttpOnly cookie)', () => {
  test('two tabs refreshing at once keep the chain; a copy of a retired value replayed ends it, and the browser is signed out', async ({ page, context }) => {
    test.setTimeout(120_000);
    // 70 s: a short session needs its refresh (under 60 s left) from its second check on
    const projectId = await createProject({ environment: 'prod', passkeys: false, shortSessionLifetimeSeconds: 70 });
    const email = uniqueEmail('rotation');
    await signUpByEmailCode(page, email, { url: `/?project=${projectId}#register` });
    const cookie = async () => (await context.cookies(API_URL)).find((c) => c.name === 'cbo_long_session')!;
    const first = await cookie();
    expect(first.httpOnly).toBe(true);
    await page.goto(`/account.html?project=${projectId}`);
    const second = await context.newPage();
    await second.goto(`/account.html?project=${projectId}`);
    await expect(second.locator('#host-auth-state')).toHaveText('logged in');

    // both tabs ask at the same moment, with the same cookie: one value comes back to both
    const refreshAt = (tab: Page) =>
      tab.evaluate(
        ([api, project]) => fetch(`${api}/v2/me/refresh`, { method: 'POST', credentials: 'include', headers: { 'X-Corbado-ProjectID': project! } }).then((r) => r.status),
        [API_URL, projectId],
      );
    expect(await Promise.all([refreshAt(page), refreshAt(second)])).toEqual([200, 200]);
    const rotated = await cookie();
    expect(rotated.value).not.toBe(first.value);
    // the widget's own refreshes rotate on from there (the tabs take turns, so either may be the one
    // that asks: a refresh is due every 10 to 20 s), and the tabs stay signed in
    await expect.poll(async () => (await cookie()).value, { timeout: 50_000, intervals: [500] }).not.toBe(rotated.value);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(second.locator('#host-auth-state')).toHaveText('logged in');

    // someone replays the first value (two rotations ago): the whole chain ends
    const replay = await fetch(`${API_URL}/v2/me/refresh`, { method: 'POST', headers: { 'X-Corbado-ProjectID': projectId, Cookie: `cbo_long_session=${first.value}` } });
    expect(replay.status).toBe(401);
    // at the next check (10 s) a tab learns it, and the other follows through the storage
    await expect(page.locator('#host-auth-state')).toHaveText('logged out', { timeout: 25_000 });
    await expect(second.locator('#host-auth-state')).toHaveText('logged out', { timeout: 10_000 });
    await expect(page.locator('#user-details')).toContainText(PLEASE_LOG_IN);
  });
});
