// `npm test`: every stage, timed (scripts/stages.ts). The type check, the lint and the build share no
// output and each keeps one core busy at most, so they run at the same time; the test stages follow one
// by one, since each of them keeps both cores busy. The table of stage times ends the output, also when
// a stage fails. Under `.ci/run` (STAGE_TIMES_FILE) the rows go to that file instead, and `.ci/run`
// prints them beside its own stages. `npm test -- --rebuild` (`.ci/run`, after `npm ci --ignore-scripts`)
// runs the dependencies' install scripts (better-sqlite3 compiled from source where no prebuilt binary
// can be fetched: minutes of one core) beside those three, which do not load them; the tests wait for it.
import { appendFileSync } from 'node:fs';
import { runStages, stageLines, stageTable, type Step } from './stages.ts';

const npm = (script: string) => ['npm', 'run', '--silent', script];
const rebuild = process.argv.includes('--rebuild');
const steps: Step[] = [
  [
    // both cores for the native module's two compile units
    ...(rebuild ? [{ name: 'npm rebuild', command: ['env', 'JOBS=2', 'npm', 'rebuild'] }] : []),
    { name: 'typecheck', command: npm('typecheck') },
    { name: 'lint', command: npm('lint') },
    { name: 'build', command: npm('build') },
  ],
  { name: 'unit', command: npm('test:unit') },
  { name: 'postgres', command: npm('test:postgres') },
  { name: 'e2e', command: npm('test:e2e') },
  { name: 'engines', command: npm('test:engines') },
];

const started = performance.now();
const results = await runStages(steps);
const file = process.env.STAGE_TIMES_FILE;
if (file) appendFileSync(file, stageLines(results));
else process.stdout.write(`\nStage times (CPU: user + system of the stage's processes)\n${stageTable(results, performance.now() - started)}`);
process.exit(results.every((result) => result.status === 'passed') ? 0 : 1);
