// `npm run bench`: bundle size, start-up in Chromium (alone and beside web-js), heap growth over mount cycles,
// server throughput, the bundle's evaluation time, the import of existing users, and the audit trail at scale.
// Prints tables and writes bench/results.json. See bench/README.md for what each figure means.
//
// Knobs (for trying things out; the committed results use the defaults):
//   BENCH_RUNS (start-up runs per scenario, default 7), BENCH_COMPARE_RUNS (runs per client and
//   scenario beside web-js, default 5), BENCH_CYCLES (mount cycles, default 200),
//   BENCH_SECONDS (server window per endpoint, default 10), BENCH_EVALUATE_RUNS (default 31),
//   BENCH_EVALUATE_BESIDE (other bundle files to measure beside dist/corbado.js), BENCH_IMPORT_USERS (default 100000),
//   BENCH_AUDIT_RECORDS (the big trail, default 10000000), BENCH_AUDIT_EXPORT (records exported, default 1000000),
//   BENCH_COMPARE_SCENARIOS (the comparison's scenarios by name, "|" between them, e.g. "fresh, +150 ms"),
//   BENCH_COMPARE_BESIDE (another build's corbado.js, measured in the comparison as a third client, alternating),
//   BENCH_COMPARE_TRACE (a folder: a Chromium trace of every measured comparison run is written there),
//   BENCH_AUDIT_PAIRS (section 8's soak: off/recorded pairs per database, alternating, default 3),
//   BENCH_AUDIT_PARTS (section 8: "soak,scale", the default, or either alone), BENCH_AUDIT_DATABASES ("sqlite,postgres"),
//   BENCH_CONSOLE_USERS (the console's user search, default 1000000),
//   BENCH_SERVER_BASE (the commit the server is measured beside, default c734180), BENCH_SERVER_ROUNDS (rounds
//   per side, alternating, default 2), BENCH_ONLY (e.g. "size,compare,server,beside,console"; "import" alone with BENCH_OUT=bench/results-import.json),
//   BENCH_OUT (results file, default bench/results.json), CHROMIUM_PATH.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditBench, auditOverhead, type AuditBenchResult } from './lib/audit.ts';
import { consoleSearchBench, type ConsoleSearchResult } from './lib/consoleSearch.ts';
import { launchChromium } from './lib/browser.ts';
import { compareBench, compareScenarios, type CompareResults } from './lib/compare.ts';
import { evaluateBench, type EvaluateFigures } from './lib/evaluate.ts';
import { CLIENT_NAMES, compareMissing } from './lib/compareStack.ts';
import { machineInfo } from './lib/machine.ts';
import { memoryBench, type ViewMemory } from './lib/memory.ts';
import { serverBench, type ServerResults } from './lib/serverLoad.ts';
import { BESIDE_CALLS, besideSummary, CALL_PATHS, DEFAULT_SERVER_BASE, serverBeside, type BesideResults } from './lib/serverBeside.ts';
import { ensureBuilt, sizeBench, type SizeResults } from './lib/size.ts';
import { startStack } from './lib/stack.ts';
import { startupBench, type ScenarioResult } from './lib/startup.ts';
import { importBench, writeImportFile, type ImportFigures } from './lib/userImport.ts';
import { postgresBin, startPostgresCluster } from '../scripts/postgresCluster.ts';
import pg from 'pg';
import { kb, ms, table } from './lib/table.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** An empty database on the benchmark's PostgreSQL cluster; its URL. */
async function freshDatabase(clusterUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return clusterUrl.replace(/\/[^/]*$/, `/${name}`);
}
const TMP = join(ROOT, 'bench', 'tmp');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const COMPARE_RUNS = Number(process.env.BENCH_COMPARE_RUNS ?? 5);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 200);
const EVALUATE_RUNS = Number(process.env.BENCH_EVALUATE_RUNS ?? 31);
/** other builds of the bundle to measure beside dist/corbado.js, comma-separated paths (e.g. a base commit's) */
const EVALUATE_BESIDE = (process.env.BENCH_EVALUATE_BESIDE ?? '').split(',').map((part) => part.trim()).filter(Boolean);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SERVER_BASE = process.env.BENCH_SERVER_BASE ?? DEFAULT_SERVER_BASE;
/** issue 34: the code verify on PostgreSQL, p95 at 20 clients */
const PG_VERIFY_P95_TARGET_MS = 30;
const SERVER_ROUNDS = Number(process.env.BENCH_SERVER_ROUNDS ?? 2);
const IMPORT_USERS = Number(process.env.BENCH_IMPORT_USERS ?? 100_000);
const AUDIT_RECORDS = Number(process.env.BENCH_AUDIT_RECORDS ?? 10_000_000);
const AUDIT_EXPORT = Number(process.env.BENCH_AUDIT_EXPORT ?? 1_000_000);
const AUDIT_PAIRS = Number(process.env.BENCH_AUDIT_PAIRS ?? 3);
const AUDIT_PARTS = new Set((process.env.BENCH_AUDIT_PARTS ?? 'soak,scale').split(',').map((part) => part.trim()));
const AUDIT_DATABASES = new Set((process.env.BENCH_AUDIT_DATABASES ?? 'sqlite,postgres').split(',').map((part) => part.trim()));
const CONSOLE_USERS = Number(process.env.BENCH_CONSOLE_USERS ?? 1_000_000);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'size,startup,compare,memory,server,beside,evaluate,import,audit,console').split(',').map((part) => part.trim()));
const OUT = process.env.BENCH_OUT ?? join(ROOT, 'bench', 'results.json');
/** the leak check: no JIT code, feedback allocated on first call, so only retained objects can grow */
const LEAK_CHECK_FLAGS = '--jitless --no-lazy-feedback-allocation';

