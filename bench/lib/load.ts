// A closed-loop HTTP load generator: N clients, each sends its next request as soon as the previous
// answer has been read completely, over keep-alive connections (node:http, one socket per client).
import { Agent, request as httpRequest } from 'node:http';
import { percentile } from './stats.ts';

export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  /** one API, or several instances of it: client i talks to instance i mod n (its own connection) */
  baseUrl: string | string[];
  concurrency: number;
  durationMs: number;
  /** the next request of a client, or undefined when there is nothing left to send */
  next: (client: number) => LoadRequest | undefined;
  /** whether an answer counts as a success (default: 2xx); client: whose request it answered */
  accept?: (status: number, body: string, client: number) => boolean;
}

export interface LoadResult {
  requests: number;
  errors: number;
  durationMs: number;
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  /** true when next() ran dry before the time was up */
  ranDry: boolean;
  statuses: Record<string, number>;
}

function send(agent: Agent, base: URL, item: LoadRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        hostname: base.hostname,
        port: base.port,
        method: item.method,
        path: item.path,
        headers: item.body === undefined ? item.headers : { ...item.headers, 'Content-Length': Buffer.byteLength(item.body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(item.body);
  });
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const bases = (Array.isArray(options.baseUrl) ? options.baseUrl : [options.baseUrl]).map((url) => new URL(url));
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency, maxFreeSockets: options.concurrency });
  const accept = options.accept ?? ((status) => status >= 200 && status < 300);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let ranDry = false;
  const started = performance.now();
  const deadline = started + options.durationMs;
  let finished = started;

  const client = async (index: number) => {
    while (performance.now() < deadline) {
      const item = options.next(index);
      if (!item) {
        ranDry = true;
        return;
      }
      const t0 = performance.now();
      try {
        const { status, body } = await send(agent, bases[index % bases.length]!, item);
        const t1 = performance.now();
        latencies.push(t1 - t0);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (!accept(status, body, index)) errors += 1;
        finished = Math.max(finished, t1);
      } catch {
        errors += 1;
        statuses.network = (statuses.network ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, index) => client(index)));
  agent.destroy();
  const durationMs = Math.max(finished - started, 1);
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    durationMs,
    rps: (latencies.length / durationMs) * 1000,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    p99Ms: percentile(latencies, 99),
    meanMs: latencies.reduce((sum, value) => sum + value, 0) / Math.max(latencies.length, 1),
    maxMs: latencies[latencies.length - 1] ?? 0,
    ranDry,
    statuses,
  };
}
