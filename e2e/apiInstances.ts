// Frontend API instances the test starts itself (`tsx server/main.ts` child processes), and a
// round-robin load balancer in front of them that records which instance answered each request.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
// the same bound on a start as the server's own tests that start the API as a process
import { START_BOUND_MS } from '../server/test/helpers/serverProcess.ts';

export interface ApiInstance {
  url: string;
  /** stops the process (SIGTERM, then SIGKILL after 5 s) */
  stop(): Promise<void>;
  /** ends the process without warning (SIGKILL), as a crash or a pulled plug would */
  kill(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A port nothing listens on (yet), from the system: a server the test starts, stops and starts again on it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `server/main.ts` with `env` (API_PORT 0 picks a free port) and waits until it listens.
 * Node runs it with tsx as its loader, so that the child's process id is the server's.
 */
export async function startApiInstance(env: Record<string, string>): Promise<ApiInstance> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, API_PORT: '0', BACKEND_API_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // never left behind on the port
      reject(new Error(`the API did not start in ${START_BOUND_MS / 1000} s:\n${output}`));
    }, START_BOUND_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the API exited (${code}):\n${output}`));
    });
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    url,
    async kill() {
      if (exited()) return;
      const gone = once(child, 'exit');
      child.kill('SIGKILL');
      await gone;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited()) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadBalancer {
  url: string;
  /** set once the instances are up */
  upstreams: string[];
  /** which upstream answered, per request in arrival order (CORS preflights excluded) */
  readonly served: { path: string; upstream: string }[];
  close(): Promise<void>;
}

/**
 * Sends request n to upstream n mod k, like a load balancer without sticky sessions. CORS preflights
 * go along without taking a turn, so that the real requests alternate.
 */
export async function startLoadBalancer(): Promise<LoadBalancer> {
  let next = 0;
  const balancer: LoadBalancer = { url: '', upstreams: [], served: [], close: () => new Promise((r) => server.close(() => r())) };
  const server: Server = createServer((incoming, outgoing) => {
    const preflight = incoming.method === 'OPTIONS';
    const upstream = balancer.upstreams[(preflight ? next : next++) % balancer.upstreams.length]!;
    if (!preflight) balancer.served.push({ path: incoming.url ?? '', upstream });
    const target = new URL(incoming.url ?? '/', upstream);
    const forward = httpRequest(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forward.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  balancer.url = `http://localhost:${(server.address() as AddressInfo).port}`;
  return balancer;
}
