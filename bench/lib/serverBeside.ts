// Section "server beside base": the sign-up calls of this checkout's API and of a base commit's, in
// one run, alternating A B A B, so that a regression shows as a ratio rather than as a guess about
// how busy the machine was. The base is checked out with `git worktree add` into a temporary folder,
// its dependencies come from a cache outside the repository (installed once per lockfile with
// `npm ci --prefer-offline`, or ours when the lockfiles are the same), and it is removed at the end.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outboxCode, uniqueEmail, type PendingVerification } from './frontendApi.ts';
import { runLoad, type LoadResult } from './load.ts';
import { buildPool, JSON_HEADERS, processInitLoad, startChild, verified, verifyLoad } from './serverLoad.ts';
import { median } from './stats.ts';

/** The release before the links, sessions and backend work (issue 34's yardstick). */
export const DEFAULT_SERVER_BASE = 'c734180';

export const BESIDE_CALLS = ['process/init', 'signup/init', 'verify/finish'] as const;
export type BesideCall = (typeof BESIDE_CALLS)[number];

export const CALL_PATHS: Record<BesideCall, string> = {
  'process/init': 'POST /v2/auth/process/init',
  'signup/init': 'POST /v2/auth/signup/init (e-mail entered: the code is generated, stored and sent)',
  'verify/finish': 'POST /v2/auth/identifier/verify/finish (correct code: the sign-up completes)',
};

export interface BesideSide {
  /** 'ours' (this checkout) or the base commit */
  label: string;
  commit: string;
  /** one LoadResult per round and call */
  rounds: Record<BesideCall, LoadResult>[];
}

export interface BesideResults {
  database: 'SQLite';
  concurrency: number;
  durationMs: number;
  order: string;
  ours: BesideSide;
  base: BesideSide;
}

const git = (root: string, args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

const lockHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/**
 * The base's node_modules: ours when its lockfile is the same; otherwise a cache folder outside the
 * repository keyed by the lockfile's hash, installed once (a marker file says the install completed).
 */
function baseDependencies(root: string, commit: string, say: (text: string) => void): string {
  const lock = git(root, ['show', `${commit}:package-lock.json`]);
  if (lockHash(lock) === lockHash(readFileSync(join(root, 'package-lock.json'), 'utf8').trim())) return join(root, 'node_modules');
  const cache = join(tmpdir(), 'corbado-bench-base-deps', lockHash(lock));
  if (!existsSync(join(cache, '.complete'))) {
    say(`    installing the base's dependencies once into a cache outside the repository (npm ci --prefer-offline) …`);
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, 'package-lock.json'), `${lock}\n`);
    writeFileSync(join(cache, 'package.json'), `${git(root, ['show', `${commit}:package.json`])}\n`);
    execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: cache, stdio: ['ignore', 'ignore', 'inherit'], timeout: 15 * 60_000 });
    writeFileSync(join(cache, '.complete'), `${commit}\n`);
  }
  return join(cache, 'node_modules');
}

/** The base commit checked out beside this one; remove() takes the worktree away again. */
export function checkoutBase(root: string, commit: string, say: (text: string) => void): { folder: string; commit: string; remove(): void } {
  const full = git(root, ['rev-parse', '--verify', `${commit}^{commit}`]);
  const folder = join(mkdtempSync(join(tmpdir(), 'corbado-bench-base-')), 'tree');
  git(root, ['worktree', 'add', '--detach', folder, full]);
  const remove = () => {
    try {
      git(root, ['worktree', 'remove', '--force', folder]);
    } finally {
      rmSync(join(folder, '..'), { recursive: true, force: true });
      git(root, ['worktree', 'prune']);
    }
  };
  try {
    if (!existsSync(join(folder, 'bench', 'apiServer.ts'))) throw new Error(`${commit} has no bench/apiServer.ts to start its API with`);
    symlinkSync(baseDependencies(root, full, say), join(folder, 'node_modules'), 'dir');
  } catch (error) {
    remove();
    throw error;
  }
  return { folder, commit: full.slice(0, 7), remove };
}

const processToken = (body: string) => (JSON.parse(body) as { token?: string }).token;

/**
 * One side's round on a fresh SQLite file: warm-up, then process/init for the window (the processes it
 * opens are kept, and as many again opened untimed), signup/init on those processes for the window, then verify/finish with the codes of
 * the sign-ups started (topped up untimed so that the window does not run dry).
 */
