// `npm run test:engines`: the main journeys (e2e/engines/journeys.ts) in Firefox ESR and in WebKitGTK,
// against the built bundle, the demo pages and the real Frontend API on a throw-away SQLite file, started
// the way the Playwright suite starts them. An engine that is not installed is skipped with its reason
// (exit 0); every wait is bounded, and the browsers and the server are ended on every way out.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firefoxMissing, launchFirefox } from '../e2e/engines/firefox.ts';
import { journeys, type EngineExpectations } from '../e2e/engines/journeys.ts';
import { bounded, type EnginePage } from '../e2e/engines/page.ts';
import { launchWebKit, webkitMissing } from '../e2e/engines/webkit.ts';
import { crossSiteRows, socialRows } from '../e2e/engines/crossSite.ts';
import { startCrossSiteStack } from '../e2e/crossSiteStack.ts';

interface Engine extends EngineExpectations {
  name: string;
  missing(): string | undefined;
  launch(baseUrl: string): Promise<EnginePage>;
}

const ENGINES: Engine[] = [
  { name: 'Firefox ESR', missing: firefoxMissing, launch: launchFirefox, webAuthn: true },
  // WebKitGTK has no WebAuthn at all: the passkey offers must be left out
  { name: 'WebKitGTK', missing: webkitMissing, launch: launchWebKit, webAuthn: false },
];

/** A step that has not ended by then has failed (its own waits are shorter). */
const STEP_LIMIT_MS = 60_000;
/** The whole run, browsers and server included, ends by then whatever hangs. */
const RUN_LIMIT_MS = 9 * 60_000;
const DEMO_PORT = Number(process.env.E2E_DEMO_PORT ?? 5176);
const API_PORT = Number(process.env.E2E_API_PORT ?? 3104);
const demoUrl = `http://localhost:${DEMO_PORT}`;
const apiUrl = `http://localhost:${API_PORT}`;
const databasePath = join(tmpdir(), `corbado-engines-${process.pid}-${Date.now()}.sqlite`);

const open = new Set<EnginePage>();
/** set on SIGINT/SIGTERM: nothing more is started, and what starts meanwhile is closed at once */
let stopping = false;
let server: ChildProcess | undefined;

async function stopServer(): Promise<void> {
  const child = server;
  server = undefined;
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }, 5_000);
    await exited;
    clearTimeout(timer);
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(databasePath + suffix, { force: true });
}

async function cleanUp(): Promise<void> {
  await Promise.allSettled([...open].map((page) => page.close()));
  open.clear();
  await stopServer();
}

/** `npx tsx scripts/start.ts` as Playwright's webServer runs it, in a process group of its own; answers once the demo serves. */
async function startServer(): Promise<void> {
  let output = '';
  server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DEMO_PORT: String(DEMO_PORT), API_PORT: String(API_PORT), BACKEND_API_PORT: '0', CONSOLE_PORT: 'off', DATABASE_PATH: databasePath },
  });
  const child = server;
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${demoUrl}/config.js`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer on ${demoUrl} within 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs one engine's journeys in order; a failed step ends that engine's run (the later steps build on it). */
async function runEngine(engine: Engine): Promise<{ passed: number; failed: number }> {
  const started = Date.now();
  let page: EnginePage | undefined;
  try {
    page = await engine.launch(demoUrl);
    open.add(page);
    if (stopping) throw new Error('stopped');
    console.info(`\n${engine.name}: ${page.version} (started in ${seconds(started)})`);
    let passed = 0;
    for (const step of journeys(page, { api: apiUrl, demo: demoUrl }, engine)) {
      if (stopping) return { passed, failed: 1 };
      const stepStarted = Date.now();
      try {
        await bounded(step.run(), STEP_LIMIT_MS, 'the step');
        passed++;
        console.info(`  ✓ ${step.name} (${seconds(stepStarted)})`);
      } catch (error) {
        const reason = stopping ? 'stopped' : error instanceof Error ? error.message : String(error);
        console.info(`  ✗ ${step.name} (${seconds(stepStarted)})\n    ${reason}`);
        const shown = await Promise.race([page.evaluate<string>("cbText('#widget')").catch(() => undefined), new Promise<undefined>((resolve) => setTimeout(resolve, 5_000))]);
        if (shown !== undefined) console.info(`    the auth view showed: ${JSON.stringify(shown)}`);
        // what the widget keeps in this browser (the process it resumes, the session's presence), for the next reader of a failure
        const kept = await Promise.race([
          page.evaluate<string>("JSON.stringify(Object.keys(localStorage).sort().map(function (key) { return key + (key.indexOf('cbo_auth_process') === 0 ? '=' + localStorage.getItem(key) : ''); }))").catch(() => undefined),
          new Promise<undefined>((resolve) => setTimeout(resolve, 5_000)),
        ]);
        if (kept !== undefined) console.info(`    localStorage: ${kept}`);
        return { passed, failed: 1 };
      }
    }
    return { passed, failed: 0 };
  } catch (error) {
    console.info(`\n${engine.name}: could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { passed: 0, failed: 1 };
  } finally {
    if (page) {
      await page.close();
      open.delete(page);
    }
  }
}

