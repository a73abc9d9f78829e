// `npm test`: every stage, timed (scripts/stages.ts), laid out by what each needs and how much of the
// two cores it keeps busy (measured: .ci/run's table, README "Tests").
// 1. The type check, the lint, the build and the unit tests that load no database (vitest's core, ui,
//    console and tools projects) share no output, so they run at the same time. `npm test -- --rebuild`
//    (`.ci/run`, after `npm ci --ignore-scripts`) runs the dependencies' install scripts beside them
//    (better-sqlite3 compiled from source where no prebuilt binary can be fetched: a minute of one
//    core and a part of the other), which none of them loads; and `.ci/run` installs the system
//    packages meanwhile (SYSTEM_PACKAGES_DONE_FILE below).
// 2. Then three lanes at once: Playwright in Chromium (three workers), the other engines (a quarter of a
//    core, most of it waiting for sessions to expire), and the server's tests on SQLite, then on
//    PostgreSQL. The two cores are busy the whole step until Playwright's last minutes (vmstat), so
//    more lanes or workers do not shorten it much: four Playwright workers and the server suites side
//    by side took as long, and tests ran past their time limits (README "Tests"); a third worker gives
//    Playwright, the longest lane, a larger share of the cores and shortens its tail, where it ran alone.
//    Each lane that starts servers on fixed ports gets ports of its own (portsFor below), so none
//    meets another's.
// The table of stage times ends the output, also when a stage fails. Under `.ci/run` (STAGE_TIMES_FILE)
// the rows go to that file instead, and `.ci/run` prints them beside its own stages.
import { appendFileSync } from 'node:fs';
import { runStages, stageLines, stageTable, type Step } from './stages.ts';

const npm = (script: string, ...args: string[]) => ['npm', 'run', '--silent', script, ...(args.length ? ['--', ...args] : [])];
const rebuild = process.argv.includes('--rebuild');
/**
 * `.ci/run` installs the system packages (the browsers, PostgreSQL) while this runs: it names a file
 * that holds apt's exit status once apt is done, and the first step waits for it (at most 20 minutes),
 * since the second starts the browsers and the database.
 */
const systemPackages = process.env.SYSTEM_PACKAGES_DONE_FILE;
const waitForSystemPackages = systemPackages
  ? [{ name: 'apt (wait)', command: ['bash', '-c', 'for _ in $(seq 1200); do [ -s "$0" ] && exit "$(cat "$0")"; sleep 1; done; echo "apt did not end in 20 minutes"; exit 1', systemPackages] }]
  : [];

/**
 * The ports of the servers a lane starts (the demo pages, the Frontend API and the Backend API next to
 * it, the console), `offset` above Playwright's own (E2E_DEMO_PORT, E2E_API_PORT, E2E_CONSOLE_PORT or
 * their defaults): 0 for Playwright, 2 for the engines (their own defaults, 5176 and 3104), 4 for the
 * PostgreSQL run's scale-out spec.
 */
function portsFor(offset: number): Record<string, string> {
  const port = (name: string, fallback: number) => String(Number(process.env[name] ?? fallback) + offset);
  return {
    E2E_DEMO_PORT: port('E2E_DEMO_PORT', 5174),
    E2E_API_PORT: port('E2E_API_PORT', 3102),
    E2E_BACKEND_API_PORT: String(Number(process.env.E2E_BACKEND_API_PORT ?? Number(process.env.E2E_API_PORT ?? 3102) + 1) + offset),
    E2E_CONSOLE_PORT: port('E2E_CONSOLE_PORT', 3109),
  };
}

/**
 * With `--rebuild`, the native compile is the one stage of the first step that cannot be shared between
 * the cores: SQLite's amalgamation is one compile unit. Run at equal priority beside the four others it
 * got a third of the machine, and the step ended with it running alone for half a minute, one core idle
 * (vmstat, a fresh clone). The others run at nice 10 beside it, so that it keeps a core to itself and they
 * take the rest, and all of the two cores once it is done.
 */
const besideTheCompile = (command: string[]) => (rebuild ? ['nice', '-n', '10', ...command] : command);

const steps: Step[] = [
  [
    // both cores for the native module's two compile units, and SQLite's amalgamation at -O1 instead of
    // the -O3 of better-sqlite3's build: the longest unit by far, it took 43 s of one core instead of 91
    // (76 at -O2; the same idle 2-core machine), while SQLite's statements ran within a few per cent of
    // the -O3 build's in a microbenchmark of inserts and lookups, below that run's own spread. The tests
    // check what the server does, not how fast: `npm run bench` measures a normal install (README "Tests").
    ...(rebuild ? [{ name: 'npm rebuild', command: ['env', 'JOBS=2', 'CFLAGS=-O1', 'npm', 'rebuild'] }] : []),
    ...waitForSystemPackages,
    ...[
      { name: 'typecheck', command: npm('typecheck') },
      { name: 'lint', command: npm('lint') },
      { name: 'build', command: npm('build') },
      { name: 'unit', command: npm('test:unit', '--project', 'core', '--project', 'ui', '--project', 'console', '--project', 'tools') },
    ].map((stage) => ({ ...stage, command: besideTheCompile(stage.command) })),
  ],
  [
    { name: 'e2e', command: npm('test:e2e'), env: portsFor(0) },
    { name: 'engines', command: npm('test:engines'), env: portsFor(2) },
    [
      { name: 'server', command: npm('test:unit', '--project', 'server', '--project', 'bench') },
      { name: 'postgres', command: npm('test:postgres'), env: portsFor(4) },
    ],
  ],
];

const started = performance.now();
const results = await runStages(steps);
const file = process.env.STAGE_TIMES_FILE;
if (file) appendFileSync(file, stageLines(results));
else process.stdout.write(`\nStage times (CPU: user + system of the stage's processes)\n${stageTable(results, performance.now() - started)}`);
process.exit(results.every((result) => result.status === 'passed') ? 0 : 1);