async function soak(checkout: string, sqlitePath: string, concurrency: number, durationMs: number): Promise<Record<BesideCall, LoadResult>> {
  const child = await startChild(sqlitePath, true, checkout);
  try {
    const url = child.url;
    await runLoad({ baseUrl: url, concurrency, durationMs: 1500, next: processInitLoad });
    const processes: string[] = [];
    const keepProcess = (status: number, body: string) => {
      const token = status === 200 ? processToken(body) : undefined;
      if (token) processes.push(token);
      return token !== undefined;
    };
    const init = await runLoad({ baseUrl: url, concurrency, durationMs, next: processInitLoad, accept: keepProcess });
    // as many again, untimed: signup/init may run faster than process/init did when the load eases
    let extra = processes.length;
    await runLoad({ baseUrl: url, concurrency, durationMs: 5 * 60_000, next: () => (extra-- > 0 ? processInitLoad() : undefined), accept: keepProcess });

    // the sign-ups that reached email-verify: the outbox holds a code for each of them
    const current: Omit<PendingVerification, 'code'>[] = [];
    const reached: Omit<PendingVerification, 'code'>[] = [];
    let taken = 0;
    const signup = await runLoad({
      baseUrl: url,
      concurrency,
      durationMs,
      next: (client) => {
        const processId = processes[taken++];
        if (!processId) return undefined;
        current[client] = { processId, email: uniqueEmail('beside') };
        return {
          method: 'POST',
          path: '/v2/auth/signup/init',
          headers: { ...JSON_HEADERS, 'X-Corbado-Process-ID': processId },
          body: JSON.stringify({ identifiers: [{ type: 'email', identifier: current[client].email }], fullName: 'Bench' }),
        };
      },
      accept: (status, body, client) => {
        const ok = status === 200 && body.includes('"block":"email-verify"');
        if (ok) reached.push(current[client]!);
        return ok;
      },
    });
    const pool: PendingVerification[] = [];
    let read = 0;
    const reader = async () => {
      for (let entry = reached[read++]; entry; entry = reached[read++]) pool.push({ ...entry, code: await outboxCode(url, entry.email) });
    };
    await Promise.all(Array.from({ length: concurrency }, reader));
    const target = Math.ceil((signup.rps * durationMs * 1.8) / 1000);
    if (pool.length < target) pool.push(...(await buildPool(url, target - pool.length, concurrency)));
    const finish = await runLoad({ baseUrl: url, concurrency, durationMs, next: verifyLoad(pool), accept: verified });
    return { 'process/init': init, 'signup/init': signup, 'verify/finish': finish };
  } finally {
    await child.stop();
    for (const suffix of ['', '-wal', '-shm']) rmSync(sqlitePath + suffix, { force: true });
  }
}

export interface BesideOptions {
  root: string;
  /** the base commit (default c734180) */
  commit: string;
  /** rounds per side, alternating ours, base, ours, base … (at least 2) */
  rounds: number;
  concurrency: number;
  durationMs: number;
  /** where the SQLite files go (removed after each round) */
  tmp: string;
  say: (text: string) => void;
}

export async function serverBeside(options: BesideOptions): Promise<BesideResults> {
  const rounds = Math.max(2, options.rounds);
  const base = checkoutBase(options.root, options.commit, options.say);
  try {
    const ours: BesideSide = { label: 'ours', commit: git(options.root, ['rev-parse', '--short=7', 'HEAD']), rounds: [] };
    const theirs: BesideSide = { label: 'base', commit: base.commit, rounds: [] };
    for (let round = 0; round < rounds; round++) {
      for (const [side, checkout] of [
        [ours, options.root],
        [theirs, base.folder],
      ] as const) {
        options.say(`    round ${round + 1}/${rounds}: ${side.label} (${side.commit}) …`);
        const sqlitePath = join(options.tmp, `beside-${side.label}-${process.pid}-${round}.sqlite`);
        side.rounds.push(await soak(checkout, sqlitePath, options.concurrency, options.durationMs));
      }
    }
    return { database: 'SQLite', concurrency: options.concurrency, durationMs: options.durationMs, order: `ours, base, alternating, ${rounds} rounds each`, ours, base: theirs };
  } finally {
    base.remove();
  }
}

/** A side's figures for one call over its rounds: requests per second over all rounds, median p50 and p95. */
export function besideSummary(side: BesideSide, call: BesideCall): { rps: number; p50Ms: number; p95Ms: number; errors: number; perRoundRps: number[] } {
  const results = side.rounds.map((round) => round[call]);
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const durationMs = results.reduce((sum, r) => sum + r.durationMs, 0);
  return {
    rps: (requests / durationMs) * 1000,
    p50Ms: median(results.map((r) => r.p50Ms)),
    p95Ms: median(results.map((r) => r.p95Ms)),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    perRoundRps: results.map((r) => r.rps),
  };
}
