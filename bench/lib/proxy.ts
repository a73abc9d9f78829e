// A delaying HTTP proxy in front of the Frontend API: it reads the whole upstream answer, waits
// `delayMs`, then relays it (CORS preflights included), and logs every exchange with wall-clock
// times so that the browser runs can count requests, preflights and sequential round trips.
import { Agent, createServer, request as httpRequest, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  method: string;
  path: string;
  /** epoch milliseconds (fractional) when the request arrived and when the answer was fully written */
  start: number;
  end: number;
  status: number;
}

export interface DelayProxy {
  url: string;
  /** where requests go; set once the API is listening (the API is told the proxy's URL as its public URL) */
  upstream: string;
  /** added to every answer; may be changed between runs */
  delayMs: number;
  readonly log: Exchange[];
  /** exchanges not answered yet */
  readonly pending: number;
  clear(): void;
  /** resolves once nothing has been pending for `quietMs` (or after `timeoutMs`) */
  idle(quietMs: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const epochNow = () => performance.timeOrigin + performance.now();

function readBody(message: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => resolve(Buffer.concat(chunks)));
    message.on('error', reject);
  });
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);

export interface ProxyOptions {
  /** listen with TLS (PEM key and certificate) instead of plain HTTP */
  tls?: { key: string; cert: string };
  /** the address to listen on (default localhost) */
  host?: string;
}

export async function startDelayProxy(options: ProxyOptions = {}): Promise<DelayProxy> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const log: Exchange[] = [];
  let pending = 0;
  let lastActivity = epochNow();

  const proxy: DelayProxy = {
    url: '',
    upstream: '',
    delayMs: 0,
    log,
    get pending() {
      return pending;
    },
    clear() {
      log.length = 0;
    },
    async idle(quietMs, timeoutMs = 10_000) {
      const deadline = epochNow() + timeoutMs;
      while (epochNow() < deadline) {
        if (pending === 0 && epochNow() - lastActivity >= quietMs) return;
        await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs, 20)));
      }
    },
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const handler: RequestListener = async (req, res) => {
    const start = epochNow();
    pending += 1;
    lastActivity = start;
    const entry: Exchange = { method: req.method ?? 'GET', path: req.url ?? '/', start, end: start, status: 0 };
    const delay = proxy.delayMs;
    try {
      const body = await readBody(req);
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
      }
      // the Host header stays the proxy's: the API names the address it was reached at in its answers
      const upstream = new URL(proxy.upstream);
      const answer = await new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
        const out = httpRequest(
          { agent, hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
          (upstreamRes) => {
            readBody(upstreamRes).then((data) => resolve({ status: upstreamRes.statusCode ?? 502, headers: upstreamRes.headers, body: data }), reject);
          },
        );
        out.on('error', reject);
        out.end(body);
      });
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const relayed: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-length') relayed[name] = value;
      }
      relayed['content-length'] = String(answer.body.length);
      entry.status = answer.status;
      res.writeHead(answer.status, relayed);
      res.end(answer.body);
    } catch (error) {
      entry.status = 502;
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy error: ${String(error)}`);
    } finally {
      entry.end = epochNow();
      lastActivity = entry.end;
      pending -= 1;
      log.push(entry);
    }
  };
  const server: Server = options.tls ? createTlsServer(options.tls, handler) : createServer(handler);
  server.keepAliveTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? 'localhost', () => resolve());
  });
  proxy.url = `${options.tls ? 'https' : 'http'}://localhost:${(server.address() as AddressInfo).port}`;
  return proxy;
}
