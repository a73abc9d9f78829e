// Resolving what a request refers to: its project (header), its process token (header), its session
// (bearer or cookie), its body (JSON), the client's address and the public URL of this API.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import { ApiError } from '../ApiError.ts';
import { PROJECT_ID_PATTERN, type Language, type ProjectConfig } from '../config/projectConfig.ts';
import type { FlowRequest } from '../flow/FlowContext.ts';
import { messageLanguage } from '../senders/messageTexts.ts';
import { LONG_SESSION_COOKIE, type PresentedSession, type Sessions } from '../session/Sessions.ts';
import type { SessionRecord } from '../store/SessionsRepo.ts';
import type { Store } from '../store/Store.ts';
import type { AppEnv } from './AppEnv.ts';
import { readBrowserCookie } from './browserCookie.ts';
import { cookieAttributes, removalAttributes, requestIsCrossSite, type CookieAttributes } from './crossSite.ts';

// the routes take their bodies from here with the rest of what a request refers to
export { readJson } from './requestBody.ts';

/** The long session a request is authorised by. */
export interface SessionAuth {
  project: ProjectConfig;
  session: SessionRecord;
  presented: PresentedSession;
  /** it came as the cookie (no live bearer): the browser keeps whatever value the answer sets */
  viaCookie: boolean;
}

/**
 * The query parameter that names the project beside (or instead of) the X-Corbado-ProjectID header, on
 * the calls a fresh visitor's page makes first (GET /v2/session-config, POST /v2/auth/process/init):
 * without a custom header, and with a text/plain body, those are CORS simple requests, which the
 * browser sends without a preflight.
 */
export const PROJECT_QUERY = 'projectID';

export interface ProjectOptions {
  /**
   * A call that may come as a CORS simple request: the project may be named by the query parameter. A
   * request that names it so (no header) may have come from any page without a preflight, so it is
   * refused unless its Origin is one of the project's allowed origins (without an Origin: unless the
   * browser says the page is the API's own origin).
   */
  simple?: boolean;
}

export interface RequestResolver {
  project(c: Context<AppEnv>, options?: ProjectOptions): Promise<ProjectConfig>;
  flowRequest(c: Context<AppEnv>): Promise<FlowRequest>;
  /** an e-mail link's page: the process header is optional (the page holds the process only in the browser that asked) */
  linkRequest(c: Context<AppEnv>): Promise<FlowRequest>;
  session(c: Context<AppEnv>): Promise<SessionAuth>;
  optionalSession(c: Context<AppEnv>): Promise<{ project: ProjectConfig; session: SessionRecord | undefined }>;
  /** every live session the request names: its bearer and its cookie may name two (log-out ends both) */
  liveSessions(c: Context<AppEnv>): Promise<{ project: ProjectConfig; sessions: SessionRecord[] }>;
  frontendApiUrl(c: Context<AppEnv>): string;
  /** whether session cookies carry `Secure`: always in production, else when this API is served over https */
  secureCookies(c: Context<AppEnv>): boolean;
  /** the request comes from a page on another site than this API (http/crossSite.ts) */
  crossSite(c: Context<AppEnv>): boolean;
  /** the attributes of a cookie this answer sets: SameSite=Lax on the API's own site, SameSite=None; Partitioned from another site over https */
  cookie(c: Context<AppEnv>, maxAgeSeconds: number, path?: string): CookieAttributes;
  /** removes the long-session cookie (log-out, a deleted account) in the partition it was set in */
  removeLongSessionCookie(c: Context<AppEnv>): void;
  clientIp(c: Context<AppEnv>): string;
  /** the language of the visitor's e-mails and SMS: the request's Accept-Language where the server has texts for it, else the project's */
  language(c: Context<AppEnv>, project: ProjectConfig): Language;
}

export interface ResolverOptions {
  publicUrl?: string;
  /** production mode: session cookies are always `Secure` */
  production?: boolean;
  /**
   * How many proxies in front of this API append to X-Forwarded-For (0: none, the socket's address is
   * the client's). With n, the n-th address from the right is the client's.
   */
  trustedProxies?: number;
}

