// JS heap growth over repeated mount/unmount cycles of each view.
import type { Browser, Page } from '@playwright/test';
import { fetchBundle, heapAfterGc, runBundle, type PageWindow } from './browser.ts';
import { signedUpUser } from './frontendApi.ts';
import type { Stack } from './stack.ts';

export type ViewName = 'auth' | 'signUp' | 'logIn' | 'passkeyList' | 'userDetails';

interface ViewSpec {
  name: ViewName;
  mount: 'mountAuthUI' | 'mountSignUpUI' | 'mountLoginUI' | 'mountPasskeyListUI' | 'mountUserUI';
  unmount: 'unmountAuthUI' | 'unmountSignUpUI' | 'unmountLoginUI' | 'unmountPasskeyListUI' | 'unmountUserUI';
  /** the view counts as rendered once this matches inside the shadow root */
  ready: string;
  loggedIn: boolean;
}

export const VIEWS: ViewSpec[] = [
  { name: 'auth', mount: 'mountAuthUI', unmount: 'unmountAuthUI', ready: 'input[name="identifier"]:enabled', loggedIn: false },
  { name: 'signUp', mount: 'mountSignUpUI', unmount: 'unmountSignUpUI', ready: 'input[name="email"]:enabled', loggedIn: false },
  { name: 'logIn', mount: 'mountLoginUI', unmount: 'unmountLoginUI', ready: 'input[name="identifier"]:enabled', loggedIn: false },
  { name: 'passkeyList', mount: 'mountPasskeyListUI', unmount: 'unmountPasskeyListUI', ready: '.cb-card .cb-passkeys, .cb-card > p.cb-text.cb-muted', loggedIn: true },
  { name: 'userDetails', mount: 'mountUserUI', unmount: 'unmountUserUI', ready: '.cb-card .cb-section', loggedIn: true },
];

export interface ViewMemory {
  view: ViewName;
  cycles: number;
  /** live heap after GC, after the first mount/unmount cycle and after the last */
  heapAfterFirstKb: number;
  heapAfterLastKb: number;
  growthKb: number;
  growthPerCycleBytes: number;
  /** growth over as many cycles again, after the measured ones */
  nextCyclesGrowthKb: number;
  /** API requests (preflights excluded) made by all the cycles after the first (both batches), by method and path */
  requestsAfterFirstCycle: Record<string, number>;
  /** what the first render showed (to check that the view rendered what was meant) */
  firstText: string;
  /** browser history entries added by the cycles after the first */
  historyGrowth: number;
  ms: number;
}

/**
 * Runs mount → rendered → unmount cycles inside the page (no harness round trip per cycle, which would
 * add heap of its own); returns the shadow root's text of the first render.
 */
async function cyclesInPage(page: Page, view: ViewSpec, count: number): Promise<string> {
  return page.evaluate(
    async ({ mount, unmount, ready, count }) => {
      const { Corbado } = window as unknown as PageWindow;
      const host = document.getElementById('w')!;
      let firstText = '';
      for (let i = 0; i < count; i++) {
        Corbado[mount](host);
        const root = host.shadowRoot!;
        const deadline = performance.now() + 10_000;
        while (!root.querySelector(ready)) {
          if (performance.now() > deadline) throw new Error(`not rendered after 10 s: ${root.textContent?.slice(0, 200)}`);
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        if (i === 0) firstText = root.textContent?.slice(0, 120) ?? '';
        Corbado[unmount](host);
      }
      return firstText;
    },
    { mount: view.mount, unmount: view.unmount, ready: view.ready, count },
  );
}

async function measureView(browser: Browser, stack: Stack, view: ViewSpec, cycles: number): Promise<ViewMemory> {
  const started = performance.now();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(`${stack.demoUrl}/blank.html`);
    if (view.loggedIn) {
      const user = await signedUpUser(stack.directApiUrl);
      await page.evaluate((sessions) => {
        localStorage.setItem('cbo_short_session', sessions.shortSession);
        if (sessions.longSession) localStorage.setItem('cbo_long_session', sessions.longSession);
      }, user);
    }
    await fetchBundle(page);
    await runBundle(page);
    await page.evaluate((frontendApiUrl) => (window as unknown as PageWindow).Corbado.load({ projectId: 'pro-1', frontendApiUrl }), stack.apiUrl);
    stack.proxy.delayMs = 0;

    const firstText = await cyclesInPage(page, view, 1);
    await stack.proxy.idle(100);
    await page.waitForTimeout(150);
    const first = await heapAfterGc(cdp);
    const historyFirst = await page.evaluate(() => history.length);
    stack.proxy.clear();

    await cyclesInPage(page, view, cycles - 1);
    await stack.proxy.idle(100);
    // timers the views leave (spinner delays, polls) run out before the heap is read
    await page.waitForTimeout(300);
    const last = await heapAfterGc(cdp);
    const historyLast = await page.evaluate(() => history.length);
    // a leak keeps growing; warm-up (JIT feedback and code, caches) levels off: run as many again
    await cyclesInPage(page, view, cycles);
    await stack.proxy.idle(100);
    await page.waitForTimeout(300);
    const again = await heapAfterGc(cdp);
    const requests: Record<string, number> = {};
    for (const exchange of stack.proxy.log) {
      if (exchange.method === 'OPTIONS') continue;
      const key = `${exchange.method} ${exchange.path.replace(/\?.*$/, '')}`;
      requests[key] = (requests[key] ?? 0) + 1;
    }
    return {
      view: view.name,
      cycles,
      heapAfterFirstKb: first / 1024,
      heapAfterLastKb: last / 1024,
      growthKb: (last - first) / 1024,
      growthPerCycleBytes: (last - first) / (cycles - 1),
      nextCyclesGrowthKb: (again - last) / 1024,
      requestsAfterFirstCycle: requests,
      firstText,
      historyGrowth: historyLast - historyFirst,
      ms: performance.now() - started,
    };
  } finally {
    await context.close();
  }
}

export async function memoryBench(browser: Browser, stack: Stack, cycles: number, onProgress?: (line: string) => void): Promise<ViewMemory[]> {
  const results: ViewMemory[] = [];
  for (const view of VIEWS) {
    const result = await measureView(browser, stack, view, cycles);
    results.push(result);
    onProgress?.(`  ${view.name}: ${result.growthKb.toFixed(1)} KB after ${cycles} cycles (${(result.ms / 1000).toFixed(1)} s)`);
  }
  return results;
}
