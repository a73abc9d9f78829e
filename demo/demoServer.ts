// Serves the demo pages and the built bundle on their own origin, separate from the Frontend API.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export interface DemoServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Resolves a request path to a file under public/, demo/, dist/ or web-js's bundle, or undefined (never outside them). */
async function fileFor(pathname: string): Promise<string | undefined> {
  const clean = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
  if (clean.startsWith('/dist/')) return join(ROOT, clean);
  // Corbado's own client (a devDependency), for demo/webjs3.html and its end-to-end test
  if (clean.startsWith('/vendor/web-js/')) return join(ROOT, 'node_modules/@corbado/web-js/dist/bundle', clean.slice('/vendor/web-js/'.length));
  const path = clean === '/' ? '/index.html' : clean;
  const inPublic = join(ROOT, 'public', path);
  if (await isFile(inPublic)) return inPublic;
  if (path.startsWith('/server/')) return undefined;
  return join(ROOT, 'demo', path);
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

export function startDemo(options: { port: number; host?: string; apiUrl: string }): Promise<DemoServer> {
  const server: Server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/config.js') {
        response.writeHead(200, { 'Content-Type': TYPES['.js'], 'Cache-Control': 'no-store' });
        response.end(`window.DEMO_CONFIG = ${JSON.stringify({ apiUrl: options.apiUrl })};\n`);
        return;
      }
      const file = await fileFor(url.pathname);
      const info = file ? await stat(file).catch(() => undefined) : undefined;
      if (!file || !info?.isFile() || !file.startsWith(ROOT)) {
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
        response.end('Not found');
        return;
      }
      response.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Content-Length': info.size,
        'Cache-Control': 'no-cache',
      });
      createReadStream(file).pipe(response);
    } catch {
      response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('Bad request');
    }
  });
  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? 'localhost', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolveStart({
        url: `http://localhost:${port}`,
        port,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
