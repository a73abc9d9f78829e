// Serves the demo pages and the built bundle on their own origin, separate from the Frontend API, and
// plays the host site's own backend: GET /host-api/profile trusts a short session only after checking
// it as the README tells a backend to (README.md, "Verifying the session on your backend").
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { CONTENT_TYPES } from '../server/http/contentTypes.ts';


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

/** The cookies the clients write the short session into: this widget's, and web-js 3's. */
const SHORT_SESSION_COOKIES = ['cbo_short_session', 'cbo_session_token'];
/** a real backend knows its one project; the demo pages serve several, named by ?project= */
const DEMO_PROJECT = /^pro-\d{1,12}$/;

export interface HostBackendOptions {
  /** where the Frontend API is reached from here (the keys are fetched from it) */
  apiUrl: string;
  /** the API's public URL, the issuer it writes into tokens (default: apiUrl) */
  publicUrl?: string;
}

interface HostAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The short session a request carries: the Authorization header first, else a cookie. */
function shortSessionOf(request: IncomingMessage): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  const cookies = new Map(
    (request.headers.cookie ?? '').split(';').map((pair) => {
      const at = pair.indexOf('=');
      return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()] as const;
    }),
  );
  return SHORT_SESSION_COOKIES.map((name) => cookies.get(name)).find((value) => !!value);
}

/** Why a token was refused, in words a developer looking at the demo understands. */
function refusal(error: unknown): HostAnswer {
  const refused = (reason: string): HostAnswer => ({ status: 401, body: { error: reason } });
  if (error instanceof errors.JWTExpired) return refused('the session has expired');
  if (error instanceof errors.JWTClaimValidationFailed) return refused(`the ${error.claim} claim is not this project's (${error.reason})`);
  if (error instanceof errors.JOSEAlgNotAllowed) return refused('the token is not signed with ES256');
  if (error instanceof errors.JWSSignatureVerificationFailed) return refused('the signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey) return refused('the token is signed by a key the project does not publish');
  // no answer, or not a 200 (an unknown project), from the keys URL: not the visitor's fault
  if (error instanceof TypeError || error instanceof errors.JWKSTimeout || (error as Error | undefined)?.constructor === errors.JOSEError) {
    return { status: 503, body: { error: "the project's keys could not be fetched" } };
  }
  return refused('not a valid session token');
}

/**
 * The host backend's one protected route: verifies the short session with jose against the project's
 * keys (asked for with X-Corbado-ProjectID, as @corbado/node-sdk does), the server's issuer and the
 * project as audience, and answers who the user is. The e-mail address is answered only when the token
 * says it is verified.
 */
export function hostBackend(options: HostBackendOptions): (request: IncomingMessage, projectId: string) => Promise<HostAnswer> {
  const publicUrl = (options.publicUrl ?? options.apiUrl).replace(/\/+$/, '');
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  // jose caches the keys inside each set (and fetches again for an unknown kid), so keep one per project
  const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
  return async (request, projectId) => {
    if (!DEMO_PROJECT.test(projectId)) return { status: 400, body: { error: 'unknown project' } };
    const token = shortSessionOf(request);
    if (!token) return { status: 401, body: { error: 'no session token (Authorization: Bearer, or the cbo_short_session cookie)' } };
    let keys = keySets.get(projectId);
    if (!keys) {
      if (keySets.size >= 100) keySets.clear(); // ids come from the query: keep the cache bounded
      keys = createRemoteJWKSet(new URL(`${apiUrl}/.well-known/jwks`), { headers: { 'X-Corbado-ProjectID': projectId } });
      keySets.set(projectId, keys);
    }
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: publicUrl,
        audience: projectId,
        algorithms: ['ES256'],
        clockTolerance: 30,
      });
      return {
        status: 200,
        body: {
          id: payload.sub,
          name: payload.name,
          email: payload.email_verified === true ? payload.email : null,
          project: projectId,
        },
      };
    } catch (error) {
      return refusal(error);
    }
  };
}

function sendJson(response: ServerResponse, answer: HostAnswer): void {
  response.writeHead(answer.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(answer.body));
}

export function startDemo(options: { port: number; host?: string; apiUrl: string; publicUrl?: string }): Promise<DemoServer> {
  const profile = hostBackend({ apiUrl: options.apiUrl, ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}) });
  const server: Server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/host-api/profile') {
        if (request.method !== 'GET') return sendJson(response, { status: 405, body: { error: 'GET only' } });
        return sendJson(response, await profile(request, url.searchParams.get('project') ?? 'pro-1'));
      }
      if (url.pathname === '/config.js') {
        response.writeHead(200, { 'Content-Type': CONTENT_TYPES['.js'], 'Cache-Control': 'no-store' });
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
        'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
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
