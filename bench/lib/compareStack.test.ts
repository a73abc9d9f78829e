// The comparison's set-up (bench/lib/compareStack.ts): Corbado's client reaches this project's API only
// under its hosted name over TLS, so the stack must answer that name with the certificate Chromium is
// told to accept, through the delaying proxy; and both clients must get the same page.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { pairDifference, runOrder } from './compare.ts';
import { CLIENTS, HOSTED_API, IDENTIFIER_INPUT, clientFiles, pageHtml, startCompareStack } from './compareStack.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const NOT_BUILT = 'dist/corbado.js is not built: run `npm run build` first (npm test does)';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  certificate: X509Certificate;
}

/** A request to the hosted name, sent to the address Chromium's resolver rule maps it to. */
function hosted(port: string, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const { hostname } = new URL(HOSTED_API);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, servername: hostname, method, path, headers: { host: hostname, ...headers }, rejectUnauthorized: false }, (res) => {
      const certificate = new X509Certificate((res.socket as TLSSocket).getPeerCertificate().raw);
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, certificate }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the side-by-side comparison with @corbado/web-js', () => {
  it('answers the hosted API name over TLS with the SPKI-pinned certificate, through the delaying proxy, and caches preflights for 7200 s (Chromium caps there)', async (ctx) => {
    ctx.skip(!existsSync(join(ROOT, 'dist', 'corbado.js')), NOT_BUILT);
    const tmp = mkdtempSync(join(tmpdir(), 'cbo-compare-'));
    const stack = await startCompareStack(ROOT, tmp);
    try {
      const port = new URL(stack.proxy.url).port;
      expect(stack.chromiumArgs).toContain(`--host-resolver-rules=MAP *.frontendapi.corbado.io 127.0.0.1:${port}, MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1`);
      const pin = stack.chromiumArgs.find((arg) => arg.startsWith('--ignore-certificate-errors-spki-list='))!.replace(/^[^=]*=/, '');

      const preflight = await hosted(port, 'OPTIONS', '/v2/auth/process/init', {
        origin: stack.pageUrl,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-corbado-projectid',
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(stack.pageUrl);
      expect(preflight.headers['access-control-max-age']).toBe('7200');
      const spki = preflight.certificate.publicKey.export({ type: 'spki', format: 'der' });
      expect(createHash('sha256').update(spki).digest('base64')).toBe(pin);
      expect(preflight.certificate.subjectAltName).toBe('DNS:*.frontendapi.corbado.io');

      // web-js takes the API's address from process-config: it must be the hosted name again
      const config = await hosted(port, 'GET', '/v2/process-config', { origin: stack.pageUrl, 'x-corbado-projectid': 'pro-1' });
      expect(config.status).toBe(200);
      expect(JSON.parse(config.body)).toMatchObject({ frontendApiUrl: HOSTED_API });
      expect(stack.proxy.log.map((exchange) => `${exchange.method} ${exchange.path} ${exchange.status}`)).toEqual(['OPTIONS /v2/auth/process/init 204', 'GET /v2/process-config 200']);

      // the page server: both pages, this widget's bundle and web-js's script and CSS
      for (const client of CLIENTS) {
        expect((await fetch(`${stack.pageUrl}/${client}.html`)).status).toBe(200);
        for (const path of [...clientFiles(client).scripts, ...clientFiles(client).styles]) expect((await fetch(stack.pageUrl + path)).status, path).toBe(200);
      }
      expect(stack.shipped.map((shipped) => shipped.client)).toEqual(['own', 'web-js']);
      expect(stack.clients).toEqual(['own', 'web-js']);
      expect((await fetch(`${stack.pageUrl}/beside.html`)).status).toBe(404);
    } finally {
      await stack.close();
      rmSync(tmp, { recursive: true, force: true });
    }
    // a generous bound for a loaded machine (openssl, the API and three servers start)
  }, 90_000);

  it('gives both clients the same page but for their files, their title and the field they are watched for', () => {
    const [own, webJs] = CLIENTS.map((client) =>
      pageHtml(client)
        .split('\n')
        .filter((line) => !/^<(script src|link rel="stylesheet"|title)/.test(line))
        .join('\n')
        .replace(IDENTIFIER_INPUT[client], 'FIELD'),
    );
    expect(own).toBe(webJs);
    expect(pageHtml('own')).toContain('<script src="/own/corbado.js"></script>');
    // another build of this widget (BENCH_COMPARE_BESIDE): the same page as ours but for the file it loads
    expect(pageHtml('beside').replace('/beside/corbado.js', '/own/corbado.js').replace(/<title>.*<\/title>/, '')).toBe(pageHtml('own').replace(/<title>.*<\/title>/, ''));
    expect(pageHtml('web-js')).toContain('<link rel="stylesheet" href="/web-js/index.css" />');
  });
});

describe('another build beside this one (BENCH_COMPARE_BESIDE)', () => {
  it('serves it as a third client with a page of its own, and counts its bytes', async (ctx) => {
    ctx.skip(!existsSync(join(ROOT, 'dist', 'corbado.js')), NOT_BUILT);
    const tmp = mkdtempSync(join(tmpdir(), 'cbo-compare-'));
    const other = join(tmp, 'other.js');
    writeFileSync(other, 'window.Corbado = { load: async () => undefined };\n');
    const stack = await startCompareStack(ROOT, tmp, other);
    try {
      expect(stack.clients).toEqual(['own', 'web-js', 'beside']);
      expect(await (await fetch(`${stack.pageUrl}/beside.html`)).text()).toContain('<script src="/beside/corbado.js"></script>');
      expect(await (await fetch(`${stack.pageUrl}/beside/corbado.js`)).text()).toBe(readFileSync(other, 'utf8'));
      expect(stack.shipped.find((shipped) => shipped.client === 'beside')?.raw).toBe(readFileSync(other).length);
    } finally {
      await stack.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 90_000);

  it('refuses a path with no file', async () => {
    await expect(startCompareStack(ROOT, tmpdir(), join(tmpdir(), 'no-such-build.js'))).rejects.toThrow(/BENCH_COMPARE_BESIDE/);
  });

  it('rotates the order of the clients run by run, so that each goes first equally often; with two, they alternate', () => {
    expect([0, 1, 2, 3].map((i) => runOrder(['own', 'web-js'], i).join(','))).toEqual(['own,web-js', 'web-js,own', 'own,web-js', 'web-js,own']);
    expect([0, 1, 2].map((i) => runOrder(['own', 'web-js', 'beside'], i)[0])).toEqual(['own', 'web-js', 'beside']);
  });

  it('takes the difference round by round (run i of each side was measured in the same round)', () => {
    expect(pairDifference([300, 320, 290], [330, 310, 340])).toEqual({ median: -30, min: -50, max: 10 });
  });
});
