// The deployment shapes of README "Where to put the server", over https with real host names, for the
// browser tests (e2e/crossSite.spec.ts in Chromium, scripts/test-engines.ts in Firefox): the shop's page
// at https://shop.test, its Frontend API on the same site (https://auth.shop.test) or on another site
// (https://authsite.test). Made here: a throw-away certificate for the three names (openssl) and its SPKI
// hash, a TLS front on a loopback port that serves the shop's pages and relays each API name to an API
// process of its own (`server/main.ts`, with two prod projects for the shop, crossSiteSessions
// "short-only" and "storage": 10 s short sessions, e-mail codes, the GitHub stand-in). The browser maps the three names to the front (loopback only); every URL
// carries the front's port, which changes nothing about sites.
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startApiInstance, type ApiInstance } from './apiInstances';

export const SHOP = 'shop.test';
export const SAME_SITE = 'auth.shop.test';
export const OTHER_SITE = 'authsite.test';
export const NAMES = [SHOP, SAME_SITE, OTHER_SITE];
export const SHORT_SESSION_SECONDS = 10;

interface Deployment {
  api: ApiInstance;
  /** the API's own http address (the outbox is read there) */
  direct: string;
}

/** The project's setting for browsers that keep no cookie of the API across sites. */
export type Sessions = 'short-only' | 'storage';

/** A page of the shop: the API it talks to and the project there. */
interface ShopPage {
  apiName: string;
  projectId: string;
}

export interface CrossSiteStack {
  /** the front's port: every name is served there */
  port: number;
  /** an HTTP proxy (CONNECT only) on a loopback port that tunnels the three names to the front, for browsers that cannot map names themselves */
  proxyPort: number;
  /** the SPKI hash (base64 SHA-256) of the front's certificate, for Chromium's --ignore-certificate-errors-spki-list */
  spki: string;
  /** a folder for browser profiles, removed with the stack */
  tmp: string;
  /** the shop's page for the API under `apiName`, with a project of that crossSiteSessions (default short-only) */
  pageUrl(apiName: string, sessions?: Sessions): string;
  /** the API's own http address under `apiName` */
  direct(apiName: string): string;
  close(): Promise<void>;
}

