// Debian's Chromium through Playwright (never a downloaded browser), and what runs inside the page.
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import type { CorbadoGlobal } from '../../src/Corbado.ts';

import { CHROMIUM_ARGS, chromiumPath } from '../../e2e/chromium.ts';

export { CHROMIUM_ARGS, chromiumPath };

/** `jsFlags` go to V8 (e.g. "--jitless" for the memory leak check). */
export function launchChromium(jsFlags?: string): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, ...(jsFlags ? [`--js-flags=${jsFlags}`] : [])], headless: true });
}

declare global {
  interface Window {
    /** the bundle's text, fetched before the timed part (benchmark only) */
    __cboSource?: string;
  }
}

/** The page's Corbado global (code passed to page.evaluate runs in the page). */
export type PageWindow = { Corbado: CorbadoGlobal };

/** Fetches dist/corbado.js into the page without running it, so that fetching is not timed. */
export async function fetchBundle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const response = await fetch('/dist/corbado.js', { cache: 'no-store' });
    if (!response.ok) throw new Error(`/dist/corbado.js: ${response.status}`);
    window.__cboSource = await response.text();
  });
}

/** Runs the fetched bundle as an inline script (it executes synchronously while it is appended). */
export async function runBundle(page: Page): Promise<void> {
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = window.__cboSource ?? '';
    document.head.append(script);
  });
}

/** Live JS heap after a full garbage collection, in bytes. */
export async function heapAfterGc(cdp: CDPSession): Promise<number> {
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const usage = await cdp.send('Runtime.getHeapUsage');
  return usage.usedSize;
}

export async function chromiumVersion(browser: Browser): Promise<string> {
  return browser.version();
}
