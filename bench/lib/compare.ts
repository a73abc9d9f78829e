// This widget beside Corbado's official client (@corbado/web-js 3.5.0) in one Chromium, one server,
// one proxy: time to the first usable identifier field, requests and preflights before it, bytes, and
// the time the bundle takes to run. Runs of the two clients alternate, so that load on the machine
// falls on both alike.
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './browser.ts';
import { HOSTED_API, clientFiles, startCompareStack, type Client, type CompareStack, type ShippedBytes } from './compareStack.ts';
import { ensureBuilt } from './size.ts';
import { longestChain, SCENARIOS, type Scenario } from './startup.ts';
import { median } from './stats.ts';
import { chromium } from '@playwright/test';

/** the start-up section's scenarios: fresh and returning visitor, at 0 and +150 ms, and with 4x CPU slowdown */
export type CompareScenario = Scenario;
export const COMPARE_SCENARIOS: readonly CompareScenario[] = SCENARIOS;

/** The scenarios BENCH_COMPARE_SCENARIOS names (names separated by "|", e.g. "fresh, +150 ms|returning, +150 ms"; all when empty). */
export function compareScenarios(names: string | undefined): readonly CompareScenario[] {
  const wanted = (names ?? '').split(/\s*\|\s*/).filter(Boolean);
  if (!wanted.length) return COMPARE_SCENARIOS;
  const chosen = COMPARE_SCENARIOS.filter((s) => wanted.includes(s.name));
  if (chosen.length !== wanted.length) throw new Error(`BENCH_COMPARE_SCENARIOS: known are ${COMPARE_SCENARIOS.map((s) => `"${s.name}"`).join(', ')}`);
  return chosen;
}

export interface CompareRun {
  /** navigation start → the identifier field usable */
  toInputMs: number;
  /** load() call → the identifier field usable */
  loadToInputMs: number;
  /** the end of the last of the client's files (script, CSS) arriving → the script after the client's tag running: parse + evaluate */
  scriptRunMs: number;
  /** Resource Timing transferSize of the client's files (0 when they came from the HTTP cache) */
  filesTransferredBytes: number;
  apiRequestsBeforeInput: number;
  preflightsBeforeInput: number;
  /** longest chain of exchanges on the wire before the input, each starting after the previous ended (preflights count) */
  wireRoundTrips: number;
  /**
   * start of GET /v2/session-config → start of the first process request before the field: POST
   * /v2/auth/process/init (fresh visitor) or GET /v2/auth/process (a returning one's stored process).
   * Resource Timing; NaN when one of them is missing.
   */
  sessionConfigToProcessMs: number;
  /** which check noticed the field: the MutationObserver, or the 50 ms safety-net timer */
  via: string;
  requests: string[];
  /** what went on the wire from navigation start to the field: the client's files and its API exchanges (preflights included), ms from navigation start */
  waterfall: WaterfallRow[];
}

export interface WaterfallRow {
  what: string;
  start: number;
  end: number;
}

type Numbers = Omit<CompareRun, 'via' | 'requests' | 'waterfall'>;

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface ClientFigures {
  median: Numbers;
  spread: Record<keyof Numbers, Spread>;
  all: Numbers[];
  via: string[];
  requests: string[];
  waterfall: WaterfallRow[];
}

export interface CompareResult extends CompareScenario {
  runs: number;
  /** `beside`: the other build of this widget, when BENCH_COMPARE_BESIDE names one */
  clients: Record<'own' | 'web-js', ClientFigures> & { beside?: ClientFigures };
  /** the 1-minute load average when the scenario started (the machine may be shared) */
  loadAverage: number;
  /** ours / official, of the medians; `beside`: ours / the other build, of the medians, and of each alternating pair's times to the field */
  ratio: { toInput: number; loadToInput: number; beside?: { toInput: number; pairDifferenceMs: Spread } };
}

/** Options of the comparison: another build of this widget to measure beside, a folder for Chromium traces of the measured runs. */
export interface CompareOptions {
  beside?: string;
  traceDir?: string;
}

export interface CompareResults {
  chromium: string;
  shipped: ShippedBytes[];
  scenarios: CompareResult[];
}

interface PageFigures {
  timeOrigin: number;
  input: number;
  loadCall: number;
  scriptDone: number;
  via: string;
  files: { path: string; startTime: number; responseEnd: number; transferSize: number }[];
  api: { path: string; start: number }[];
}

const label = (method: string, path: string) => `${method} ${path.replace(/\?.*$/, '')}`;

/** What a Chromium trace of a measured run records: the main thread's tasks and scripts, V8's compiles and samples, user timing marks, the network. */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'disabled-by-default-v8.compile',
  'blink',
  'blink.user_timing',
  'loading',
  'netlog',
  'disabled-by-default-netlog',
  'toplevel',
  'disabled-by-default-v8.cpu_profiler',
];

