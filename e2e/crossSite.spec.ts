// Where the site owner puts the server, over https with real host names: the shop's page at
// https://shop.test, its Frontend API on the same site (https://auth.shop.test) or on another site
// (https://authsite.test), in Chromium with third-party cookies allowed (a profile of its own, as a
// visitor's: Playwright's usual contexts are off the record, where Chromium blocks them like Incognito)
// and blocked (--test-third-party-cookie-phaseout); both checked below with a plain SameSite=None
// cookie. The stack (e2e/crossSiteStack.ts: a throw-away certificate that Chromium accepts by its SPKI
// hash, a TLS front for the page and the two API processes) is made by the test; Chromium maps the
// three names to the front (--host-resolver-rules, loopback only). Measured: a prod visitor is still signed in after the short
// session expired (10 s), and a GitHub sign-in through the stand-in completes; a callback carried to
// another browser is refused. README, "Where to put the server", is filled from this file's results.
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';
import { NAMES, OTHER_SITE, SAME_SITE, SHORT_SESSION_SECONDS, startCrossSiteStack, type CrossSiteStack } from './crossSiteStack';
import { expect, test, uniqueEmail } from './fixtures';
import * as kit from './kit/corbadoKit';

type Mode = 'allowed' | 'blocked';
const MODES: Mode[] = ['allowed', 'blocked'];
let stack: CrossSiteStack;
let chromiumArgs: string[];

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  stack = await startCrossSiteStack();
  chromiumArgs = [
    ...CHROMIUM_ARGS,
    // loopback only: the three names to the front, every other name unresolvable
    `--host-resolver-rules=${NAMES.map((n) => `MAP ${n} 127.0.0.1:${stack.port}`).join(', ')}, MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1`,
    `--ignore-certificate-errors-spki-list=${stack.spki}`,
  ];
});

test.afterAll(async () => {
  await stack?.close();
});

/** A new visitor's browser: its own profile (third-party cookies allowed), or one that blocks them. */
async function visitor(mode: Mode): Promise<BrowserContext> {
  if (mode === 'allowed') {
    // a visitor's profile that allows third-party cookies (Chromium's setting "Allow third-party cookies")
    const profile = mkdtempSync(join(stack.tmp, 'profile-'));
    mkdirSync(join(profile, 'Default'));
    writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: 0, block_third_party_cookies: false } }));
    return chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: chromiumArgs });
  }
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...chromiumArgs, '--test-third-party-cookie-phaseout'] });
  const context = await browser.newContext();
  context.on('close', () => void browser.close());
  return context;
}

const url = (name: string) => stack.pageUrl(name);
const persistence = (page: Page) => page.evaluate(() => (window as unknown as { Corbado: { sessionPersistence?: string } }).Corbado.sessionPersistence);

/** Signs a new visitor up by e-mail code, waits out the short session with no page open, and comes back. */
async function stillSignedInAfterShortSession(context: BrowserContext, name: string): Promise<{ before: string | undefined; after: boolean; persistence: string | undefined }> {
  const page = await context.newPage();
  await page.goto(url(name));
  await kit.signUpByEmailCode(page.locator('#widget'), uniqueEmail('cross-site'), { apiUrl: stack.direct(name), timeout: 20_000 });
  // the widget learns where its long session is kept right after the sign-in (one question across sites)
  await expect.poll(() => persistence(page)).toBeDefined();
  const before = await persistence(page);
  await page.close();
  await new Promise((resolve) => setTimeout(resolve, (SHORT_SESSION_SECONDS + 2) * 1000));
  const again = await context.newPage();
  await again.goto(url(name));
  const after = await expect
    .poll(() => kit.isLoggedIn(again), { timeout: 10_000 })
    .toBe(true)
    .then(
      () => true,
      () => false,
    );
  const result = { before, after, persistence: await persistence(again) };
  await again.close();
  return result;
}

test('the browsers: third-party cookies are kept in one and refused in the other (a plain SameSite=None cookie of the other site)', async () => {
  for (const mode of MODES) {
    const context = await visitor(mode);
    const page = await context.newPage();
    await page.goto(url(OTHER_SITE));
    const read = await page.evaluate(async (site) => {
      await fetch(`${site}/_probe/set`, { credentials: 'include' });
      return (await fetch(`${site}/_probe/read`, { credentials: 'include' })).text();
    }, `https://${OTHER_SITE}:${stack.port}`);
    // (the widget's own Partitioned cookie may be there too)
    expect(read.split('; ').includes('probe=1'), `${mode}: ${read}`).toBe(mode === 'allowed');
    await context.close();
  }
});

test('a prod visitor is still signed in after the short session expired: same site and another site, third-party cookies allowed and blocked', async () => {
  const rows = await Promise.all(
    MODES.flatMap((mode) =>
      [SAME_SITE, OTHER_SITE].map(async (name) => {
        const context = await visitor(mode);
        try {
          return { mode, name, ...(await stillSignedInAfterShortSession(context, name)) };
        } finally {
          await context.close();
        }
      }),
    ),
  );
  console.info(JSON.stringify(rows));
  for (const row of rows) {
    expect(row, `${row.name}, third-party cookies ${row.mode}`).toMatchObject({ before: 'cookie', after: true, persistence: 'cookie' });
  }
});

/** On the stand-in's page: a new GitHub account, vouched for, and Continue. */
async function consentOnGitHub(page: Page, email: string): Promise<void> {
  await page.waitForURL(/\/_dev\/oauth\/github\//);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('checkbox').setChecked(true);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

test('a GitHub sign-in through the stand-in completes from a page on another site, third-party cookies allowed and blocked', async () => {
  for (const mode of MODES) {
    for (const name of [SAME_SITE, OTHER_SITE]) {
      const context = await visitor(mode);
      const page = await context.newPage();
      await page.goto(url(name));
      await page.locator('#widget').getByRole('button', { name: 'Continue with GitHub' }).click();
      await consentOnGitHub(page, uniqueEmail('cross-site-github'));
      await expect.poll(() => kit.isLoggedIn(page), { timeout: 15_000, message: `${name}, third-party cookies ${mode}` }).toBe(true);
      // the result secret has left the address
      expect(page.url()).not.toContain('cbo_social_result');
      await context.close();
    }
  }
});

test('SECURITY.md 39 across sites: a callback carried to another browser is refused there, and the starting page signs nobody in', async () => {
  const starting = await visitor('blocked');
  const page = await starting.newPage();
  await page.goto(url(OTHER_SITE));
  let carried: string | undefined;
  // the stand-in's answer to the consent is the redirect to the callback: taken, and not followed here
  await page.route(`https://${OTHER_SITE}:${stack.port}/_dev/oauth/github/**`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    // fetched by the test itself, from the stand-in's own address (no resolver maps the names for it)
    const path = new URL(route.request().url()).pathname;
    const answer = await route.fetch({ url: stack.direct(OTHER_SITE) + path, maxRedirects: 0 });
    carried = answer.headers()['location'];
    await route.abort();
  });
  await page.locator('#widget').getByRole('button', { name: 'Continue with GitHub' }).click();
  await consentOnGitHub(page, uniqueEmail('cross-site-carried'));
  await expect.poll(() => carried).toBeDefined();
  const other = await visitor('blocked');
  const elsewhere = await other.newPage();
  await elsewhere.goto(carried!);
  await expect(elsewhere.getByRole('alert')).toHaveText('This sign-in was started in another browser. Start it again in the browser you want to use.');
  await page.goto(url(OTHER_SITE));
  await page.waitForTimeout(1_000);
  expect(await kit.isLoggedIn(page)).toBe(false);
  await other.close();
  await starting.close();
});