/**
 * README "Where to put the server" beyond Chromium: the https shapes of e2e/crossSiteStack.ts in each
 * installed engine (e2e/engines/crossSite.ts): the session rows, then one GitHub sign-in per shape. Answers
 * the number of failures: a silent sign-out (signed out without the widget having said "short-only"), a
 * provider sign-in that stopped with nothing said, or rows that could not be measured.
 */
async function acrossSites(engines: Engine[]): Promise<number> {
  const kinds = engines.map((engine) => (engine.launch === launchFirefox ? 'firefox' : 'webkit') as 'firefox' | 'webkit');
  if (!kinds.length) return 0;
  let failed = 0;
  let stack;
  try {
    stack = await startCrossSiteStack();
    for (const [i, kind] of kinds.entries()) {
      if (stopping) break;
      const started = Date.now();
      console.info(`\n${engines[i]!.name} across sites (https, real host names):`);
      try {
        const { silent } = await bounded(crossSiteRows(kind, stack), 5 * STEP_LIMIT_MS, 'the rows across sites');
        for (const row of silent) console.info(`  ✗ ${row.api}, ${row.cookies}, crossSiteSessions ${row.sessions}: signed out without the widget saying "short-only"`);
        failed += silent.length;
      } catch (error) {
        console.info(`  ✗ ${error instanceof Error ? error.message : String(error)}`);
        failed++;
      }
      try {
        const { silent } = await bounded(socialRows(kind, stack), 3 * STEP_LIMIT_MS, 'the GitHub sign-ins across sites');
        for (const row of silent) console.info(`  ✗ ${row.api}, ${row.cookies}: the GitHub sign-in stopped and nothing told the visitor`);
        failed += silent.length;
      } catch (error) {
        console.info(`  ✗ ${error instanceof Error ? error.message : String(error)}`);
        failed++;
      }
      console.info(`  (${seconds(started)})`);
    }
  } catch (error) {
    console.info(`\nAcross sites: could not start the stack: ${error instanceof Error ? error.message : String(error)}`);
    failed++;
  } finally {
    await stack?.close();
  }
  return failed;
}

async function main(): Promise<number> {
  const skipped = ENGINES.filter((engine) => engine.missing());
  for (const engine of skipped) console.info(`${engine.name} SKIPPED: ${engine.missing()}.`);
  const engines = ENGINES.filter((engine) => !skipped.includes(engine));
  if (!engines.length) {
    console.info('Cross-engine tests SKIPPED: neither Firefox ESR nor WebKitGTK is installed.');
    return 0;
  }
  if (!existsSync(new URL('../dist/corbado.js', import.meta.url))) {
    console.error('dist/corbado.js is missing: run "npm run build" first (npm test does).');
    return 1;
  }
  const started = Date.now();
  await startServer();
  let passed = 0;
  let failed = 0;
  // one engine after the other: the machine is small, and the journeys are not about concurrency
  for (const engine of engines) {
    if (stopping) break;
    const result = await runEngine(engine);
    passed += result.passed;
    failed += result.failed;
  }
  if (!stopping) failed += await acrossSites(engines);
  console.info(`\nCross-engine journeys in ${seconds(started)}${skipped.length ? ` (skipped: ${skipped.map((engine) => engine.name).join(', ')})` : ''}`);
  console.info(`engines: ${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

// however the process ends, the server's process group does not outlive it
process.on('exit', () => {
  if (server?.pid && server.exitCode === null) {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
});
const limit = setTimeout(() => {
  console.error(`Cross-engine tests: still running after ${RUN_LIMIT_MS / 1000} s, stopping.`);
  void cleanUp().finally(() => process.exit(1));
}, RUN_LIMIT_MS);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopping = true;
    console.error(`Cross-engine tests: ${signal}, stopping.`);
    void cleanUp().finally(() => process.exit(130));
  });
}

let status = 1;
try {
  status = await main();
} catch (error) {
  console.error(error);
} finally {
  await cleanUp();
  clearTimeout(limit);
}
process.exit(status);
