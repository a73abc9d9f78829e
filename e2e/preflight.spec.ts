import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { API_URL, expect, test, widget } from './fixtures';

// No visitor pays a CORS preflight before the first screen. A fresh visitor's two first calls
// (session-config, process/init) are simple requests: the project in the query, process/init's JSON as
// text/plain, no custom header (issue 34). Every later call carries the X-Corbado headers, so Chromium
// asks each new URL first with OPTIONS, and keeps the answer for the API's Access-Control-Max-Age (7200 s,
// Chromium's cap). A first visit leaves the resume URL answered (src/core/process/preflightWarmUp.ts); a
// reload, whose address names the block shown, resumes through that same URL (src/core/process/startUp.ts;
// issue 15). Chromium reports preflights to DevTools as requests of their own, with the initiator type
// "preflight".

/** The preflights the page's requests cause from now on, as "OPTIONS /path". */
async function preflightsOf(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const seen: string[] = [];
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.initiator.type === 'preflight' || event.request.method === 'OPTIONS') seen.push(`${event.request.method} ${new URL(event.request.url).pathname}`);
  });
  await cdp.send('Network.enable');
  return seen;
}

const lowerCased = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/**
 * The POST /v2/auth/process/init requests as DevTools saw them on the wire (a page may read nothing of a
 * refused answer): the raw headers sent, the status and headers received. The extra-info events may come
 * before the request's own event: all are kept by request id.
 */
async function initsOnTheWire(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const inits: string[] = [];
  const sent = new Map<string, Record<string, string>>();
  const received = new Map<string, { status: number; headers: Record<string, string> }>();
  cdp.on('Network.requestWillBeSent', (event) => {
    if (new URL(event.request.url).pathname === '/v2/auth/process/init') inits.push(event.requestId);
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (event) => sent.set(event.requestId, lowerCased(event.headers)));
  cdp.on('Network.responseReceivedExtraInfo', (event) => received.set(event.requestId, { status: event.statusCode, headers: lowerCased(event.headers) }));
  await cdp.send('Network.enable');
  return () => inits.filter((id) => received.has(id)).map((id) => ({ request: sent.get(id) ?? {}, ...received.get(id)! }));
}

const processLoad = (page: Page) =>
  page.waitForResponse((response) => new URL(response.url()).pathname === '/v2/auth/process' && response.request().method() === 'GET');

test('no visitor pays a CORS preflight before the first screen: a first visit, a reload, a new visit', async ({ page }) => {
  const seen = await preflightsOf(page);
  const heading = widget(page).getByRole('heading', { name: 'Create your account' });
  const field = widget(page).getByRole('textbox', { name: 'Email address' });

  // first visit: no preflight before the first input; then, once idle, the resume URL is used once (its preflight after the field)
  const warmedUp = processLoad(page);
  await page.goto('/signup.html');
  await expect(heading).toBeVisible();
  await expect(field).toBeEditable();
  // the warm-up's own preflight may have gone already: it comes once the field is there and the browser idle
  expect(seen.filter((request) => request !== 'OPTIONS /v2/auth/process')).toEqual([]);
  expect((await warmedUp).status()).toBe(200);
  await expect.poll(() => seen).toContain('OPTIONS /v2/auth/process');
  expect(page.url()).toMatch(/#signup-init$/);

  // a reload: the address names the block the server is on, so the resume asks through the same URL
  seen.length = 0;
  let resumed = processLoad(page);
  await page.reload();
  expect(new URL((await resumed).url()).search).toBe('');
  await expect(heading).toBeVisible();
  expect(seen).toEqual([]);

  // a new visit, the address without a block
  resumed = processLoad(page);
  await page.goto('/signup.html');
  expect((await resumed).status()).toBe(200);
  await expect(heading).toBeVisible();
  expect(seen).toEqual([]);
});

test('[security] a page on an origin the project does not allow sends the simple request with credentials: refused, nothing set, nothing readable', async ({ page, context }) => {
  // a visitor of the real page first: the browser holds the API's cookie
  await page.goto('/signup.html');
  await expect(widget(page).getByRole('heading', { name: 'Create your account' })).toBeVisible();
  const cookiesBefore = await context.cookies(API_URL);
  expect(cookiesBefore.map((cookie) => cookie.name)).toContain('cbo_browser');

  // then a page on another origin (a server of the test's own) drives the call without a preflight: on
  // this machine's name, so that Chromium lets the page reach the local API (a public page would meet
  // Private Network Access first) and, the site being the same, sends the SameSite=Lax cookie
  const elsewhere = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
  await new Promise<void>((resolve) => elsewhere.listen(0, 'localhost', resolve));
  try {
    const attacker = `http://localhost:${(elsewhere.address() as AddressInfo).port}`;
    await page.goto(`${attacker}/`);
    const seen = await preflightsOf(page);
    const wire = await initsOnTheWire(page);
    const outcome = await page.evaluate(async (api) => {
      try {
        const response = await fetch(`${api}/v2/auth/process/init?projectID=pro-1`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'Content-Type': 'text/plain' },
          body: JSON.stringify({ clientInformation: {} }),
        });
        return `read: ${response.status} ${await response.text()}`;
      } catch (error) {
        return `not readable: ${String(error)}`;
      }
    }, API_URL);
    // the browser sent it, with the visitor's cookie and no preflight; the server refused it
    await expect.poll(() => wire().length).toBe(1);
    const [init] = wire();
    expect(seen).toEqual([]);
    expect(init!.request.origin).toBe(attacker);
    expect(init!.request.cookie).toContain('cbo_browser=');
    expect(init!.status).toBe(403);
    expect(init!.headers['set-cookie']).toBeUndefined();
    expect(init!.headers['access-control-allow-origin']).toBeUndefined();
    expect(outcome).toMatch(/^not readable: TypeError/);
    expect(await context.cookies(API_URL)).toEqual(cookiesBefore);
  } finally {
    await new Promise((resolve) => elsewhere.close(resolve));
  }
});