export function requestResolver(store: Store, sessions: Sessions, now: () => number, options: ResolverOptions = {}): RequestResolver {
  /**
   * The live sessions the bearer (first) and the cookie name. Only the value a request is authorised
   * by (the bearer when it has one) ends its session when it is a retired one: the cookie beside a
   * bearer may lag behind where the browser did not store the cookie of the last rotation.
   */
  async function presentedSessions(c: Context<AppEnv>): Promise<{ project: ProjectConfig; found: SessionAuth[] }> {
    const project = await resolver.project(c);
    const bearer = /^Bearer\s+(.*)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim();
    const cookie = getCookie(c, LONG_SESSION_COOKIE);
    const found: SessionAuth[] = [];
    const tried = new Set<string>();
    for (const [token, viaCookie] of [[bearer, false], [cookie, true]] as const) {
      if (!token || tried.has(token)) continue;
      const presented = await sessions.presented(project, token, now(), tried.size === 0);
      tried.add(token);
      if (presented && !found.some((f) => f.session.id === presented.session.id)) found.push({ project, session: presented.session, presented, viaCookie });
    }
    return { project, found };
  }

  const resolver: RequestResolver = {
    async project(c, { simple = false } = {}) {
      const header = c.req.header('x-corbado-projectid')?.trim() || undefined;
      const named = simple ? c.req.queries(PROJECT_QUERY)?.map((value) => value.trim()) : undefined;
      if (named && new Set(named).size > 1) throw ApiError.invalidRequest(`The ${PROJECT_QUERY} parameter names more than one project`);
      const query = named?.[0] || undefined;
      if (header && query && header !== query) throw ApiError.invalidRequest(`X-Corbado-ProjectID and the ${PROJECT_QUERY} parameter name different projects`);
      const id = header ?? query;
      if (!id) throw new ApiError(400, 'project_id_missing', 'Bad request', `The X-Corbado-ProjectID header${simple ? ` (or the ${PROJECT_QUERY} parameter)` : ''} is missing`);
      const project = PROJECT_ID_PATTERN.test(id) ? await store.projects.get(id) : undefined;
      if (!project) throw new ApiError(404, 'project_not_found', 'Not found', `Project ${id.slice(0, 40)} does not exist`);
      c.set('project', project);
      const origin = c.req.header('origin');
      const forbidden = origin !== undefined ? !project.allowedOrigins.includes(origin) : !header && c.req.header('sec-fetch-site') !== 'same-origin';
      if (forbidden) throw new ApiError(403, 'forbidden_origin', 'Forbidden', 'This origin is not allowed for the project');
      return project;
    },

    async flowRequest(c) {
      const request = await resolver.linkRequest(c);
      if (!request.processToken) throw ApiError.processNotAvailable('The X-Corbado-Process-ID header is missing');
      return request;
    },

    async linkRequest(c) {
      const project = await resolver.project(c);
      // version 3 of Corbado's client names an e-mail link's process in X-Corbado-Temp-Process-ID
      const process = c.req.header('x-corbado-process-id')?.trim();
      const token = process || c.req.header('x-corbado-temp-process-id')?.trim();
      const browserCookie = readBrowserCookie(c, resolver.secureCookies(c));
      return {
        project,
        processToken: token ?? '',
        frontendApiUrl: resolver.frontendApiUrl(c),
        userAgent: c.req.header('user-agent'),
        clientIp: resolver.clientIp(c),
        language: resolver.language(c, project),
        ...(c.req.header('origin') !== undefined ? { origin: c.req.header('origin') } : {}),
        ...(process || !token ? {} : { fromEmailLink: true }),
        ...(browserCookie ? { browserCookie } : {}),
        // over http nothing holds across sites (browsers refuse SameSite=None without Secure): only https counts
        ...(resolver.crossSite(c) && resolver.secureCookies(c) ? { crossSite: true } : {}),
      };
    },

    async optionalSession(c) {
      const { project, found } = await presentedSessions(c);
      return { project, session: found[0]?.session };
    },

    async liveSessions(c) {
      const { project, found } = await presentedSessions(c);
      return { project, sessions: found.map((auth) => auth.session) };
    },

    async session(c) {
      const { found } = await presentedSessions(c);
      if (!found[0]) throw ApiError.unauthorized();
      return found[0];
    },

    frontendApiUrl(c) {
      return options.publicUrl ?? new URL(c.req.url).origin;
    },

    secureCookies(c) {
      return options.production === true || resolver.frontendApiUrl(c).startsWith('https:');
    },

    crossSite(c) {
      return requestIsCrossSite(c.req.header('origin'), c.req.header('sec-fetch-site'), resolver.frontendApiUrl(c));
    },

    cookie(c, maxAgeSeconds, path) {
      return cookieAttributes(resolver.secureCookies(c), resolver.crossSite(c), maxAgeSeconds, path);
    },

    removeLongSessionCookie(c) {
      deleteCookie(c, LONG_SESSION_COOKIE, removalAttributes(resolver.secureCookies(c), resolver.crossSite(c)));
    },

    language(c, project) {
      return messageLanguage(c.req.header('accept-language'), project.language);
    },

    clientIp(c) {
      const hops = options.trustedProxies ?? 0;
      if (hops > 0) {
        const forwarded = (c.req.header('x-forwarded-for') ?? '').split(',').map((a) => a.trim()).filter(Boolean);
        const client = forwarded[forwarded.length - hops];
        if (client) return client;
      }
      return socketAddress(c) ?? 'unknown';
    },
  };
  return resolver;
}

export function socketAddress(c: Context<AppEnv>): string | undefined {
  try {
    return getConnInfo(c).remote.address?.replace(/^::ffff:/, '');
  } catch {
    return undefined; // not served by a socket (app.request in a test)
  }
}
