// The console (issue 33), as its operators use it, on the stack `npm start` runs (its console listener
// on E2E_CONSOLE_PORT): an owner signs in through our own widget with a passkey, finds a user by the
// first letters of their address, ends their session (their open browser is signed out within 15 s),
// disables them (their next log-in is refused), creates an API secret that @corbado/node-sdk then
// uses, sees a failed webhook delivery and redelivers it once the receiver runs, reads the trail of all
// this with the owner as actor and exports it. A support operator sees no delete or secret actions.
// Then every page through axe in both languages and schemes, a keyboard walk, 320 px, screenshots.
import { Config, SDK } from '@corbado/node-sdk';
import type { Browser, Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { freePort } from './apiInstances';
import { violationsOn } from './axeCheck';
import { addAuthenticator, admin, API_URL, expect, signInElsewhere, signUpByEmailCode, test, uniqueEmail } from './fixtures';
import { latestCode, newestMessageId } from './kit/corbadoKit';

const CONSOLE_URL = process.env.E2E_CONSOLE_URL!;
const BACKEND_API_URL = process.env.E2E_BACKEND_API_URL!;
const SHOTS = 'e2e/screenshots/console';

/** what a test leaves on the shared server, undone when it ends, passed or not */
const undoAtEnd: (() => void)[] = [];
const onTestEnd = (undo: () => void) => undoAtEnd.push(undo);
test.afterEach(() => {
  for (const undo of undoAtEnd.splice(0).reverse()) undo();
});

/**
 * Signs an operator (added by the admin command) in on the console by e-mail code; with `passkey`,
 * takes the passkey the widget offers next (the console goes on once the widget's process completes, so
 * the widget's "Passkey created" screen is not waited for).
 */
async function signInByCode(page: Page, email: string, passkey: boolean) {
  await page.goto(CONSOLE_URL);
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  const view = page.locator('#widget');
  await view.getByRole('textbox', { name: 'Email address' }).fill(email);
  const after = await newestMessageId(email, { apiUrl: API_URL });
  await view.getByRole('button', { name: 'Continue', exact: true }).click();
  await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill(await latestCode(email, { apiUrl: API_URL, after }));
  const users = page.getByRole('heading', { name: 'Users', level: 1 });
  const offer = view.getByRole('button', { name: 'Create passkey' });
  await expect(users.or(offer)).toBeVisible();
  if (await offer.isVisible()) await (passkey ? offer : view.getByRole('button', { name: 'Maybe later' })).click();
  else expect(passkey, 'the widget offered no passkey').toBe(false);
  await expect(users).toBeVisible();
}

/**
 * Types the first letters of the address (its local part but the last two characters) and opens the one
 * user found. The list is the one the search answered, with that user's row and no other: until the
 * search's answer arrives the list shown may hold exactly one other "Carla Console" (a user of an earlier
 * test, listed before this test's user signed up), which the count alone took for this one.
 */
async function findUser(page: Page, email: string) {
  await page.getByRole('searchbox', { name: 'Search users' }).fill(email.slice(0, email.indexOf('@') - 2));
  const rows = page.locator('table tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(email);
  const found = rows.getByRole('link', { name: 'Carla Console' });
  await found.click();
  await expect(page.getByRole('heading', { name: 'Carla Console', level: 1 })).toBeVisible();
}

/** The operator's id, as the console's session says it (the trail's actor is `operator:<id>`). */
function operatorId(page: Page): Promise<string> {
  return page.evaluate(async () => ((await (await fetch('/api/session')).json()) as { operator: { id: string } }).operator.id);
}

async function newUserBrowser(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signUpByEmailCode(page, email, { fullName: 'Carla Console' });
  // the account page checks now and then whether its session still lives
  await page.goto('/account.html');
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  return { context, page };
}

test.describe('the console', () => {
  test('the sign-in page\'s widget speaks the language the console is switched to', async ({ page }) => {
    await page.goto(CONSOLE_URL);
    const view = page.locator('#widget');
    await expect(view.getByRole('textbox', { name: 'Email address' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await expect(page.getByRole('heading', { name: 'Bei der Konsole anmelden' })).toBeVisible();
    await expect(view.getByRole('textbox', { name: 'E-Mail-Adresse' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
    await expect(view.getByRole('textbox', { name: 'Email address' })).toBeVisible();
  });

  test('an owner signs in with a passkey and helps a user: search, end session, disable, API secret, trail and export', async ({ browser }) => {
    test.setTimeout(180_000);
    const owner = uniqueEmail('console-owner');
    admin('operators', 'add', owner, '--role', 'owner');
    const context = await browser.newContext();
    const page = await context.newPage();
    await addAuthenticator(page);

    // the first sign-in by e-mail code, taking the passkey the widget offers; then out, and in with the passkey
    await signInByCode(page, owner, true);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
    const byPasskey = page.waitForResponse((response) => /\/v2\/auth\/passkey\/(login|mediation)\/finish$/.test(response.url()) && response.ok());
    // the widget's welcome back (this browser logged in before) or its plain log-in: whichever it shows
    // (`isVisible` does not wait, so the screen is waited for first)
    const passkeyButton = page.locator('#widget').getByRole('button', { name: /passkey/i }).first();
    const emailBox = page.locator('#widget').getByRole('textbox', { name: 'Email address' });
    await expect(passkeyButton.or(emailBox).first()).toBeVisible();
    if (await passkeyButton.isVisible()) await passkeyButton.click();
    else {
      await emailBox.fill(owner);
      await page.locator('#widget').getByRole('button', { name: 'Continue', exact: true }).click();
    }
    await byPasskey;
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    const ownerId = await operatorId(page);

    // a user of pro-1, signed in in a browser of their own
    const email = uniqueEmail('carla');
    const user = await newUserBrowser(browser, email);

    // found by the first letters of the address
    await page.goto(`${CONSOLE_URL}/#/pro-1/users`);
    await findUser(page, email);
    await expect(page.getByRole('heading', { name: 'Carla Console', level: 1 })).toBeVisible();
    const userId = (await page.locator('.facts dd').first().textContent())!.trim();
    expect(userId).toMatch(/^usr-/);

    // ends their session: their open browser is signed out within 15 s
    const ended = Date.now();
    await page.getByRole('button', { name: /^End session/ }).click();
    await expect(user.page.locator('#host-auth-state')).toHaveText('logged out', { timeout: 15_000 });
    expect(Date.now() - ended).toBeLessThan(15_000);

    // disables them, after a confirmation: their next log-in is refused
    await page.getByRole('button', { name: 'Disable user' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByTestId('user-status')).toHaveText('disabled');
    // the next log-in by e-mail code (as from another device, through the Frontend API) ends without a session
    await expect(signInElsewhere('pro-1', email)).rejects.toThrow();
    await user.page.reload();
    await expect(user.page.locator('#host-auth-state')).toHaveText('logged out');
    await user.context.close();

    // an API secret, shown once, that the host's backend then uses
    await page.goto(`${CONSOLE_URL}/#/pro-1/project`);
    await page.getByRole('button', { name: 'Create an API secret' }).click();
    const secret = (await page.getByTestId('secret').textContent())!.trim();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    const sdk = new SDK(new Config('pro-1', secret, API_URL, BACKEND_API_URL));
    expect((await sdk.users().get(userId)).status).toBe('disabled');

    // the trail of all this, the owner as actor; exported
    await page.goto(`${CONSOLE_URL}/#/pro-1/trail?user=${userId}`);
    const rows = page.locator('table tbody tr').filter({ hasText: `operator:${ownerId}` });
    for (const event of ['session.ended', 'user.disabled']) await expect(rows.filter({ hasText: event }).first()).toBeVisible();
    await expect(rows.first().getByRole('link', { name: userId })).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export as CSV' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8');
    expect(csv.split('\n')[0]).toContain('event');
    expect(csv).toContain(`operator:${ownerId}`);
    expect(csv).toContain('user.disabled');
    await context.close();
  });

  test('an owner sees a webhook delivery that failed, starts the receiver and redelivers it', async ({ browser }) => {
    test.setTimeout(120_000);
    const owner = uniqueEmail('console-hooks');
    admin('operators', 'add', owner, '--role', 'owner');
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInByCode(page, owner, false);
    const email = uniqueEmail('carla');
    const user = await newUserBrowser(browser, email);
    await user.context.close();
    await findUser(page, email);
    const userId = (await page.locator('.facts dd').first().textContent())!.trim();
    await page.goto(`${CONSOLE_URL}/#/pro-1/project`);

    // a webhook endpoint whose receiver is down: enabling the user again is an event whose delivery fails
    const port = await freePort();
    const hookUrl = `http://127.0.0.1:${port}/hook`;
    // removed however the test ends: every later event of the shared server (the other spec files') would
    // otherwise go to a port nobody listens on, retried for minutes
    onTestEnd(() => {
      const listed = admin('webhooks', 'list', 'pro-1') as unknown as { id: string; url: string }[];
      for (const { id } of listed.filter((e) => e.url === hookUrl)) admin('webhooks', 'remove', id);
    });
    await page.getByRole('textbox', { name: 'Endpoint URL' }).fill(hookUrl);
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.goto(`${CONSOLE_URL}/#/pro-1/users/${userId}`);
    // disabling the user (after the confirmation) is a user.updated event
    await page.getByRole('button', { name: 'Disable user' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByTestId('user-status')).toHaveText('disabled');
    // the user's page lists the deliveries about them, with the endpoint and the redeliver button
    const aboutUser = page.locator('section[aria-labelledby="deliveries"] tbody tr').filter({ hasText: `127.0.0.1:${port}` });
    await expect(async () => {
      await page.reload();
      await expect(aboutUser.filter({ hasText: 'user.updated' }).first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(aboutUser.first().getByRole('button', { name: /^Redeliver/ })).toBeVisible();
    await page.goto(`${CONSOLE_URL}/#/pro-1/project`);
    const endpoint = page.locator('li.webhook').filter({ hasText: `127.0.0.1:${port}` });
    const failed = endpoint.locator('tbody tr').filter({ hasText: /ECONNREFUSED|refused|fetch failed|connect/i });
    await expect(async () => {
      await page.reload();
      await endpoint.getByRole('button', { name: 'Deliveries' }).click();
      await expect(failed.first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });

    // the receiver starts; the delivery goes again
    const received: string[] = [];
    const receiver: Server = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(body);
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    try {
      await failed.first().getByRole('button', { name: /^Redeliver/ }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Sent again' })).toBeVisible();
      await expect.poll(() => received.some((body) => body.includes(userId))).toBe(true);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
    // the endpoint disabled and enabled again from the Project page
    await endpoint.getByRole('button', { name: `Disable: http://127.0.0.1:${port}/hook` }).click();
    await expect(endpoint).toContainText('Enabled: no');
    await endpoint.getByRole('button', { name: `Enable: http://127.0.0.1:${port}/hook` }).click();
    await expect(endpoint).toContainText('Enabled: yes');

    await context.close();
  });

  test('a support operator sees no delete or secret actions, and the server refuses them made by hand', async ({ browser }) => {
    test.setTimeout(120_000);
    const support = uniqueEmail('console-support');
    admin('operators', 'add', support, '--role', 'support', '--project', 'pro-1');
    const email = uniqueEmail('supported');
    const user = await newUserBrowser(browser, email);
    await user.context.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    await signInByCode(page, support, false);
    await findUser(page, email);
    await expect(page.getByRole('button', { name: 'Disable user' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete user' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
    await page.goto(`${CONSOLE_URL}/#/pro-1/project`);
    await expect(page.getByRole('heading', { name: 'Webhook endpoints' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'API secrets' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Create an API secret' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Operators' })).toHaveCount(0);

    // the same call by hand, with the session's own CSRF token: 403, and no secret made
    const answer = await page.evaluate(async () => {
      const { csrfToken } = (await (await fetch('/api/session')).json()) as { csrfToken: string };
      const response = await fetch('/api/projects/pro-1/secrets', { method: 'POST', headers: { 'X-Console-CSRF': csrfToken, 'Content-Type': 'application/json' }, body: '{}' });
      return { status: response.status, body: (await response.json()) as { error: { type: string } } };
    });
    expect(answer).toEqual({ status: 403, body: { error: expect.objectContaining({ type: 'forbidden' }) } });
    await context.close();
  });

  test('every page passes axe in English and German, light and dark; a keyboard walk; 320 px without sideways scroll; screenshots', async ({ browser }) => {
    test.setTimeout(180_000);
    mkdirSync(SHOTS, { recursive: true });
    const owner = uniqueEmail('console-sweep');
    admin('operators', 'add', owner, '--role', 'owner');
    const email = uniqueEmail('swept');
    const user = await newUserBrowser(browser, email);
    await user.context.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(CONSOLE_URL);
    await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
    await expect(page.locator('#widget').getByRole('textbox', { name: 'Email address' })).toBeVisible();
    expect(await violationsOn(page, ['#console'])).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/sign-in.png` });
    await signInByCode(page, owner, false);
    await findUser(page, email);
    const userHash = new URL(page.url()).hash;

    const pages: [string, string, RegExp][] = [
      ['users', '#/pro-1/users', /Users|Benutzer/],
      ['user', userHash, /Carla Console/],
      ['adoption', '#/pro-1/adoption', /Adoption|Nutzung/],
      ['trail', '#/pro-1/trail', /Trail|Protokoll/],
      ['project', '#/pro-1/project', /Project|Projekt/],
      ['operators', '#/operators', /Operators|Betreiber/],
    ];
    for (const [language, languageName] of [
      ['en', 'English'],
      ['de', 'Deutsch'],
    ] as const) {
      await page.getByRole('combobox', { name: /Language|Sprache/ }).selectOption({ label: languageName });
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const [name, hash, heading] of pages) {
          await page.goto(`${CONSOLE_URL}/${hash}`);
          await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
          await expect(page.getByRole('status').filter({ hasText: /Loading|Wird geladen/ })).toHaveCount(0);
          expect(await violationsOn(page, ['#console']), `${name} ${language} ${scheme}`).toEqual([]);
          if ((language === 'en' && scheme === 'light') || (language === 'de' && scheme === 'dark') || name === 'adoption') {
            await page.screenshot({ path: `${SHOTS}/${name}-${language}-${scheme}.png`, fullPage: true });
          }
        }
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption({ label: 'English' });

    // 320 px: no page scrolls sideways
    await page.setViewportSize({ width: 320, height: 800 });
    for (const [name, hash, heading] of pages) {
      await page.goto(`${CONSOLE_URL}/${hash}`);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(320);
      if (name === 'users' || name === 'user') await page.screenshot({ path: `${SHOTS}/${name}-320.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // the keyboard alone: skip link, a page picked from the navigation, a destructive action's confirmation cancelled by Escape
    await page.goto(`${CONSOLE_URL}/${userHash}`);
    // loaded afresh, so that the keyboard starts at the top of the document
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Carla Console', level: 1 })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to the content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
    const disable = page.getByRole('button', { name: 'Disable user' });
    for (let i = 0; i < 40 && !(await disable.evaluate((element) => element === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(disable).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.getByRole('dialog').getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.screenshot({ path: `${SHOTS}/confirm-dialog.png` });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(disable).toBeFocused();
    await expect(page.getByTestId('user-status')).toHaveText('active');
    const trailLink = page.getByRole('navigation').getByRole('link', { name: 'Trail' });
    await trailLink.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Trail', level: 1 })).toBeVisible();
    await context.close();
  });
});
