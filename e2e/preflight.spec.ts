import type { Page } from '@playwright/test';
import { expect, test, widget } from './fixtures';

// Returning visitors pay no CORS preflight (issue 15). Every API call carries the X-Corbado headers,
// so Chromium asks each new URL first with OPTIONS, and keeps the answer for the API's
// Access-Control-Max-Age (7200 s, Chromium's cap). A first visit leaves the resume URL answered
// (src/core/process/preflightWarmUp.ts); a reload, whose address names the block shown, resumes
// through that same URL (src/core/process/startUp.ts). Chromium reports preflights to DevTools as
// requests of their own, with the initiator type "preflight".

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

const processLoad = (page: Page) =>
  page.waitForResponse((response) => new URL(response.url()).pathname === '/v2/auth/process' && response.request().method() === 'GET');

test('a returning visitor pays no CORS preflight before the first screen, on a reload or a new visit', async ({ page }) => {
  const seen = await preflightsOf(page);
  const heading = widget(page).getByRole('heading', { name: 'Create your account' });

  // first visit: a preflight for each start-up request, then, once idle, the resume URL is used once
  const warmedUp = processLoad(page);
  await page.goto('/signup.html');
  await expect(heading).toBeVisible();
  expect(seen).toEqual(expect.arrayContaining(['OPTIONS /v2/session-config', 'OPTIONS /v2/auth/process/init']));
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
