// The set-up for the side-by-side comparison with Corbado's official client (@corbado/web-js 3.5.0).
// That client only ever calls https://<projectId>.frontendapi.corbado.io, so both clients call that
// address here: Chromium maps the host to a local TLS listener (the delaying proxy, with a certificate
// made at run time and accepted by its key's SPKI hash), which relays to the local Frontend API. The
// pages and the bundles come from a small static server of their own (one origin, the one the API allows).
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { startApi } from '../../server/app.ts';
import { startDelayProxy, type DelayProxy } from './proxy.ts';

/** `beside`: another build of this widget (BENCH_COMPARE_BESIDE), measured in the same run as a third client */
export type Client = 'own' | 'web-js' | 'beside';
/** the two clients always compared; `beside` joins them when another build is given */
export const CLIENTS: readonly Client[] = ['own', 'web-js'];
export const CLIENT_NAMES: Record<Client, string> = { own: 'this widget', 'web-js': '@corbado/web-js 3.5.0', beside: 'this widget, the other build' };

export const PROJECT_ID = 'pro-1';
/** the address both clients call (web-js cannot be told another one) */
export const HOSTED_API = `https://${PROJECT_ID}.frontendapi.corbado.io`;
const HOSTED_PATTERN = '*.frontendapi.corbado.io';

/**
 * The login identifier field of each client's first screen. This widget renders into a shadow root
 * (`name="identifier"`); web-js renders into the page (its e-mail field, `name="email"`).
 */
export const IDENTIFIER_INPUT: Record<Client, string> = { own: 'input[name="identifier"]', 'web-js': 'input[name="email"]', beside: 'input[name="identifier"]' };

interface ServedFile {
  path: string;
  type: string;
  raw: Buffer;
  brotli: Buffer;
  gzip: Buffer;
}

export interface ShippedBytes {
  client: Client;
  files: { path: string; raw: number; gzip: number; brotli: number }[];
  raw: number;
  gzip: number;
  brotli: number;
}

export interface CompareStack {
  /** http://localhost:<port>: the pages and the bundles */
  pageUrl: string;
  proxy: DelayProxy;
  /** Chromium flags: the hosted API's name to the local TLS listener, its certificate accepted by SPKI pin, nothing else resolved */
  chromiumArgs: string[];
  shipped: ShippedBytes[];
  /** CLIENTS, and `beside` when another build was given */
  clients: readonly Client[];
  close(): Promise<void>;
}

function serve(path: string, file: string, type: string): ServedFile {
  const raw = readFileSync(file);
  return {
    path,
    type,
    raw,
    brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }),
    gzip: gzipSync(raw, { level: 9 }),
  };
}

/** What a client's page loads: its script, and web-js's stylesheet. */
export function clientFiles(client: Client): { scripts: string[]; styles: string[] } {
  if (client === 'web-js') return { scripts: ['/web-js/index.js'], styles: ['/web-js/index.css'] };
  return { scripts: [`/${client}/corbado.js`], styles: [] };
}

/**
 * The page: one empty div, the client's files as tags, then load() and mountAuthUI. The same for both
 * clients but for the tags and the selector of the watcher, which runs first (it notes when the
 * identifier field is usable: present, enabled, not read-only, with a box, visible; in the page or in
 * any shadow root attached later).
 */