async function oneRun(browser: Browser, stack: CompareStack, client: Client, scenario: CompareScenario, tracePath?: string): Promise<CompareRun> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const url = `${stack.pageUrl}/${client}.html`;
    // the page's origin first, so that the measured navigation stays in this renderer (and its throttling)
    await page.goto(`${stack.pageUrl}/empty.html`);
    if (scenario.visitor === 'returning') {
      stack.proxy.delayMs = 0;
      await page.goto(url);
      await page.evaluate(() => (window as unknown as { __bench: { ready: Promise<number> } }).__bench.ready);
      await stack.proxy.idle(300);
      await page.goto(`${stack.pageUrl}/empty.html`);
    }
    await stack.proxy.idle(50);
    stack.proxy.clear();
    stack.proxy.delayMs = scenario.latencyMs;
    if (scenario.cpuSlowdown !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: scenario.cpuSlowdown });
    if (tracePath) await browser.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
    await page.goto(url, { timeout: 60_000 });
    const times = await page.evaluate(async () => {
      const bench = (window as unknown as { __bench: { ready: Promise<number>; input: number; loadCall: number; scriptDone: number; via: string } }).__bench;
      await Promise.race([bench.ready, new Promise((_, reject) => setTimeout(() => reject(new Error(`no usable identifier field after 30 s: ${document.body.innerText.slice(0, 200)}`)), 30_000))]);
      return { timeOrigin: performance.timeOrigin, input: bench.input, loadCall: bench.loadCall, scriptDone: bench.scriptDone, via: bench.via };
    });
    // the work after the field (web-js's events, a returning visitor's replacement process) ends first
    await stack.proxy.idle(Math.max(400, scenario.latencyMs * 3));
    if (tracePath) await browser.stopTracing();
    if (scenario.cpuSlowdown !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    stack.proxy.delayMs = 0;
    // Resource Timing entries appear once a body has been read: read them after the network is quiet
    const files = [...clientFiles(client).scripts, ...clientFiles(client).styles];
    const figures: PageFigures = {
      ...times,
      ...(await page.evaluate(
        ({ files, api }) => {
          const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
          return {
            files: entries
              .filter((entry) => files.includes(new URL(entry.name).pathname))
              .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime, responseEnd: entry.responseEnd, transferSize: entry.transferSize })),
            api: entries.filter((entry) => entry.name.startsWith(api)).map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime })),
          };
        },
        { files, api: HOSTED_API },
      )),
    };

    // the proxy's clock is the epoch: page time + timeOrigin (1 ms allowed between the two clocks)
    const inputEpoch = figures.timeOrigin + figures.input + 1;
    const exchanges = [...stack.proxy.log].sort((a, b) => a.start - b.start);
    const before = exchanges.filter((e) => e.end <= inputEpoch);
    // both started before the field (a returning visitor's process/init is background work: not this one)
    const startedBefore = figures.api.filter((f) => f.start <= figures.input).sort((a, b) => a.start - b.start);
    const sessionConfig = startedBefore.find((f) => f.path === '/v2/session-config');
    const processRequest = startedBefore.find((f) => f.path === '/v2/auth/process/init' || f.path === '/v2/auth/process');
    return {
      toInputMs: figures.input,
      loadToInputMs: figures.input - figures.loadCall,
      scriptRunMs: figures.scriptDone - Math.max(...figures.files.map((f) => f.responseEnd)),
      filesTransferredBytes: figures.files.reduce((sum, f) => sum + f.transferSize, 0),
      apiRequestsBeforeInput: before.filter((e) => e.method !== 'OPTIONS').length,
      preflightsBeforeInput: before.filter((e) => e.method === 'OPTIONS').length,
      wireRoundTrips: longestChain(before).length,
      sessionConfigToProcessMs: sessionConfig && processRequest ? processRequest.start - sessionConfig.start : Number.NaN,
      via: figures.via,
      requests: exchanges.map((e) => `${label(e.method, e.path)}${e.end <= inputEpoch ? '' : ' (after)'}`),
      waterfall: [
        ...figures.files.map((f) => ({ what: `GET ${f.path}`, start: f.startTime, end: f.responseEnd })),
        ...exchanges.filter((e) => e.start <= inputEpoch).map((e) => ({ what: label(e.method, e.path), start: e.start - figures.timeOrigin, end: e.end - figures.timeOrigin })),
      ]
        .sort((a, b) => a.start - b.start)
        .concat({ what: 'identifier field usable', start: figures.input, end: figures.input }),
    };
  } finally {
    await context.close();
  }
}