const say = (text = '') => process.stdout.write(`${text}\n`);
/** 1-minute load average when each section started (other work on the machine skews the figures) */
const loadAverage: Record<string, number> = {};
const mark = (section: string) => (loadAverage[section] = Math.round(loadavg()[0]! * 100) / 100);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

mkdirSync(TMP, { recursive: true });
const playwrightVersion = (JSON.parse(readFileSync(join(ROOT, 'node_modules', '@playwright', 'test', 'package.json'), 'utf8')) as { version: string }).version;

let size: SizeResults | undefined;
let startup: ScenarioResult[] | undefined;
let compare: CompareResults | undefined;
let evaluation: EvaluateFigures[] | undefined;
let memory: { views: ViewMemory[]; leakCheck: ViewMemory[] } | undefined;
const servers: ServerResults[] = [];
let beside: BesideResults | { skipped: string } | undefined;
const imports: ImportFigures[] = [];
let chromiumVersion = 'not launched';

if (ONLY.has('size')) {
  mark('size');
  say('1/8 bundle size …');
  size = sizeBench(ROOT, TMP);
}

if (ONLY.has('startup') || ONLY.has('memory')) {
  const stack = await startStack();
  try {
    const browser = await launchChromium();
    chromiumVersion = browser.version();
    try {
      if (ONLY.has('startup')) {
        mark('startup');
        say(`2/8 start-up, ${RUNS} runs per scenario … (${elapsed()})`);
        startup = await startupBench(browser, stack, RUNS, say);
      }
      if (ONLY.has('memory')) {
        mark('memory');
        say(`4/8 memory, ${CYCLES} mount/unmount cycles per view … (${elapsed()})`);
        const views = await memoryBench(browser, stack, CYCLES, say);
        await browser.close();
        say(`    leak check with ${LEAK_CHECK_FLAGS} … (${elapsed()})`);
        const plain = await launchChromium(LEAK_CHECK_FLAGS);
        try {
          memory = { views, leakCheck: await memoryBench(plain, stack, CYCLES, say) };
        } finally {
          await plain.close();
        }
      }
    } finally {
      if (browser.isConnected()) await browser.close();
    }
  } finally {
    await stack.close();
  }
}

const compareSkipped = ONLY.has('compare') ? compareMissing(ROOT) : undefined;
if (compareSkipped) say(`3/8 start-up beside ${CLIENT_NAMES['web-js']} skipped: ${compareSkipped}`);
else if (ONLY.has('compare')) {
  mark('compare');
  say(`3/8 start-up beside ${CLIENT_NAMES['web-js']}, ${COMPARE_RUNS} runs per client and scenario … (${elapsed()})`);
  compare = await compareBench(ROOT, TMP, COMPARE_RUNS, say, compareScenarios(process.env.BENCH_COMPARE_SCENARIOS), {
    beside: process.env.BENCH_COMPARE_BESIDE || undefined,
    traceDir: process.env.BENCH_COMPARE_TRACE || undefined,
  });
  if (chromiumVersion === 'not launched') chromiumVersion = compare.chromium;
}

