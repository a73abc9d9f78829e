// The real API as a separate process (`node --import tsx server/main.ts`), for tests that assert
// the process does not exit: a crash of the server must not be able to take the test runner with it,
// nor hide in it. Listens on 127.0.0.1 on a free port; killed at stop(), and by the test's end at the latest.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export interface ServerProcess {
  url: string;
  pid: number;
  /** the exit code or signal, once the process has ended */
  exited(): string | undefined;
  /** resolves with the exit code or signal when the process ends */
  ended: Promise<string>;
  /** what the process printed (the last 200 lines) */
  output(): string;
  stop(): Promise<void>;
  /** SIGKILL: the process ends at once, as in a crash or an OOM kill, with no shutdown of its own */
  kill(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/**
 * How long a start may take before the test gives up: a bound, not a timing assertion. A start takes
 * about a second; a fresh clone's CI with every lane busy has seen more than 20 s before the first line.
 */
export const START_BOUND_MS = 60_000;

/** `program`: another way to run the server (the packed package's bin), with its working folder */
export async function startServerProcess(
  env: Record<string, string>,
  program: { command: string; args: string[]; cwd: string } = { command: process.execPath, args: ['--import', 'tsx', 'server/main.ts'], cwd: ROOT },
): Promise<ServerProcess> {
  const child: ChildProcess = spawn(program.command, program.args, {
    cwd: program.cwd,
    env: { ...process.env, API_PORT: '0', BACKEND_API_PORT: '0', API_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let end: string | undefined;
  const ended = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      end = signal ?? String(code);
      resolve(end);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the API did not start in ${START_BOUND_MS / 1000} s:\n${lines.join('\n')}`));
    }, START_BOUND_MS);
    const read = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(line);
      if (lines.length > 200) lines.splice(0, lines.length - 200);
      const match = /listening on (http:\/\/\S+)/.exec(lines.join('\n'));
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the API exited (${code}):\n${lines.join('\n')}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    exited: () => end,
    ended,
    output: () => lines.join('\n'),
    async stop() {
      if (end !== undefined) return;
      const gone = once(child, 'exit');
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.kill('SIGTERM');
      await gone;
      clearTimeout(kill);
    },
    async kill() {
      if (end !== undefined) return;
      const gone = once(child, 'exit');
      child.kill('SIGKILL');
      await gone;
    },
  };
}
