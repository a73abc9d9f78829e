// A throw-away PostgreSQL cluster for tests and the benchmark: initdb in a temporary folder, a server
// on a free port, removed again by stop(). Uses Debian's packages (/usr/lib/postgresql/<version>/bin);
// as root it runs them as the `postgres` user, since initdb refuses root.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresCluster {
  url: string;
  stop(): void;
  /** `pg_ctl restart -m fast`: every connection is ended (57P01), the server is back when it resolves */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`: an outage until `resume()` (same port, same data) */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

/** The folder holding initdb and pg_ctl, or why there is none. */
export function postgresBin(): { bin: string } | { missing: string } {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return { bin };
  }
  return { missing: `no PostgreSQL server binaries under ${root} (Debian: apt-get install -y postgresql)` };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const found = postgresBin();
  if ('missing' in found) throw new Error(found.missing);
  const isRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'corbado-pg-'));
  let asUser: (file: string, args: string[]) => void;
  // the fault tests restart and stop the server while their own event loop keeps sending requests
  let asUserAsync: (file: string, args: string[]) => Promise<void>;
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
    asUser = (file, args) => run('runuser', ['-u', 'postgres', '--', file, ...args]);
    asUserAsync = (file, args) => runAsync('runuser', ['-u', 'postgres', '--', file, ...args]);
  } else {
    asUser = run;
    asUserAsync = runAsync;
  }
  const data = join(dir, 'data');
  const port = await freePort();
  asUser(join(found.bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  asUser(join(found.bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']);
  let stopped = false;
  const pgCtl = (args: string[]) => asUserAsync(join(found.bin, 'pg_ctl'), ['-D', data, ...args]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () => pgCtl(['-o', options, '-l', join(dir, 'server.log'), '-m', 'fast', '-w', 'restart']),
    pause: () => pgCtl(['-m', 'fast', '-w', 'stop']),
    resume: () => pgCtl(['-o', options, '-l', join(dir, 'server.log'), '-w', 'start']),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asUser(join(found.bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function run(file: string, args: string[]): void {
  const result = spawnSync(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    throw new Error(`${file} ${args.join(' ')} failed (${result.status}): ${result.stderr.toString() || result.stdout.toString()}`);
  }
}

function runAsync(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')} failed: ${stderr || stdout || error.message}`));
      else resolve();
    });
  });
}
