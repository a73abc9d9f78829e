// The stages of `npm test`, timed: each stage's wall time and the CPU time (user + system) of all it
// started, and a table of them at the end, also when a stage fails. The lanes of one step run at the
// same time (their output is held back and printed whole as each stage ends); a lane is one stage or
// several run one after the other, and after a failure in a lane its later stages are not run. A step
// starts when the one before has passed, and after a failure the later steps are not run. The last lines
// of each held-back stage that failed are printed again after the whole run, where a log cut to its end
// still shows them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Stage {
  name: string;
  /** the program and its arguments */
  command: string[];
  /** variables set for this stage only (its own ports, when stages that start servers run at once) */
  env?: Record<string, string>;
}

/** Stages run one after the other, beside the other lanes of their step. */
export type Lane = Stage | Stage[];

/** One stage, or lanes that run at the same time. */
export type Step = Stage | Lane[];

export interface StageResult {
  name: string;
  status: 'passed' | 'failed' | 'not run';
  wallMs: number;
  /** user + system time of the stage's processes that were waited for (bash's `times`) */
  cpuMs: number;
  /** a failed stage's last lines of output, when it was held back (printed again at the end) */
  tail?: string;
}

/** how many of a failed stage's last lines are printed again at the end */
export const TAIL_LINES = 60;

/** "1m2.345s" (bash's `times`) in milliseconds */
function bashDuration(text: string): number {
  const match = /^(\d+)m([\d.]+)s$/.exec(text);
  return match ? Math.round((Number(match[1]) * 60 + Number(match[2])) * 1000) : 0;
}

async function runStage(stage: Stage, quiet: boolean, write: (text: string) => void): Promise<StageResult> {
  const folder = mkdtempSync(join(tmpdir(), 'stage-'));
  const timesFile = join(folder, 'times');
  const started = performance.now();
  // bash waits for the command and then prints what its children used: the stage's whole tree, as far
  // as each process waited for its own children
  const child = spawn('bash', ['-c', '"$@"; status=$?; times > "$STAGE_TIMES_OUT"; exit $status', stage.name, ...stage.command], {
    stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
    env: { ...process.env, ...stage.env, STAGE_TIMES_OUT: timesFile },
  });
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  const code = await new Promise<number>((resolve) => {
    child.once('error', () => resolve(127));
    child.once('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
  });
  const wallMs = performance.now() - started;
  let cpuMs = 0;
  try {
    // the second line: the children's user and system time
    const [user, system] = readFileSync(timesFile, 'utf8').trim().split('\n')[1]!.split(/\s+/);
    cpuMs = bashDuration(user!) + bashDuration(system!);
  } catch {
    // bash itself did not get that far
  }
  rmSync(folder, { recursive: true, force: true });
  const text = Buffer.concat(output).toString();
  if (quiet) write(`\n── ${stage.name} (${code === 0 ? 'passed' : 'failed'}) ──\n${text}`);
  const tail = quiet && code !== 0 ? text.trimEnd().split('\n').slice(-TAIL_LINES).join('\n') : undefined;
  return { name: stage.name, status: code === 0 ? 'passed' : 'failed', wallMs, cpuMs, ...(tail === undefined ? {} : { tail }) };
}

const notRun = (stage: Stage): StageResult => ({ name: stage.name, status: 'not run', wallMs: 0, cpuMs: 0 });

/** A lane's stages one after the other; after a failure the rest are not run. */
async function runLane(stages: Stage[], quiet: boolean, write: (text: string) => void): Promise<StageResult[]> {
  const results: StageResult[] = [];
  for (const stage of stages) {
    results.push(results.some((result) => result.status !== 'passed') ? notRun(stage) : await runStage(stage, quiet, write));
  }
  return results;
}

/** Runs the steps in order; the results of every stage (in the order given), those not run included. */
export async function runStages(steps: Step[], write: (text: string) => void = (text) => process.stdout.write(text)): Promise<StageResult[]> {
  const results: StageResult[] = [];
  let failed = false;
  for (const step of steps) {
    const lanes = (Array.isArray(step) ? step : [step]).map((lane) => (Array.isArray(lane) ? lane : [lane]));
    if (failed) {
      results.push(...lanes.flat().map(notRun));
      continue;
    }
    const done = (await Promise.all(lanes.map((lane) => runLane(lane, lanes.length > 1, write)))).flat();
    results.push(...done);
    failed = done.some((result) => result.status !== 'passed');
  }
  for (const { name, tail } of results) {
    if (tail !== undefined) write(`\n── ${name} failed; its last ${TAIL_LINES} lines again ──\n${tail}\n`);
  }
  return results;
}

/** The table printed at the end: one row per stage, then the whole run's wall time. */
export function stageTable(results: StageResult[], totalMs: number): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const rows = results.map((r) => [r.name, r.status === 'not run' ? '-' : seconds(r.wallMs), r.status === 'not run' ? '-' : seconds(r.cpuMs), r.status]);
  rows.push(['total', seconds(totalMs), seconds(results.reduce((sum, r) => sum + r.cpuMs, 0)), results.every((r) => r.status === 'passed') ? 'passed' : 'failed']);
  const header = ['stage', 'wall', 'CPU', 'result'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 1 || column === 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

/** The rows as tab-separated lines (name, wall ms, CPU ms, result), for `.ci/run` to add its own stages to. */
export function stageLines(results: StageResult[]): string {
  return results.map((r) => `${r.name}\t${Math.round(r.wallMs)}\t${r.cpuMs}\t${r.status}\n`).join('');
}
