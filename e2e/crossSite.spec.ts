// Where the site owner puts the server, over https with real host names: the shop's page at
// https://shop.test, its Frontend API on the same site (https://auth.shop.test) or on another site
// (https://authsite.test), in Chromium with third-party cookies allowed (a profile of its own, as a
// visitor's: Playwright's usual contexts are off the record, where Chromium blocks them like Incognito)
// and blocked (--test-third-party-cookie-phaseout); both checked below with a plain SameSite=None
// cookie. The test makes
// a throw-away certificate (openssl) that Chromium accepts by its SPKI hash, a TLS front that serves the
// page and relays the two API names to two API processes, and maps the three names to that front
// (--host-resolver-rules, loopback only). Measured: a prod visitor is still signed in after the short
// session expired (10 s), and a GitHub sign-in through the stand-in completes; a callback carried to
// another browser is refused. README, "Where to put the server", is filled from this file's results.
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiInstance, type ApiInstance } from './apiInstances';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';
import { expect, test, uniqueEmail } from './fixtures';
import * as kit from './kit/corbadoKit';

const SHOP = 'shop.test';
const SAME_SITE = 'auth.shop.test';
const OTHER_SITE = 'authsite.test';
const NAMES = [SHOP, SAME_SITE, OTHER_SITE];
const SHORT_SESSION_SECONDS = 10;

interface Deployment {
  /** the page of the shop that talks to this API */
  page: string;
  api: ApiInstance;
  /** the API's own http address (the outbox is read there) */
  direct: string;
  projectId: string;
}

let tmp: string;
let front: Server;
let tls: { key: string; cert: string; spki: string };
const deployments = new Map<string, Deployment>();
type Mode = 'allowed' | 'blocked';
const MODES: Mode[] = ['allowed', 'blocked'];
let chromiumArgs: string[];

/** A free port, known before the API starts (its settings name it). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A self-signed certificate for the three names and its SPKI pin. */
function makeCertificate(): { key: string; cert: string; spki: string } {
  const keyPath = join(tmp, 'front.key');
  const certPath = join(tmp, 'front.crt');
  execFileSync(
    process.env.OPENSSL_PATH ?? '/usr/bin/openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1', '-subj', `/CN=${SHOP}`, '-addext', `subjectAltName=${NAMES.map((n) => `DNS:${n}`).join(',')}`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const cert = readFileSync(certPath, 'utf8');
  const spki = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
  return { key: readFileSync(keyPath, 'utf8'), cert, spki: createHash('sha256').update(spki).digest('base64') };
}

/** The shop's page for one API: the widget's auth view and nothing else. */
function shopPage(deployment: Deployment, apiName: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Shop</title><div id="widget"></div>
<script src="/corbado.js"></script>
<script>Corbado.load({ projectId: ${JSON.stringify(deployment.projectId)}, frontendApiUrl: "https://${apiName}" }).then(() => Corbado.mountAuthUI(document.getElementById('widget')));</script></html>`;
}

/** The TLS front: the shop's pages, the two API names relayed to their processes, and a cookie probe on the other site. */
function startFront(): Promise<number> {
  const bundle = readFileSync(new URL('../dist/corbado.js', import.meta.url));
  front = createHttpsServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    if (host === SHOP) {
      const deployment = [...deployments.entries()].find(([, d]) => d.page === path);
      if (path === '/corbado.js') {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        res.end(bundle);
      } else if (deployment) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(shopPage(deployment[1], deployment[0]));
      } else {
        res.writeHead(404);
        res.end();
      }
      return;
    }
    // a plain third-party cookie (SameSite=None, not Partitioned): set by one fetch, read back by the next
    if (host === OTHER_SITE && path.startsWith('/_probe/')) {
      const cors = { 'access-control-allow-origin': `https://${SHOP}`, 'access-control-allow-credentials': 'true', 'cache-control': 'no-store' };
      if (path === '/_probe/set') res.writeHead(204, { ...cors, 'set-cookie': 'probe=1; Path=/; Secure; SameSite=None' });
      else res.writeHead(200, { ...cors, 'content-type': 'text/plain' });
      res.end(path === '/_probe/set' ? undefined : (req.headers.cookie ?? ''));
      return;
    }
    const target = deployments.get(host);
    if (!target) {
      res.writeHead(421);
      res.end();
      return;
    }
    const upstream = new URL(target.direct);
    const relay = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    relay.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(relay);
  });
  return new Promise((resolve) => front.listen(0, '127.0.0.1', () => resolve((front.address() as AddressInfo).port)));
}

