// Start-up of the auth view in headless Chromium against the real local API (through the proxy):
// round trips on the critical path, requests, preflights and time to an interactive input.
import type { Browser, Page } from '@playwright/test';
import { fetchBundle, type PageWindow } from './browser.ts';
import type { Exchange } from './proxy.ts';
import type { Stack } from './stack.ts';
import { median } from './stats.ts';

export type Visitor = 'fresh' | 'returning';

export interface Scenario {
  name: string;
  visitor: Visitor;
  latencyMs: number;
  cpuSlowdown: number;
}

/** Page-clock times (performance.now()) of one measured visit. */
interface PageTimes {
  timeOrigin: number;
  scriptStart: number;
  scriptEnd: number;
  loadCall: number;
  interactive: number;
}

interface FetchTiming {
  url: string;
  start: number;
  end: number;
}

export interface RunResult {
  /** script start → identifier input present and enabled */
  toInteractiveMs: number;
  /** load() call → identifier input present and enabled */
  loadToInteractiveMs: number;
  /** executing the bundle (inline script) */
  scriptEvalMs: number;
  /** longest chain of fetches, each started after the previous one's response ended, before interactive */
  roundTrips: number;
  /** the same on the wire, CORS preflights counted as exchanges of their own */
  wireRoundTrips: number;
  /** load() call → start of the first process request (process/init or GET process) */
  processRequestAfterLoadMs: number;
  /** end of the last API response before interactive → interactive (rendering the answer) */
  renderAfterResponseMs: number;
  apiRequestsBeforeInteractive: number;
  preflightsBeforeInteractive: number;
  /** until the network has been quiet for a while after interactive (background work included) */
  apiRequestsTotal: number;
  preflightsTotal: number;
  requests: string[];
  criticalPath: string[];
}

export interface ScenarioResult extends Scenario {
  runs: number;
  median: Omit<RunResult, 'requests' | 'criticalPath'>;
  /** the request list and critical path of the first run (they are the same in every run) */
  requests: string[];
  criticalPath: string[];
  all: Omit<RunResult, 'requests' | 'criticalPath'>[];
}

/**
 * The longest chain a1 → a2 → … where each item starts at or after the previous one ended. Items
 * are [start, end] in one clock; returns the indices of the chain.
 */
export function longestChain(items: readonly { start: number; end: number }[]): number[] {
  const order = items.map((_, index) => index).sort((a, b) => items[a]!.start - items[b]!.start);
  const best = new Map<number, number[]>();
  let longest: number[] = [];
  for (const index of order) {
    let chain: number[] = [index];
    for (const [previous, previousChain] of best) {
      if (items[previous]!.end <= items[index]!.start && previousChain.length + 1 > chain.length) chain = [...previousChain, index];
    }
    best.set(index, chain);
    if (chain.length > longest.length) longest = chain;
  }
  return longest;
}

/** One visit: the bundle runs as an inline script, then load(), mountAuthUI and the wait for the input. */
async function measuredVisit(page: Page, apiUrl: string): Promise<PageTimes> {
  await fetchBundle(page);
  return page.evaluate(async (frontendApiUrl) => {
    const host = document.getElementById('w');
    if (!host) throw new Error('blank.html has no #w');
    const scriptStart = performance.now();
    const script = document.createElement('script');
    script.textContent = window.__cboSource ?? '';
    document.head.append(script);
    const scriptEnd = performance.now();
    const loadCall = performance.now();
    const { Corbado } = window as unknown as PageWindow;
    await Corbado.load({ projectId: 'pro-1', frontendApiUrl });
    Corbado.mountAuthUI(host);
    const root = host.shadowRoot;
    if (!root) throw new Error('mountAuthUI attached no shadow root');
    // (no named helper functions in here: tsx would wrap them in a __name() the page does not have)
    const interactive = await new Promise<number>((resolve, reject) => {
      const first = root.querySelector<HTMLInputElement>('input[name="identifier"]');
      if (first && !first.disabled) return resolve(performance.now());
      const timer = setTimeout(() => {
        observer.disconnect();
        reject(new Error(`no interactive identifier input after 20 s: ${root.textContent?.slice(0, 200)}`));
      }, 20_000);
      const observer = new MutationObserver(() => {
        const input = root.querySelector<HTMLInputElement>('input[name="identifier"]');
        if (!input || input.disabled) return;
        const at = performance.now();
        observer.disconnect();
        clearTimeout(timer);
        resolve(at);
      });
      observer.observe(root, { subtree: true, childList: true, attributes: true });
    });
    return { timeOrigin: performance.timeOrigin, scriptStart, scriptEnd, loadCall, interactive };
  }, apiUrl);
}

async function apiFetches(page: Page, apiUrl: string): Promise<FetchTiming[]> {
  return page.evaluate(
    (prefix) =>
      performance
        .getEntriesByType('resource')
        .filter((entry): entry is PerformanceResourceTiming => entry instanceof PerformanceResourceTiming)
        .filter((entry) => entry.name.startsWith(prefix))
        .map((entry) => ({ url: entry.name, start: entry.startTime, end: entry.responseEnd })),
    apiUrl,
  );
}