function summarise(all: CompareRun[]): ClientFigures {
  const numbers: Numbers[] = all.map(({ via: _v, requests: _r, waterfall: _w, ...rest }) => rest);
  const keys = Object.keys(numbers[0]!) as (keyof Numbers)[];
  const spread = Object.fromEntries(
    keys.map((key) => {
      const values = numbers.map((n) => n[key]).filter((value) => Number.isFinite(value));
      return [key, values.length ? { median: median(values), min: Math.min(...values), max: Math.max(...values) } : { median: Number.NaN, min: Number.NaN, max: Number.NaN }];
    }),
  ) as Record<keyof Numbers, Spread>;
  const med = Object.fromEntries(keys.map((key) => [key, spread[key].median])) as Numbers;
  // the waterfall of the run whose time to the field is the median one (the lower middle of an even count)
  const middle = [...all].sort((a, b) => a.toInputMs - b.toInputMs)[Math.floor((all.length - 1) / 2)]!;
  return { median: med, spread, all: numbers, via: all.map((run) => run.via), requests: all[0]!.requests, waterfall: middle.waterfall };
}

/** The comparison section: its own stack and its own Chromium (the hosted name mapped to the proxy). */
/**
 * The order of the clients in run `i`: rotated by one each run, so that each goes first, second (and
 * third) equally often and load on the machine falls on all alike; with two clients, alternating.
 */
export function runOrder(clients: readonly Client[], i: number): Client[] {
  const shift = i % clients.length;
  return [...clients.slice(shift), ...clients.slice(0, shift)];
}

/** ours − the other build's time to the field, run by run (run i of each was measured in the same round): median, min, max. */
export function pairDifference(ours: readonly number[], other: readonly number[]): Spread {
  const differences = ours.map((value, i) => value - other[i]!);
  return { median: median(differences), min: Math.min(...differences), max: Math.max(...differences) };
}

const slug = (text: string) => text.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');

export async function compareBench(
  root: string,
  tmp: string,
  runs: number,
  say: (line: string) => void,
  only = COMPARE_SCENARIOS,
  options: CompareOptions = {},
): Promise<CompareResults> {
  ensureBuilt(root);
  const stack = await startCompareStack(root, tmp, options.beside);
  if (options.traceDir) mkdirSync(options.traceDir, { recursive: true });
  try {
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, ...stack.chromiumArgs], headless: true });
    try {
      // unrecorded warm-up visits: the server, the browser, every bundle
      for (const client of stack.clients) for (let i = 0; i < 2; i++) await oneRun(browser, stack, client, COMPARE_SCENARIOS[0]!);
      const scenarios: CompareResult[] = [];
      for (const scenario of only) {
        const loadAverage = Math.round(loadavg()[0]! * 100) / 100;
        const runsOf: Record<Client, CompareRun[]> = { own: [], 'web-js': [], beside: [] };
        for (let i = 0; i < runs; i++) {
          for (const client of runOrder(stack.clients, i)) {
            const trace = options.traceDir && join(options.traceDir, `${slug(scenario.name)}-${client}-${i + 1}.json`);
            runsOf[client].push(await oneRun(browser, stack, client, scenario, trace || undefined));
          }
        }
        const clients: CompareResult['clients'] = { own: summarise(runsOf.own), 'web-js': summarise(runsOf['web-js']) };
        const ratio: CompareResult['ratio'] = {
          toInput: clients.own.median.toInputMs / clients['web-js'].median.toInputMs,
          loadToInput: clients.own.median.loadToInputMs / clients['web-js'].median.loadToInputMs,
        };
        if (runsOf.beside.length) {
          clients.beside = summarise(runsOf.beside);
          ratio.beside = {
            toInput: clients.own.median.toInputMs / clients.beside.median.toInputMs,
            pairDifferenceMs: pairDifference(
              runsOf.own.map((run) => run.toInputMs),
              runsOf.beside.map((run) => run.toInputMs),
            ),
          };
        }
        scenarios.push({ ...scenario, runs, loadAverage, clients, ratio });
        const besideSaid = clients.beside
          ? `; the other build ${clients.beside.median.toInputMs.toFixed(0)} ms, ours / other ${ratio.beside!.toInput.toFixed(2)}x, ours − other per round ${ratio.beside!.pairDifferenceMs.median.toFixed(0)} ms (${ratio.beside!.pairDifferenceMs.min.toFixed(0)} to ${ratio.beside!.pairDifferenceMs.max.toFixed(0)})`
          : '';
        say(
          `  ${scenario.name}: first input ${clients.own.median.toInputMs.toFixed(0)} ms (ours) vs ${clients['web-js'].median.toInputMs.toFixed(0)} ms (web-js), ${ratio.toInput.toFixed(2)}x${besideSaid} (load average ${loadAverage} at its start)`,
        );
      }
      return { chromium: browser.version(), shipped: stack.shipped, scenarios };
    } finally {
      await browser.close();
    }
  } finally {
    await stack.close();
  }
}