/** One API process under `name` (its PUBLIC_URL), with a prod project for the shop. */
async function deploy(name: string, page: string): Promise<void> {
  const port = await freePort();
  const direct = `http://127.0.0.1:${port}`;
  const sim = `${direct}/_dev/oauth/github`;
  const api = await startApiInstance({
    API_PORT: String(port),
    API_HOST: '127.0.0.1',
    BACKEND_API_PORT: 'off',
    DATABASE_PATH: join(tmp, `${name}.sqlite`),
    PUBLIC_URL: `https://${name}`,
    DEMO_ORIGIN: `https://${SHOP}`,
    // the browser reaches the GitHub stand-in under PUBLIC_URL; the server calls it directly (no resolver maps the names for it)
    SOCIAL_GITHUB_TOKEN_URL: `${sim}/login/oauth/access_token`,
    SOCIAL_GITHUB_USERINFO_URL: `${sim}/api/user`,
    SOCIAL_GITHUB_EMAILS_URL: `${sim}/api/user/emails`,
  });
  const created = await fetch(`${direct}/_dev/projects`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      appName: 'Shop',
      allowedOrigins: [`https://${SHOP}`],
      environment: 'prod',
      passkeys: false,
      socialProviders: ['github'],
      shortSessionLifetimeSeconds: SHORT_SESSION_SECONDS,
    }),
  });
  expect(created.status).toBe(201);
  deployments.set(name, { page, api, direct, projectId: ((await created.json()) as { id: string }).id });
}

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'corbado-cross-site-'));
  tls = makeCertificate();
  await Promise.all([deploy(SAME_SITE, '/same-site.html'), deploy(OTHER_SITE, '/other-site.html')]);
  const port = await startFront();
  const args = [
    ...CHROMIUM_ARGS,
    `--host-resolver-rules=${NAMES.map((n) => `MAP ${n} 127.0.0.1:${port}`).join(', ')}, MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1`,
    `--ignore-certificate-errors-spki-list=${tls.spki}`,
  ];
  chromiumArgs = args;
});

/** A new visitor's browser: its own profile (third-party cookies allowed), or one that blocks them. */
async function visitor(mode: Mode): Promise<BrowserContext> {
  if (mode === 'allowed') {
    // a visitor's profile that allows third-party cookies (Chromium's setting "Allow third-party cookies")
    const profile = mkdtempSync(join(tmp, 'profile-'));
    mkdirSync(join(profile, 'Default'));
    writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: 0, block_third_party_cookies: false } }));
    return chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: chromiumArgs });
  }
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...chromiumArgs, '--test-third-party-cookie-phaseout'] });
  const context = await browser.newContext();
  context.on('close', () => void browser.close());
  return context;
}

test.afterAll(async () => {
  const closed = new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
  front?.closeAllConnections();
  await closed;
  await Promise.all([...deployments.values()].map((d) => d.api.stop()));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const url = (name: string) => `https://${SHOP}${deployments.get(name)!.page}`;
const persistence = (page: Page) => page.evaluate(() => (window as unknown as { Corbado: { sessionPersistence?: string } }).Corbado.sessionPersistence);

/** Signs a new visitor up by e-mail code, waits out the short session with no page open, and comes back. */
async function stillSignedInAfterShortSession(context: BrowserContext, name: string): Promise<{ before: string | undefined; after: boolean; persistence: string | undefined }> {
  const page = await context.newPage();
  await page.goto(url(name));
  await kit.signUpByEmailCode(page.locator('#widget'), uniqueEmail('cross-site'), { apiUrl: deployments.get(name)!.direct, timeout: 20_000 });
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
      await fetch(`https://${site}/_probe/set`, { credentials: 'include' });
      return (await fetch(`https://${site}/_probe/read`, { credentials: 'include' })).text();
    }, OTHER_SITE);
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
  await page.route(`https://${OTHER_SITE}/_dev/oauth/github/**`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    // fetched by the test itself, from the stand-in's own address (no resolver maps the names for it)
    const path = new URL(route.request().url()).pathname;
    const answer = await route.fetch({ url: deployments.get(OTHER_SITE)!.direct + path, maxRedirects: 0 });
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