const label = (exchange: Exchange) => `${exchange.method} ${exchange.path.replace(/\?.*$/, '')}`;

async function oneRun(browser: Browser, stack: Stack, scenario: Scenario): Promise<RunResult> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const blank = `${stack.demoUrl}/blank.html`;
    await page.goto(blank);
    if (scenario.visitor === 'returning') {
      // the previous visit: same context, so the stored process and the preflight cache stay
      stack.proxy.delayMs = 0;
      await measuredVisit(page, stack.apiUrl);
      await stack.proxy.idle(300);
      const stored = await page.evaluate(() => localStorage.getItem('cbo_auth_process-pro-1'));
      if (!stored) throw new Error('the first visit stored no auth process');
      await page.goto(blank);
    }
    await stack.proxy.idle(50);
    stack.proxy.clear();
    stack.proxy.delayMs = scenario.latencyMs;
    if (scenario.cpuSlowdown !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: scenario.cpuSlowdown });
    const times = await measuredVisit(page, stack.apiUrl);
    // wait for the background work (a returning visitor's replacement process) to finish
    await stack.proxy.idle(Math.max(400, scenario.latencyMs * 3));
    if (scenario.cpuSlowdown !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const fetches = await apiFetches(page, stack.apiUrl);
    const exchanges = [...stack.proxy.log].sort((a, b) => a.start - b.start);
    stack.proxy.delayMs = 0;

    const beforeInteractive = fetches.filter((f) => f.start >= times.loadCall && f.end <= times.interactive);
    const chain = longestChain(beforeInteractive);
    // the proxy's clock is the epoch: page time + timeOrigin (allow 1 ms between the two clocks)
    const interactiveEpoch = times.timeOrigin + times.interactive + 1;
    const wireBefore = exchanges.filter((e) => e.end <= interactiveEpoch);
    const wireChain = longestChain(wireBefore);
    const processFetch = beforeInteractive.find((f) => /\/v2\/auth\/process(\/init)?(\?|$)/.test(f.url));
    const lastEnd = Math.max(...beforeInteractive.map((f) => f.end));
    return {
      toInteractiveMs: times.interactive - times.scriptStart,
      loadToInteractiveMs: times.interactive - times.loadCall,
      scriptEvalMs: times.scriptEnd - times.scriptStart,
      roundTrips: chain.length,
      wireRoundTrips: wireChain.length,
      processRequestAfterLoadMs: processFetch ? processFetch.start - times.loadCall : Number.NaN,
      renderAfterResponseMs: Number.isFinite(lastEnd) ? times.interactive - lastEnd : Number.NaN,
      apiRequestsBeforeInteractive: wireBefore.filter((e) => e.method !== 'OPTIONS').length,
      preflightsBeforeInteractive: wireBefore.filter((e) => e.method === 'OPTIONS').length,
      apiRequestsTotal: exchanges.filter((e) => e.method !== 'OPTIONS').length,
      preflightsTotal: exchanges.filter((e) => e.method === 'OPTIONS').length,
      requests: exchanges.map((e) => `${label(e)}${e.end <= interactiveEpoch ? '' : ' (after interactive)'}`),
      criticalPath: wireChain.map((index) => label(wireBefore[index]!)),
    };
  } finally {
    await context.close();
  }
}

export const SCENARIOS: Scenario[] = [
  { name: 'fresh, 0 ms', visitor: 'fresh', latencyMs: 0, cpuSlowdown: 1 },
  { name: 'fresh, +150 ms', visitor: 'fresh', latencyMs: 150, cpuSlowdown: 1 },
  { name: 'fresh, 4x CPU', visitor: 'fresh', latencyMs: 0, cpuSlowdown: 4 },
  { name: 'returning, 0 ms', visitor: 'returning', latencyMs: 0, cpuSlowdown: 1 },
  { name: 'returning, +150 ms', visitor: 'returning', latencyMs: 150, cpuSlowdown: 1 },
  { name: 'returning, 4x CPU', visitor: 'returning', latencyMs: 0, cpuSlowdown: 4 },
];

export async function startupBench(browser: Browser, stack: Stack, runs: number, onProgress?: (line: string) => void): Promise<ScenarioResult[]> {
  // one unrecorded run warms up the server and the browser
  await oneRun(browser, stack, SCENARIOS[0]!);
  const results: ScenarioResult[] = [];
  for (const scenario of SCENARIOS) {
    const all: RunResult[] = [];
    for (let i = 0; i < runs; i++) all.push(await oneRun(browser, stack, scenario));
    const numbers = all.map(({ requests: _r, criticalPath: _c, ...rest }) => rest);
    const keys = Object.keys(numbers[0]!) as (keyof (typeof numbers)[number])[];
    const med = Object.fromEntries(keys.map((key) => [key, median(numbers.map((n) => n[key]))])) as ScenarioResult['median'];
    results.push({ ...scenario, runs, median: med, requests: all[0]!.requests, criticalPath: all[0]!.criticalPath, all: numbers });
    onProgress?.(`  ${scenario.name}: ${med.toInteractiveMs.toFixed(0)} ms to interactive, ${med.roundTrips} round trips`);
  }
  return results;
}