export function pageHtml(client: Client): string {
  const { scripts, styles } = clientFiles(client);
  const watcher = `(function () {
  var selector = document.currentScript.getAttribute('data-input');
  var bench = (window.__bench = { input: 0, loadCall: 0, scriptDone: 0, via: '' });
  var roots = [document];
  var observers = [];
  var resolve;
  bench.ready = new Promise(function (r) { resolve = r; });
  function usable(el) {
    if (!el || el.disabled || el.readOnly) return false;
    var box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility === 'visible';
  }
  function check(via) {
    if (bench.input) return;
    for (var i = 0; i < roots.length; i++) {
      if (!usable(roots[i].querySelector(selector))) continue;
      bench.input = performance.now();
      bench.via = via;
      observers.forEach(function (o) { o.disconnect(); });
      clearInterval(timer);
      resolve(bench.input);
      return;
    }
  }
  function watch(root) {
    var observer = new MutationObserver(function () { check('mutation'); });
    observer.observe(root, { subtree: true, childList: true, attributes: true });
    observers.push(observer);
  }
  // a change of style alone (no mutation) would go unnoticed: a slow check as a safety net
  var timer = setInterval(function () { check('timer'); }, 50);
  watch(document.documentElement);
  var attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    var root = attach.call(this, init);
    roots.push(root);
    watch(root);
    return root;
  };
})();`;
  const start = `window.__bench.scriptDone = performance.now();
window.__bench.loadCall = performance.now();
Corbado.load({ projectId: '${PROJECT_ID}', darkMode: 'off' }).then(function () {
  Corbado.mountAuthUI(document.getElementById('w'), { onLoggedIn: function () {} });
});`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8" />',
    `<title>Start-up: ${CLIENT_NAMES[client]}</title>`,
    `<script data-input='${IDENTIFIER_INPUT[client]}'>${watcher}</script>`,
    ...styles.map((href) => `<link rel="stylesheet" href="${href}" />`),
    '</head>',
    '<body>',
    '<div id="w"></div>',
    ...scripts.map((src) => `<script src="${src}"></script>`),
    `<script>${start}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
}

const opensslPath = () => process.env.OPENSSL_PATH ?? '/usr/bin/openssl';
const webJsBundle = (root: string) => join(root, 'node_modules', '@corbado', 'web-js', 'dist', 'bundle');

/** Why the comparison cannot run here (no openssl, web-js not installed), or undefined. */
export function compareMissing(root: string): string | undefined {
  if (!existsSync(opensslPath())) return `no openssl at ${opensslPath()} (install Debian's openssl, or set OPENSSL_PATH)`;
  if (!existsSync(join(webJsBundle(root), 'index.js'))) return '@corbado/web-js is not installed (npm install)';
  return undefined;
}

/** A self-signed certificate for *.frontendapi.corbado.io (openssl, into `tmp`, read and removed) and its SPKI pin. */
function makeCertificate(tmp: string): { key: string; cert: string; spkiSha256: string } {
  const keyPath = join(tmp, `compare-${process.pid}.key`);
  const certPath = join(tmp, `compare-${process.pid}.crt`);
  try {
    execFileSync(
      opensslPath(),
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1', '-subj', `/CN=${HOSTED_PATTERN}`, '-addext', `subjectAltName=DNS:${HOSTED_PATTERN}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const key = readFileSync(keyPath, 'utf8');
    const cert = readFileSync(certPath, 'utf8');
    const spki = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
    return { key, cert, spkiSha256: createHash('sha256').update(spki).digest('base64') };
  } finally {
    rmSync(keyPath, { force: true });
    rmSync(certPath, { force: true });
  }
}

/**
 * The static server: the pages, this widget's bundle, web-js's bundle and CSS, and the other build of
 * this widget when given (br or gzip when accepted; cacheable for an hour).
 */
function startPageServer(root: string, beside?: string): Promise<{ server: Server; url: string; files: Map<string, ServedFile> }> {
  const webJs = webJsBundle(root);
  const script = 'text/javascript; charset=utf-8';
  const files = new Map<string, ServedFile>(
    [
      serve('/own/corbado.js', join(root, 'dist', 'corbado.js'), script),
      serve('/web-js/index.js', join(webJs, 'index.js'), script),
      serve('/web-js/index.css', join(webJs, 'index.css'), 'text/css; charset=utf-8'),
      ...(beside ? [serve('/beside/corbado.js', beside, script)] : []),
    ].map((file) => [file.path, file]),
  );
  const pages = new Map([...CLIENTS, ...(beside ? (['beside'] as const) : [])].map((client) => [`/${client}.html`, Buffer.from(pageHtml(client))]));
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const page = pages.get(path);
    if (path === '/empty.html' || page) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(page ?? '<!doctype html><title>empty</title>');
      return;
    }
    const file = files.get(path);
    if (path === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
    const body = encoding === 'br' ? file.brotli : encoding === 'gzip' ? file.gzip : file.raw;
    res.writeHead(200, {
      'content-type': file.type,
      'cache-control': 'public, max-age=3600',
      'content-length': String(body.length),
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    res.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, 'localhost', () => resolve({ server, url: `http://localhost:${(server.address() as AddressInfo).port}`, files }));
  });
}

export function shippedBytes(files: Map<string, ServedFile>, clients: readonly Client[] = CLIENTS): ShippedBytes[] {
  return clients.map((client) => {
    const { scripts, styles } = clientFiles(client);
    const list = [...scripts, ...styles].map((path) => {
      const file = files.get(path)!;
      return { path, raw: file.raw.length, gzip: file.gzip.length, brotli: file.brotli.length };
    });
    const sum = (key: 'raw' | 'gzip' | 'brotli') => list.reduce((total, file) => total + file[key], 0);
    return { client, files: list, raw: sum('raw'), gzip: sum('gzip'), brotli: sum('brotli') };
  });
}

/** `beside`: the path of another build's corbado.js, served and measured as a third client (BENCH_COMPARE_BESIDE). */
export async function startCompareStack(root: string, tmp: string, beside?: string): Promise<CompareStack> {
  if (beside && !existsSync(beside)) throw new Error(`BENCH_COMPARE_BESIDE: no file at ${beside}`);
  const clients: readonly Client[] = beside ? [...CLIENTS, 'beside'] : CLIENTS;
  const databasePath = join(tmp, `compare-${process.pid}-${Date.now()}.sqlite`);
  const tls = makeCertificate(tmp);
  const pages = await startPageServer(root, beside);
  const proxy = await startDelayProxy({ tls: { key: tls.key, cert: tls.cert }, host: '127.0.0.1' });
  const api = await startApi({
    port: 0,
    host: '127.0.0.1',
    database: databasePath,
    publicUrl: HOSTED_API,
    demoOrigin: pages.url,
    logger: { info: () => undefined, error: (message, error) => console.error(message, error) },
  });
  proxy.upstream = api.url;
  const port = new URL(proxy.url).port;
  return {
    pageUrl: pages.url,
    proxy,
    chromiumArgs: [
      // loopback only: the hosted API to the proxy, localhost as usual, every other name unresolvable
      // (web-js's telemetry and the web fonts its CSS imports fail at once, for both runs alike)
      `--host-resolver-rules=MAP ${HOSTED_PATTERN} 127.0.0.1:${port}, MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1`,
      `--ignore-certificate-errors-spki-list=${tls.spkiSha256}`,
    ],
    shipped: shippedBytes(pages.files, clients),
    clients,
    async close() {
      await proxy.close();
      await new Promise<void>((resolve) => {
        pages.server.close(() => resolve());
        pages.server.closeAllConnections();
      });
      await api.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(databasePath + suffix, { force: true });
    },
  };
}