if (ONLY.has('server')) {
  mark('server');
  const load = { durationMs: SECONDS * 1000, concurrency: 20, calibration: 1500, maxPool: 40_000 };
  say(`5/8 server on SQLite, 20 clients, ${SECONDS} s per endpoint … (${elapsed()})`);
  servers.push(await serverBench(load));
  const found = postgresBin();
  if ('missing' in found) say(`    PostgreSQL figures skipped: ${found.missing}`);
  else {
    const cluster = await startPostgresCluster();
    try {
      for (const instances of [1, 2]) {
        say(`    on PostgreSQL, ${instances} instance${instances > 1 ? 's' : ''} … (${elapsed()})`);
        servers.push(await serverBench({ ...load, postgresUrl: await freshDatabase(cluster.url, `bench_${instances}`), instances }));
      }
    } finally {
      cluster.stop();
    }
  }
}

if (ONLY.has('beside')) {
  mark('beside');
  say(`5b/8 server beside ${SERVER_BASE} on SQLite, 20 clients, ${SECONDS} s per call, ${Math.max(2, SERVER_ROUNDS)} rounds each, alternating … (${elapsed()})`);
  try {
    beside = await serverBeside({ root: ROOT, commit: SERVER_BASE, rounds: SERVER_ROUNDS, concurrency: 20, durationMs: SECONDS * 1000, tmp: TMP, say });
  } catch (error) {
    beside = { skipped: error instanceof Error ? error.message : String(error) };
    say(`    skipped: ${beside.skipped}`);
  }
}

if (ONLY.has('evaluate')) {
  mark('evaluate');
  ensureBuilt(ROOT); // builds dist/ when it is missing or older than the sources
  say(`6/8 bundle evaluation at 4x CPU slowdown, ${EVALUATE_RUNS} runs per bundle … (${elapsed()})`);
  const browser = await launchChromium();
  if (chromiumVersion === 'not launched') chromiumVersion = browser.version();
  try {
    evaluation = await evaluateBench(browser, [join(ROOT, 'dist', 'corbado.js'), ...EVALUATE_BESIDE], EVALUATE_RUNS, say);
  } finally {
    await browser.close();
  }
}

if (ONLY.has('import')) {
  mark('import');
  const file = join(TMP, 'import-users.jsonl');
  const megabytes = writeImportFile(file, IMPORT_USERS);
  say(`7/8 users import, ${IMPORT_USERS.toLocaleString('en')} users (${megabytes.toFixed(1)} MB of JSONL), on SQLite … (${elapsed()})`);
  const sqlite = join(TMP, `import-${Date.now()}.sqlite`);
  imports.push({ ...(await importBench({ DATABASE_PATH: sqlite }, 'sqlite', file, IMPORT_USERS, TMP)), fileMegabytes: megabytes });
  const found = postgresBin();
  if ('missing' in found) say(`    PostgreSQL figures skipped: ${found.missing}`);
  else {
    const cluster = await startPostgresCluster();
    try {
      say(`    on PostgreSQL … (${elapsed()})`);
      const url = await freshDatabase(cluster.url, 'bench_import');
      imports.push({ ...(await importBench({ DATABASE_URL: url }, 'postgres', file, IMPORT_USERS, TMP)), fileMegabytes: megabytes });
    } finally {
      cluster.stop();
    }
  }
}

/**
 * Section 8: the sign-up soak with and without the trail, then the trail at scale. The soak runs in
 * pairs, off then recorded, several times over (A B A B …): on a machine other work shares, a single pair
 * says more about the neighbours than about the trail; the median of the pairs' p95 ratios is the figure.
 */