/** A self-signed certificate for the three names and its SPKI pin. */
function makeCertificate(tmp: string): { key: string; cert: string; spki: string } {
  const keyPath = join(tmp, 'front.key');
  const certPath = join(tmp, 'front.crt');
  execFileSync(
    process.env.OPENSSL_PATH ?? '/usr/bin/openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1', '-subj', `/CN=${SHOP}`, '-addext', `subjectAltName=${NAMES.map((n) => `DNS:${n}`).join(',')}`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const cert = readFileSync(certPath, 'utf8');
  const spki = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
  return { key: readFileSync(keyPath, 'utf8'), cert, spki: createHash('sha256').update(spki).digest('base64') };
}

/** The shop's page for one API: the widget's auth view and nothing else. */
function shopPage(projectId: string, apiUrl: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Shop</title><div id="widget"></div>
<script src="/corbado.js"></script>
<script>Corbado.load({ projectId: ${JSON.stringify(projectId)}, frontendApiUrl: ${JSON.stringify(apiUrl)} }).then(() => Corbado.mountAuthUI(document.getElementById('widget')));</script></html>`;
}

export async function startCrossSiteStack(): Promise<CrossSiteStack> {
  const tmp = mkdtempSync(join(tmpdir(), 'corbado-cross-site-'));
  const tls = makeCertificate(tmp);
  const bundle = readFileSync(new URL('../dist/corbado.js', import.meta.url));
  const deployments = new Map<string, Deployment>();
  const pages = new Map<string, ShopPage>();
  const pagePath = (apiName: string, sessions: Sessions) => `/${apiName}-${sessions}.html`;
  let port = 0;
  const origin = (name: string) => `https://${name}:${port}`;

  const front: Server = createHttpsServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    if (host === SHOP) {
      const page = pages.get(path);
      if (path === '/corbado.js') {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        res.end(bundle);
      } else if (page) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(shopPage(page.projectId, origin(page.apiName)));
      } else {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Elsewhere on the shop</title>');
      }
      return;
    }
    // a plain third-party cookie (SameSite=None, not Partitioned): set by one fetch, read back by the next
    if (host === OTHER_SITE && path.startsWith('/_probe/')) {
      const cors = { 'access-control-allow-origin': origin(SHOP), 'access-control-allow-credentials': 'true', 'cache-control': 'no-store' };
      if (path === '/_probe/set') res.writeHead(204, { ...cors, 'set-cookie': 'probe=1; Path=/; Secure; SameSite=None' });
      else res.writeHead(200, { ...cors, 'content-type': 'text/plain' });
      res.end(path === '/_probe/set' ? undefined : (req.headers.cookie ?? ''));
      return;
    }
    const target = deployments.get(host);
    if (!target) {
      res.writeHead(421);
      res.end();
      return;
    }
    const upstream = new URL(target.direct);
    const relay = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    relay.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(relay);
  });
  port = await new Promise<number>((resolve) => front.listen(0, '127.0.0.1', () => resolve((front.address() as AddressInfo).port)));

  // CONNECT to one of the three names (at the front's port) is tunnelled to the front; anything else is refused
  const proxy = createHttpServer((_, res) => {
    res.writeHead(405);
    res.end();
  });
  // tunnels are no longer the server's connections: they are ended with the stack
  const tunnels = new Set<import('node:stream').Duplex>();
  proxy.on('connect', (req, client: import('node:stream').Duplex, head: Buffer) => {
    tunnels.add(client);
    client.on('close', () => tunnels.delete(client));
    const [host, target] = (req.url ?? '').split(':');
    if (!NAMES.includes(host ?? '') || Number(target) !== port) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const tunnel = connect(port, '127.0.0.1', () => {
      tunnels.add(tunnel);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) tunnel.write(head);
      tunnel.pipe(client);
      client.pipe(tunnel);
    });
    tunnel.on('close', () => tunnels.delete(tunnel));
    tunnel.on('error', () => client.destroy());
    client.on('error', () => tunnel.destroy());
  });
  const proxyPort = await new Promise<number>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve((proxy.address() as AddressInfo).port)));

  /** One API process under `name` (its PUBLIC_URL), with a prod project for the shop per crossSiteSessions. */
  async function deploy(name: string): Promise<void> {
    const apiPort = await freePort();
    const direct = `http://127.0.0.1:${apiPort}`;
    const sim = `${direct}/_dev/oauth/github`;
    const api = await startApiInstance({
      API_PORT: String(apiPort),
      API_HOST: '127.0.0.1',
      BACKEND_API_PORT: 'off',
      DATABASE_PATH: join(tmp, `${name}.sqlite`),
      PUBLIC_URL: origin(name),
      DEMO_ORIGIN: origin(SHOP),
      // the browser reaches the GitHub stand-in under PUBLIC_URL; the server calls it directly (no resolver maps the names for it)
      SOCIAL_GITHUB_TOKEN_URL: `${sim}/login/oauth/access_token`,
      SOCIAL_GITHUB_USERINFO_URL: `${sim}/api/user`,
      SOCIAL_GITHUB_EMAILS_URL: `${sim}/api/user/emails`,
    });
    deployments.set(name, { api, direct });
    for (const sessions of ['short-only', 'storage'] as const) {
      const created = await fetch(`${direct}/_dev/projects`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          appName: 'Shop',
          allowedOrigins: [origin(SHOP)],
          environment: 'prod',
          passkeys: false,
          socialProviders: ['github'],
          shortSessionLifetimeSeconds: SHORT_SESSION_SECONDS,
          crossSiteSessions: sessions,
        }),
      });
      if (created.status !== 201) throw new Error(`creating the shop's project on ${name} failed: ${created.status} ${await created.text()}`);
      pages.set(pagePath(name, sessions), { apiName: name, projectId: ((await created.json()) as { id: string }).id });
    }
  }

  const close = async () => {
    const closed = Promise.all([new Promise<void>((resolve) => front.close(() => resolve())), new Promise<void>((resolve) => proxy.close(() => resolve()))]);
    front.closeAllConnections();
    proxy.closeAllConnections();
    for (const socket of tunnels) socket.destroy();
    await closed;
    await Promise.all([...deployments.values()].map((d) => d.api.stop()));
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    await Promise.all([deploy(SAME_SITE), deploy(OTHER_SITE)]);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    port,
    proxyPort,
    spki: tls.spki,
    tmp,
    pageUrl: (apiName, sessions = 'short-only') => `${origin(SHOP)}${pagePath(apiName, sessions)}`,
    direct: (apiName) => deployments.get(apiName)!.direct,
    close,
  };
}
