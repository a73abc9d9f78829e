// The console's listener (CONSOLE_PORT; server/console/README.md): the console app built by Vite to
// dist/console/, the widget's bundle for its sign-in page, and the JSON API under /api/ that the app
// calls. Operators sign in to the console project (pro-console) through the widget and post its short
// session here; from then on the `corbado_console` cookie (HttpOnly, SameSite=Strict, Secure over
// https) names their console session. Every write also carries the session's CSRF token and comes from
// the console's own origin. What each role may do is one table (permissions.ts), checked by `allow` on
// every route; every operator action goes through the same operations as the Backend API and the admin
// command, and is recorded in the audit trail with `operator:opr-…` as its actor.
import { timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { AaguidCatalogue } from '../aaguids/AaguidCatalogue.ts';
import type { AccountIdentifiers } from '../account/AccountIdentifiers.ts';
import { lastAuthenticatedAt } from '../account/recentLogin.ts';
import { ApiError } from '../ApiError.ts';
import { CONTENT_TYPES } from '../http/contentTypes.ts';
import { currentAuditScope, withAuditScope, type AuditTrail } from '../audit/AuditTrail.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { EventRecorder } from '../events/WebhookEvents.ts';
import { newId, newSecretToken, sha256Hex } from '../randomValues.ts';
import type { Logger } from '../senders/Messenger.ts';
import type { KeyRing } from '../session/KeyRing.ts';
import type { KeyStore } from '../session/KeyStore.ts';
import type { ConsoleSessionRecord, OperatorRecord } from '../store/OperatorsRepo.ts';
import type { Store } from '../store/Store.ts';
import { ConsoleError, consoleErrorOf, notFound } from './consoleErrors.ts';
import { registerConsoleRoutes } from './consoleRoutes.ts';
import { CONSOLE_PROJECT_ID, Operators, shownOperator } from './operators.ts';
import { mayDo, maySee, NEEDS_RECENT_PROOF, type Permission } from './permissions.ts';

export const CONSOLE_COOKIE = 'corbado_console';
export const CSRF_HEADER = 'X-Console-CSRF';
/** How long a console sign-in lasts (then the operator signs in again). */
export const CONSOLE_SESSION_MS = 8 * 3_600_000;
/** Where the built console app is (Vite's second entry) and the widget's bundle next to it. */
// a path joined, not `new URL(…, import.meta.url)`: under happy-dom (the widget's own tests start this
// server) the global URL is the DOM's, which node:url's fileURLToPath refuses
export const DIST_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');

export type ConsoleEnv = {
  Variables: {
    requestId: string;
    operator?: OperatorRecord;
    session?: ConsoleSessionRecord;
    project?: ProjectConfig;
  };
};

export interface ConsoleDeps {
  store: Store;
  keyRing: KeyRing;
  events: EventRecorder;
  trail: Pick<AuditTrail, 'record'>;
  now: () => number;
  log: Logger;
  /** the console's own origin as the browser sees it (CONSOLE_PUBLIC_URL, else the listener's) */
  origin: string;
  /** the Frontend API the sign-in page's widget talks to */
  frontendApiUrl: string;
  production: boolean;
  /** webhook endpoints may be on private networks (WEBHOOK_ALLOW_PRIVATE_NETWORKS) */
  allowPrivateNetworks: boolean;
  /** the built files (default DIST_DIR) */
  distDir?: string;
  /** the authenticators' names and icons (the user page's passkeys) */
  aaguids: AaguidCatalogue;
  /** seals webhook endpoints' signing secrets */
  keys: KeyStore;
  /** how long a webhook delivery sent again is tried (the webhooks' give-up horizon) */
  webhookGiveUpMs: number;
  /** a user's own identifiers: the console starts their verification as the account page does */
  identifiers: AccountIdentifiers;
  /** adds routes before the app's own (development: server/dev/consoleSignIn.ts), with the way to open a console session */
  extend?: (app: Hono<ConsoleEnv>, openSession: OpenConsoleSession) => void;
}

export type OpenConsoleSession = (c: Context<ConsoleEnv>, operator: OperatorRecord, provedAt: number) => Promise<ConsoleSessionRecord>;

function errorBody(error: ConsoleError) {
  return { error: { type: error.type, message: error.message, ...(error.fields ? { fields: error.fields } : {}) } };
}


/** The widget's bundles the sign-in page may load from /widget/ (dist/corbado.js, corbado.mjs, corbado.de.js …). */
const WIDGET_FILE = /^corbado(?:\.[a-z]{2})?\.m?js$/;

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function createConsoleApp(deps: ConsoleDeps): Hono<ConsoleEnv> {
  const { store, now } = deps;
  const https = deps.origin.startsWith('https:');
  const distDir = deps.distDir ?? DIST_DIR;
  const appDir = join(distDir, 'console');
  const operators = new Operators({ store, events: deps.events, now, consoleOrigin: deps.origin });
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    // the widget's styles: constructed style sheets, a <style> element where a browser has none
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${new URL(deps.frontendApiUrl).origin}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

  const app = new Hono<ConsoleEnv>();
  app.use('*', async (c, next) => {
    c.set('requestId', newId('req'));
    await next();
    c.res.headers.set('Content-Security-Policy', csp);
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('Referrer-Policy', 'no-referrer');
    c.res.headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    c.res.headers.set('Cross-Origin-Resource-Policy', 'same-origin');
    c.res.headers.set('X-Frame-Options', 'DENY');
    if (https) c.res.headers.set('Strict-Transport-Security', 'max-age=31536000');
    if (c.req.path.startsWith('/api/')) c.res.headers.set('Cache-Control', 'no-store');
  });
  app.use('/api/*', (c, next) =>
    withAuditScope({ requestId: c.get('requestId'), ip: socketIp(c), userAgent: c.req.header('user-agent') ?? '' }, next),
  );
  app.onError((error, c) => {
    const known = error instanceof ConsoleError ? error : error instanceof ApiError ? consoleErrorOf(error) : undefined;
    if (known) return c.json(errorBody(known), known.status);
    deps.log.error(`console ${c.req.method} ${c.req.path} failed`, error);
    return c.json({ error: { type: 'internal_error', message: 'Something went wrong on the server' } }, 500);
  });

  /** Whether a write comes from the console's own page: Sec-Fetch-Site and Origin, when sent, say so, and one of them is sent. */
  const fromOwnOrigin = (c: Context<ConsoleEnv>): boolean => {
    const site = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    if (site !== undefined && site !== 'same-origin') return false;
    if (origin !== undefined && origin !== deps.origin) return false;
    return site !== undefined || origin !== undefined;
  };
  const csrfRefused = () => new ConsoleError(403, 'csrf', 'This change must come from the console page itself, with its CSRF token');

  const sessionBody = async (operator: OperatorRecord, session: ConsoleSessionRecord) => ({
    operator: { ...shownOperator(operator), projects: await visibleProjects(operator) },
    csrfToken: session.csrfToken,
  });
  const visibleProjects = async (operator: OperatorRecord) =>
    (await store.projects.list()).filter(({ config }) => maySee(operator, config.id)).map(({ config }) => ({ id: config.id, name: config.appName }));

  /** The operator and console session of the request's cookie, if live. */
  const signedIn = async (c: Context<ConsoleEnv>) => {
    const token = getCookie(c, CONSOLE_COOKIE);
    if (!token) return undefined;
    const session = await store.operators.liveSession(sha256Hex(token), now());
    const operator = session && (await store.operators.get(session.operatorId));
    return session && operator ? { session, operator } : undefined;
  };

  // ---- before sign-in

  app.get('/api/config', (c) => c.json({ projectId: CONSOLE_PROJECT_ID, frontendApiUrl: deps.frontendApiUrl }));

  app.post('/api/session', async (c) => {
    if (!fromOwnOrigin(c)) throw csrfRefused();
    const body = (await c.req.json().catch(() => undefined)) as { shortSession?: unknown } | undefined;
    if (typeof body?.shortSession !== 'string' || body.shortSession.length > 10_000) {
      throw new ConsoleError(400, 'invalid', 'The body needs the widget\'s short session', { shortSession: 'is required' });
    }
    const userId = await verifiedUser(body.shortSession);
    const user = userId === undefined ? undefined : await store.users.get(userId);
    if (!user || user.projectId !== CONSOLE_PROJECT_ID || user.status !== 'active') throw new ConsoleError(401, 'unauthenticated', 'The short session is not valid');
    const emails = (await store.users.listIdentifiers(user.id)).filter((i) => i.type === 'email' && i.status === 'verified');
    let operator: OperatorRecord | undefined;
    for (const email of emails) operator ??= await store.operators.byEmail(email.normalized);
    if (!operator) throw new ConsoleError(403, 'not_an_operator', 'This address is no operator of the console');
    // the operator's last proof: the newest log-in (or fresh proof) of their live sessions in the console project
    const live = await store.sessions.listLive(user.id, CONSOLE_PROJECT_ID, now());
    const session = await openSession(c, operator, Math.max(0, ...live.map(lastAuthenticatedAt)) || now(), user.id);
    return c.json(await sessionBody(operator, session));
  });

  /** A new console session of the operator: its cookie on the answer, a record in the console project's trail. */
  const openSession = async (c: Context<ConsoleEnv>, operator: OperatorRecord, provedAt: number, userId?: string): Promise<ConsoleSessionRecord> => {
    const token = newSecretToken();
    const session: ConsoleSessionRecord = { id: newId('cse'), operatorId: operator.id, csrfToken: newSecretToken(), createdAt: now(), provedAt, expiresAt: now() + CONSOLE_SESSION_MS };
    await store.transaction(async () => {
      await store.operators.pruneSessions(now());
      await store.operators.insertSession({ ...session, tokenHash: sha256Hex(token) });
      await deps.trail.record(CONSOLE_PROJECT_ID, { event: 'console.signed_in', actor: `operator:${operator.id}`, ...(userId ? { userId } : {}), target: `operator:${operator.id}` });
    });
    setCookie(c, CONSOLE_COOKIE, token, { httpOnly: true, sameSite: 'Strict', secure: https, path: '/', maxAge: CONSOLE_SESSION_MS / 1000 });
    return session;
  };
  // development only (server/dev/consoleSignIn.ts): the one-step sign-in link `npm start` prints
  deps.extend?.(app, openSession);

  /** The console project's user a short session names, if it is one of that project's, signed by its key and not expired. */
  const verifiedUser = async (jwt: string): Promise<string | undefined> => {
    try {
      const keys = createLocalJWKSet(await deps.keyRing.jwks(CONSOLE_PROJECT_ID));
      const { payload } = await jwtVerify(jwt, keys, { audience: CONSOLE_PROJECT_ID, algorithms: ['ES256'], currentDate: new Date(now()) });
      return typeof payload.sub === 'string' ? payload.sub : undefined;
    } catch {
      return undefined;
    }
  };

  // ---- signed in: every other /api/ call

  app.use('/api/*', async (c, next) => {
    if (c.req.path === '/api/config' || (c.req.path === '/api/session' && c.req.method === 'POST')) return next();
    const found = await signedIn(c);
    if (!found) throw new ConsoleError(401, 'unauthenticated', 'Sign in to the console first');
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const token = c.req.header(CSRF_HEADER);
      if (!fromOwnOrigin(c) || !token || !safeEqual(token, found.session.csrfToken)) throw csrfRefused();
    }
    c.set('operator', found.operator);
    c.set('session', found.session);
    currentAuditScope()!.actor = `operator:${found.operator.id}`;
    await next();
  });

  app.get('/api/session', async (c) => c.json(await sessionBody(c.get('operator')!, c.get('session')!)));
  app.delete('/api/session', async (c) => {
    await store.operators.removeSession(sha256Hex(getCookie(c, CONSOLE_COOKIE)!));
    deleteCookie(c, CONSOLE_COOKIE, { path: '/', secure: https });
    return c.json({ ok: true });
  });

  /**
   * The one gate of every console route: the project (`:p`) must be one the operator may see (404 as
   * if it did not exist, before anything else), the role must allow `permission` (403 forbidden), and
   * what NEEDS_RECENT_PROOF lists needs a sign-in within the console project's recent-log-in window.
   */
  const allow =
    (permission: Permission): MiddlewareHandler<ConsoleEnv> =>
    async (c, next) => {
      const operator = c.get('operator')!;
      const projectId = c.req.param('p');
      if (projectId !== undefined) {
        const project = maySee(operator, projectId) ? await store.projects.get(projectId) : undefined;
        if (!project) throw notFound();
        c.set('project', project);
      }
      if (!mayDo(operator, permission)) throw new ConsoleError(403, 'forbidden', 'Your role does not allow this');
      if (NEEDS_RECENT_PROOF.has(permission) && c.req.method !== 'GET') {
        const window = ((await store.projects.get(CONSOLE_PROJECT_ID))?.recentLoginSeconds ?? 300) * 1000;
        if (now() - c.get('session')!.provedAt > window) {
          throw new ConsoleError(403, 'recent_login_required', `This needs a sign-in within the last ${window / 1000} seconds: sign in again`);
        }
      }
      await next();
    };

  app.get('/api/projects', allow('project.read'), async (c) => c.json({ projects: await visibleProjects(c.get('operator')!) }));
  registerConsoleRoutes(app, allow, { ...deps, operators });

  // ---- the app's files, and the widget's bundle for its sign-in page

  app.get('/widget/:file', (c) => {
    const file = c.req.param('file');
    const path = join(distDir, file);
    if (!WIDGET_FILE.test(file) || !existsSync(path)) return c.text('Not found\n', 404);
    return fileResponse(path, 'public, max-age=300');
  });
  app.all('/api/*', () => {
    throw notFound();
  });
  app.get('*', (c) => {
    const index = join(appDir, 'index.html');
    if (!existsSync(index)) return c.text('The console app is not built yet: run `npm run build`.\n', 503);
    const wanted = normalize(join(appDir, decodeURIComponent(c.req.path)));
    if (wanted.startsWith(appDir + sep) && existsSync(wanted) && statSync(wanted).isFile()) {
      return fileResponse(wanted, wanted.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    }
    // the app's own pages (client-side routes) are its index; a missing file is a 404
    if (extname(c.req.path) !== '') return c.text('Not found\n', 404);
    return fileResponse(index, 'no-cache');
  });
  return app;
}

function fileResponse(path: string, cacheControl: string): Response {
  return new Response(readFileSync(path), {
    headers: { 'Content-Type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream', 'Cache-Control': cacheControl },
  });
}

function socketIp(c: Context<ConsoleEnv>): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}