const auditSoak: (ServerResults & { pair: number })[] = [];
const auditScale: AuditBenchResult[] = [];
if (ONLY.has('audit')) {
  mark('audit');
  const load = { durationMs: SECONDS * 1000, concurrency: 20, calibration: 1500, maxPool: 40_000 };
  const soak = async (database: string, postgresUrl?: (trail: boolean, pair: number) => Promise<string>) => {
    for (let pair = 1; pair <= AUDIT_PAIRS; pair++) {
      for (const auditTrail of [false, true]) {
        say(`    ${database} pair ${pair} of ${AUDIT_PAIRS}, ${auditTrail ? 'recorded' : 'off'} … (${elapsed()})`);
        auditSoak.push({ ...(await serverBench({ ...load, auditTrail, ...(postgresUrl ? { postgresUrl: await postgresUrl(auditTrail, pair) } : {}) })), pair });
      }
    }
  };
  if (AUDIT_DATABASES.has('sqlite')) {
    if (AUDIT_PARTS.has('soak')) {
      say(`8/8 audit trail: the sign-up soak without and with recording, on SQLite, ${AUDIT_PAIRS} pairs … (${elapsed()})`);
      await soak('SQLite');
    }
    if (AUDIT_PARTS.has('scale')) {
      say(`    ${AUDIT_RECORDS.toLocaleString('en')} records on SQLite … (${elapsed()})`);
      auditScale.push(await auditBench(join(TMP, `audit-${Date.now()}.sqlite`), AUDIT_RECORDS, AUDIT_EXPORT, 50, say));
    }
  }
  const found = postgresBin();
  if (!AUDIT_DATABASES.has('postgres')) say('    PostgreSQL figures not asked for (BENCH_AUDIT_DATABASES)');
  else if ('missing' in found) say(`    PostgreSQL figures skipped: ${found.missing}`);
  else {
    const cluster = await startPostgresCluster();
    try {
      if (AUDIT_PARTS.has('soak')) {
        say(`    the sign-up soak on PostgreSQL, ${AUDIT_PAIRS} pairs … (${elapsed()})`);
        await soak('PostgreSQL', (trail, pair) => freshDatabase(cluster.url, `bench_audit_${trail ? 'on' : 'off'}_${pair}`));
      }
      if (AUDIT_PARTS.has('scale')) {
        say(`    ${AUDIT_RECORDS.toLocaleString('en')} records on PostgreSQL … (${elapsed()})`);
        try {
          auditScale.push(await auditBench(await freshDatabase(cluster.url, 'bench_audit_scale'), AUDIT_RECORDS, AUDIT_EXPORT, 50, say));
        } catch (error) {
          // the figures measured so far are still written
          say(`    the PostgreSQL trail at scale failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    } finally {
      cluster.stop();
    }
  }
}

const consoleSearch: ConsoleSearchResult[] = [];
if (ONLY.has('console')) {
  mark('console');
  say(`console: the user search on ${CONSOLE_USERS.toLocaleString('en')} users, SQLite … (${elapsed()})`);
  consoleSearch.push(await consoleSearchBench(join(TMP, `console-${Date.now()}.sqlite`), CONSOLE_USERS, 100, say));
  const found = postgresBin();
  if ('missing' in found) say(`    PostgreSQL figures skipped: ${found.missing}`);
  else {
    const cluster = await startPostgresCluster();
    try {
      say(`    PostgreSQL … (${elapsed()})`);
      consoleSearch.push(await consoleSearchBench(await freshDatabase(cluster.url, 'bench_console'), CONSOLE_USERS, 100, say));
    } finally {
      cluster.stop();
    }
  }
}

const machine = machineInfo(ROOT, chromiumVersion, playwrightVersion);
say();
say(`Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGb} GB, ${machine.os}; Node ${machine.node}; Chromium ${machine.chromium}; ${machine.date}`);
say(`1-minute load average at the start of each section: ${Object.entries(loadAverage).map(([section, value]) => `${section} ${value}`).join(', ')}`);
if (machine.workingTreeChanges.length) say(`Note: uncommitted changes in the measured tree: ${machine.workingTreeChanges.join(', ')}`);

if (size) {
  say();
  say(
    table(
      `Bundle ${size.file}${size.rebuilt ? ' (rebuilt)' : ''}`,
      ['', 'bytes', 'KB'],
      [
        ['raw', size.rawBytes, kb(size.rawBytes)],
        ['gzip -9', size.gzipBytes, kb(size.gzipBytes)],
        ['brotli 11', size.brotliBytes, kb(size.brotliBytes)],
      ],
    ),
  );
  say();
  say(
    table(
      'Minified bytes by origin (source-map build of the same config)',
      ['group', 'KB', 'share'],
      size.groups.map((group) => [group.group, kb(group.bytes), `${(group.share * 100).toFixed(1)}%`]),
    ),
  );
  for (const note of size.notes) say(`  note: ${note}`);
}

if (startup) {
  say();
  say(
    table(
      `Start-up of the auth view (pro-1, /blank.html + bundle, median of ${RUNS} runs, fresh browser context each)`,
      ['scenario', 'script→input', 'load()→input', 'script eval', 'load()→process req', 'response→input', 'round trips', 'wire RTs', 'API req (before/all)', 'preflights (before/all)'],
      startup.map((s) => [
        s.name,
        ms(s.median.toInteractiveMs),
        ms(s.median.loadToInteractiveMs),
        ms(s.median.scriptEvalMs),
        ms(s.median.processRequestAfterLoadMs),
        ms(s.median.renderAfterResponseMs),
        s.median.roundTrips,
        s.median.wireRoundTrips,
        `${s.median.apiRequestsBeforeInteractive}/${s.median.apiRequestsTotal}`,
        `${s.median.preflightsBeforeInteractive}/${s.median.preflightsTotal}`,
      ]),
    ),
  );
  const seen = new Set<string>();
  for (const s of startup) {
    const key = `${s.visitor} ${s.latencyMs}`;
    if (seen.has(key) || s.cpuSlowdown !== 1) continue;
    seen.add(key);
    say(`  ${s.name}: ${s.requests.join(' · ')}`);
    say(`    critical path on the wire: ${s.criticalPath.join(' → ')}`);
  }
}

if (compare) {
  const own = (s: CompareResults['scenarios'][number]) => s.clients.own;
  const web = (s: CompareResults['scenarios'][number]) => s.clients['web-js'];
  const spread = (value: { median: number; min: number; max: number }) =>
    Number.isFinite(value.median) ? `${Math.round(value.median)} (${Math.round(value.min)}–${Math.round(value.max)})` : '-';
  say();
  say(
    table(
      `Start-up beside ${CLIENT_NAMES['web-js']}: ms from navigation start to the usable identifier field, median (min–max) of ${COMPARE_RUNS} runs each; Chromium ${compare.chromium}`,
      ['scenario', 'load avg', 'ours', 'web-js', 'ours / web-js', 'load()→input ours / web-js', 'API req before', 'preflights before', 'wire RTs', 'script run ours / web-js', 'session-config→process req (ours)'],
      compare.scenarios.map((s) => [
        s.name,
        s.loadAverage.toFixed(1),
        spread(own(s).spread.toInputMs),
        spread(web(s).spread.toInputMs),
        `${s.ratio.toInput.toFixed(2)}x`,
        `${ms(own(s).median.loadToInputMs)} / ${ms(web(s).median.loadToInputMs)}`,
        `${own(s).median.apiRequestsBeforeInput} / ${web(s).median.apiRequestsBeforeInput}`,
        `${own(s).median.preflightsBeforeInput} / ${web(s).median.preflightsBeforeInput}`,
        `${own(s).median.wireRoundTrips} / ${web(s).median.wireRoundTrips}`,
        `${spread(own(s).spread.scriptRunMs)} / ${spread(web(s).spread.scriptRunMs)}`,
        spread(own(s).spread.sessionConfigToProcessMs),
      ]),
    ),
  );
  const fresh = compare.scenarios.find((s) => s.visitor === 'fresh' && s.latencyMs === 0 && s.cpuSlowdown === 1);
  say();
  say(
    table(
      'What each client ships (script + CSS; brotli 11 and gzip -9 computed here, transferred = Resource Timing transferSize of a fresh visit, the page server compresses as the browser accepts)',
      ['client', 'files', 'raw', 'gzip -9', 'brotli 11', 'transferred'],
      compare.shipped.map((shipped) => [
        CLIENT_NAMES[shipped.client],
        shipped.files.map((file) => file.path).join(' + '),
        kb(shipped.raw),
        kb(shipped.gzip),
        kb(shipped.brotli),
        ((figures) => (figures ? kb(figures.median.filesTransferredBytes) : '-'))(fresh?.clients[shipped.client]),
      ]),
    ),
  );
  const [ours, theirs] = [compare.shipped.find((s) => s.client === 'own')!, compare.shipped.find((s) => s.client === 'web-js')!];
  say(`  brotli, ours / web-js: ${(ours.brotli / theirs.brotli).toFixed(3)}x`);
  for (const s of compare.scenarios) {
    if (s.cpuSlowdown !== 1) continue;
    say(`  ${s.name}, ours: ${own(s).requests.join(' · ')}`);
    say(`  ${s.name}, web-js: ${web(s).requests.join(' · ')}`);
  }
  const wire = (rows: CompareResults['scenarios'][number]['clients']['own']['waterfall']) =>
    rows.map((row) => `${row.what} ${Math.round(row.start)}${row.end > row.start ? `–${Math.round(row.end)}` : ''}`).join(' · ');
  for (const s of compare.scenarios) {
    if (s.cpuSlowdown !== 1 || s.latencyMs === 0) continue;
    say(`  ${s.name}, ours, the median run on the wire (ms from navigation start): ${wire(own(s).waterfall)}`);
    if (s.clients.beside) say(`  ${s.name}, the other build (BENCH_COMPARE_BESIDE), the median run on the wire: ${wire(s.clients.beside.waterfall)}`);
  }
  for (const s of compare.scenarios) {
    const beside = s.clients.beside;
    if (!beside || !s.ratio.beside) continue;
    const d = s.ratio.beside.pairDifferenceMs;
    say(
      `  ${s.name}, beside the other build: ${spread(own(s).spread.toInputMs)} / ${spread(beside.spread.toInputMs)} ms, ${s.ratio.beside.toInput.toFixed(2)}x; ours − other, round by round: median ${Math.round(d.median)} ms (${Math.round(d.min)} to ${Math.round(d.max)}); script run ${spread(own(s).spread.scriptRunMs)} / ${spread(beside.spread.scriptRunMs)} ms`,
    );
  }
}

if (evaluation) {
  say();
  say(
    table(
      `Bundle evaluation before anything is mounted: inline script on a fresh page, 4x CPU slowdown, ${EVALUATE_RUNS} runs per bundle, interleaved`,
      ['bundle', 'raw', 'thread ms (EvaluateScript), median', 'p25–p75', 'min–max', 'wall ms, median'],
      evaluation.map((figures) => [
        figures.file,
        kb(figures.bytes),
        figures.threadMs.median.toFixed(1),
        `${figures.threadMs.p25.toFixed(1)}–${figures.threadMs.p75.toFixed(1)}`,
        `${figures.threadMs.min.toFixed(1)}–${figures.threadMs.max.toFixed(1)}`,
        figures.wallMs.median.toFixed(1),
      ]),
    ),
  );
  for (const other of evaluation.slice(1)) {
    const change = evaluation[0]!.threadMs.median / other.threadMs.median - 1;
    say(`  dist/corbado.js against ${other.file}: ${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} % thread time`);
  }
}

if (memory) {
  say();
  const check = new Map(memory.leakCheck.map((view) => [view.view, view]));
  say(
    table(
      `JS heap after GC: growth over ${CYCLES} mount/unmount cycles (after cycle 1 → after cycle ${CYCLES}), then ${CYCLES} more`,
      ['view', 'heap after 1', 'growth', 'per cycle', `next ${CYCLES}`, 'leak check (jitless)', 'API requests after cycle 1'],
      memory.views.map((view) => [
        view.view,
        kb(view.heapAfterFirstKb * 1024, 0),
        kb(view.growthKb * 1024),
        `${Math.round(view.growthPerCycleBytes)} B`,
        kb(view.nextCyclesGrowthKb * 1024),
        check.get(view.view) ? `${kb(check.get(view.view)!.growthKb * 1024)} / ${kb(check.get(view.view)!.nextCyclesGrowthKb * 1024)}` : '-',
        Object.entries(view.requestsAfterFirstCycle)
          .map(([request, count]) => `${count}× ${request}`)
          .join(', ') || 'none',
      ]),
    ),
  );
}

if (servers.length) {
  say();
  const rows = servers.flatMap((server) => [
    [server, 'POST /v2/auth/process/init', server.processInit] as const,
    [server, 'POST /v2/auth/identifier/verify/finish', server.verifyFinish] as const,
  ]);
  say(
    table(
      `Server: ${servers[0]!.concurrency} concurrent clients, ${servers[0]!.durationMs / 1000} s per endpoint, API in child processes, loopback`,
      ['database', 'instances', 'endpoint', 'req/s', 'p50', 'p95', 'p99', 'requests', 'errors'],
      rows.map(([server, name, result]) => [
        server.database,
        server.instances,
        name,
        Math.round(result.rps),
        `${result.p50Ms.toFixed(1)} ms`,
        `${result.p95Ms.toFixed(1)} ms`,
        `${result.p99Ms.toFixed(1)} ms`,
        result.requests,
        result.errors,
      ]),
    ),
  );
  for (const server of servers) {
    say(`  ${server.database} × ${server.instances}, verify/finish: ${server.verifyFinish.pool} processes prepared beforehand${server.verifyFinish.ranDry ? ' (the pool ran out before the window ended)' : ''}`);
  }
  say(`  verify/finish: ${servers[0]!.verifyFinish.kind}`);
  for (const server of servers.filter((s) => s.database === 'PostgreSQL')) {
    const p95 = server.verifyFinish.p95Ms;
    say(`  PostgreSQL × ${server.instances}, verify/finish p95 at ${server.concurrency} clients: ${p95.toFixed(1)} ms (issue 34's target: under ${PG_VERIFY_P95_TARGET_MS} ms) ${p95 < PG_VERIFY_P95_TARGET_MS ? 'met' : 'NOT met'}`);
  }
}

if (beside && 'ours' in beside) {
  const { ours, base } = beside;
  say();
  say(
    table(
      `Server beside ${base.commit}: SQLite, ${beside.concurrency} clients, ${beside.durationMs / 1000} s per call, ${beside.order}; ratio = ours / base (throughput: above 1 is faster; p50, p95: below 1 is faster)`,
      ['call', 'req/s ours', 'req/s base', 'ratio', 'p50 ours', 'p50 base', 'ratio', 'p95 ours', 'p95 base', 'ratio', 'errors'],
      BESIDE_CALLS.map((call) => {
        const [a, b] = [besideSummary(ours, call), besideSummary(base, call)];
        return [
          call,
          Math.round(a.rps),
          Math.round(b.rps),
          `${(a.rps / b.rps).toFixed(2)}x`,
          `${a.p50Ms.toFixed(1)} ms`,
          `${b.p50Ms.toFixed(1)} ms`,
          `${(a.p50Ms / b.p50Ms).toFixed(2)}x`,
          `${a.p95Ms.toFixed(1)} ms`,
          `${b.p95Ms.toFixed(1)} ms`,
          `${(a.p95Ms / b.p95Ms).toFixed(2)}x`,
          `${a.errors}/${b.errors}`,
        ];
      }),
    ),
  );
  for (const call of BESIDE_CALLS) {
    const [a, b] = [besideSummary(ours, call), besideSummary(base, call)];
    const dry = [ours, base].flatMap((side) => side.rounds.flatMap((round, index) => (round[call].ranDry ? [`${side.label} round ${index + 1}`] : [])));
    say(
      `  ${call}: ${CALL_PATHS[call]}; req/s per round, ours ${a.perRoundRps.map(Math.round).join(' / ')}, base ${b.perRoundRps.map(Math.round).join(' / ')}${dry.length ? `; ran out of prepared processes before the window ended: ${dry.join(', ')}` : ''}`,
    );
  }
}

if (imports.length) {
  say();
  say(
    table(
      `Users import: npm run admin -- users import, ${imports[0]!.users.toLocaleString('en')} users, batches of 1,000, then the same file again`,
      ['database', 'users', 'first run', 'users/s', 'import CPU', 'rerun (all unchanged)', 'lines/s'],
      imports.map((i) => [i.database, i.users, `${i.seconds} s`, i.usersPerSecond, `${i.cpuSeconds} s`, `${i.rerunSeconds} s`, i.rerunLinesPerSecond]),
    ),
  );
}

if (auditSoak.length) {
  say();
  say(
    table(
      `Audit trail: the sign-up soak (verify/finish with the correct code, ${auditSoak[0]!.concurrency} clients, ${auditSoak[0]!.durationMs / 1000} s) without and with recording, in alternating pairs`,
      ['database', 'pair', 'trail', 'req/s', 'p50', 'p95', 'p99', 'p95 change'],
      auditSoak.map((run, i) => {
        const base = auditSoak[i - (run.auditTrail ? 1 : 0)]!;
        return [
          run.database,
          run.pair,
          run.auditTrail ? 'recorded' : 'off',
          Math.round(run.verifyFinish.rps),
          `${run.verifyFinish.p50Ms.toFixed(1)} ms`,
          `${run.verifyFinish.p95Ms.toFixed(1)} ms`,
          `${run.verifyFinish.p99Ms.toFixed(1)} ms`,
          run.auditTrail ? `${((run.verifyFinish.p95Ms / base.verifyFinish.p95Ms - 1) * 100).toFixed(1)} %` : '-',
        ];
      }),
    ),
  );
  for (const [database, change] of Object.entries(auditOverhead(auditSoak))) say(`  ${database}: median p95 change over the pairs ${change.p95.toFixed(1)} % (p50 ${change.p50.toFixed(1)} %)`);
}
if (auditScale.length) {
  say();
  say(
    table(
      `Audit trail at scale: ${auditScale[0]!.records.toLocaleString('en')} records of one project (${auditScale[0]!.users.toLocaleString('en')} users, a year), ${auditScale[0]!.export.records.toLocaleString('en')} of another exported`,
      ['database', 'seeded in', 'list one user p50 / p95', 'stats 365 days p50 / p95', 'export records/s', 'export heap before / peak / after'],
      auditScale.map((a) => [
        a.database,
        `${a.seedSeconds} s`,
        `${a.listOneUser.p50Ms} / ${a.listOneUser.p95Ms} ms (${a.listOneUser.records} records)`,
        `${a.stats365.p50Ms} / ${a.stats365.p95Ms} ms`,
        a.export.recordsPerSecond.toLocaleString('en'),
        `${a.export.heapBeforeMb} / ${a.export.heapPeakMb} / ${a.export.heapAfterMb} MB`,
      ]),
    ),
  );
  say();
  say(
    table(
      `GET /v2/auditEvents at ${auditScale[0]!.records.toLocaleString('en')} records, 100 a page (p50 / p95; "before": the OFFSET page and the exact count the list used before keyset paging, 3 runs)`,
      ['database', 'page 1', `page ${auditScale[0]!.auditEvents.deepPage.page.toLocaleString('en')}`, 'page 1 filtered by event', 'cursor at 90 %, filtered', 'before: same deep page by OFFSET', 'before: exact count of the filter'],
      auditScale.map((a) => {
        const e = a.auditEvents;
        return [
          a.database,
          `${e.firstPage.p50Ms} / ${e.firstPage.p95Ms} ms`,
          `${e.deepPage.p50Ms} / ${e.deepPage.p95Ms} ms`,
          `${e.firstPageFiltered.p50Ms} / ${e.firstPageFiltered.p95Ms} ms (${e.firstPageFiltered.totalItems.toLocaleString('en')}${e.firstPageFiltered.capped ? '+' : ''})`,
          `${e.deepCursorFiltered.p50Ms} / ${e.deepCursorFiltered.p95Ms} ms`,
          `${e.before.deepPageByOffset.p50Ms} / ${e.before.deepPageByOffset.p95Ms} ms`,
          `${e.before.exactCountFiltered.p50Ms} / ${e.before.exactCountFiltered.p95Ms} ms (${e.before.exactCountFiltered.totalItems.toLocaleString('en')})`,
        ];
      }),
    ),
  );
}

if (consoleSearch.length) {
  say();
  say(
    table(
      `Console user search: one page of 25 on ${consoleSearch[0]!.users.toLocaleString('en')} users (the route's own function, ${consoleSearch[0]!.queries[0]!.runs} queries per kind)`,
      ['query', ...consoleSearch.map((r) => `${r.database} p50 / p95`), 'found (first page)'],
      consoleSearch[0]!.queries.map((q, i) => [q.kind, ...consoleSearch.map((r) => `${r.queries[i]!.p50Ms} / ${r.queries[i]!.p95Ms} ms`), String(q.found)]),
    ),
  );
  say(`  p95 of every query: ${consoleSearch.map((r) => `${r.database} ${r.allP95Ms} ms`).join(', ')}`);
}

const results = {
  machine,
  settings: { startupRuns: RUNS, mountCycles: CYCLES, serverSeconds: SECONDS, evaluateRuns: EVALUATE_RUNS, sections: [...ONLY] },
  loadAverageAtSectionStart: loadAverage,
  size,
  startup: startup && {
    page: '/blank.html on the demo server; dist/corbado.js is fetched first (not timed), then run as an inline script, then Corbado.load({projectId:"pro-1"}) and mountAuthUI(#w)',
    scriptStart: 'performance.now() right before the inline <script> with the bundle is appended (it executes synchronously)',
    interactive: 'input[name="identifier"] exists in the shadow root and is not disabled (MutationObserver)',
    scenarios: startup,
  },
  evaluate: evaluation && {
    page: 'a new browser context per run, a page with <div id="w">, CDP Emulation.setCPUThrottlingRate(4), a devtools.timeline trace; the bundle appended as an inline script with a unique trailing comment (no code cache); the first round is a warm-up',
    threadMs: 'tdur of the longest EvaluateScript trace event: main-thread CPU time compiling and running the bundle',
    bundles: evaluation,
  },
  memory: memory && {
    cycles: CYCLES,
    heap: 'CDP HeapProfiler.collectGarbage (3x), then Runtime.getHeapUsage().usedSize',
    leakCheckFlags: LEAK_CHECK_FLAGS,
    views: memory.views,
    leakCheck: memory.leakCheck,
  },
  compare: compareSkipped ? { skipped: compareSkipped } : compare && {
    page: 'an empty page with one <div id="w">: a watcher script, the client\'s CSS (web-js) in the head, its <script src> after the div, then Corbado.load({projectId:"pro-1",darkMode:"off"}).then(() => Corbado.mountAuthUI(#w)); both clients call https://pro-1.frontendapi.corbado.io, mapped by Chromium to the local TLS proxy',
    input: 'the identifier field (ours: input[name="identifier"] in the shadow root; web-js: input[name="email"]) present, enabled, not read-only, with a box and visible, noticed by a MutationObserver (a 50 ms timer as a safety net); timed from navigation start',
    ...compare,
  },
  server: servers,
  serverBeside: beside,
  import: imports.length ? imports : undefined,
  audit: auditSoak.length || auditScale.length ? { soak: auditSoak, overhead: auditOverhead(auditSoak), scale: auditScale } : undefined,
  console: consoleSearch.length ? consoleSearch : undefined,
  totalSeconds: (performance.now() - started) / 1000,
};
writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
say();
say(`Wrote ${OUT} (${elapsed()} in all)`);
