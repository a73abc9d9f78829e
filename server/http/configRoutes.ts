// Project-level configuration the client reads before any process exists.
import type { Hono } from 'hono';
import type { ComponentConfig, ProcessConfig, SessionConfig, UserDetailsConfig } from '../../src/core/api/types.ts';
import { ApiError } from '../ApiError.ts';
import { IDENTIFIER_TYPES, PROJECT_ID_PATTERN } from '../config/projectConfig.ts';
import { ALGORITHM, type KeyRing } from '../session/KeyRing.ts';
import type { Store } from '../store/Store.ts';
import type { AppEnv } from './AppEnv.ts';
import { readJson, type RequestResolver } from './requestContext.ts';
import { anyObject, parseWith } from '../schema.ts';

/** The path of the authorization endpoint that discovery names (and that refuses every request). */
const AUTHORIZATION_PATH = '/oauth2/authorize';

export function registerConfigRoutes(app: Hono<AppEnv>, resolve: RequestResolver, keys: KeyRing, store: Store): void {
  app.get('/v2/session-config', async (c) => {
    // a fresh visitor's page asks without a preflight, naming the project in the query
    const project = await resolve.project(c, { simple: true });
    // the client writes the short-session cookie itself; in production it is Secure whatever the project says
    const secure = project.shortSessionCookie.secure || resolve.secureCookies(c);
    const cookie = { ...project.shortSessionCookie, secure, lifetimeSeconds: project.shortSessionLifetimeSeconds };
    return c.json({
      useSessionManagement: true,
      shortSessionCookieConfig: cookie,
      sessionTokenCookieConfig: cookie,
      frontendApiUrl: resolve.frontendApiUrl(c),
      // the page is on another site than this API: what the widget keeps where the browser refuses the API's cookie
      ...(resolve.crossSite(c) ? { crossSite: { sessions: project.environment === 'dev' ? 'storage' : project.crossSiteSessions } } : {}),
    } satisfies SessionConfig);
  });

  // Version 3 of Corbado's client asks this before its first process: the process id travels in the
  // X-Corbado-Process-ID header here, and process calls go to frontendApiUrl.
  app.get('/v2/process-config', async (c) => {
    await resolve.project(c);
    return c.json({ useServerSideProcessId: false, frontendApiUrl: resolve.frontendApiUrl(c) } satisfies ProcessConfig);
  });

  app.get('/v2/user-details-config', async (c) => {
    const project = await resolve.project(c);
    return c.json({
      fullNameRequired: project.fullNameRequired,
      identifiers: IDENTIFIER_TYPES.filter((t) => project.identifiers[t].enabled).map((type) => ({
        type,
        loginIdentifier: project.identifiers[type].loginIdentifier,
        maxPerUser: project.identifiers[type].maxPerUser,
      })),
    } satisfies UserDetailsConfig);
  });

  // SPEC §7 lists it without a payload and the API reference has no schema for it: the body (optional) is
  // a JSON object, and the answer is the project's public face, nothing a visitor could not see in a process
  app.post('/v2/component-config', async (c) => {
    const project = await resolve.project(c);
    parseWith(anyObject(), await readJson(c));
    return c.json({
      appName: project.appName,
      environment: project.environment,
      language: project.language,
      hideBadge: project.hideBadge,
      publicSignup: project.publicSignup,
      fullNameRequired: project.fullNameRequired,
      passkeys: project.passkeys,
      identifiers: IDENTIFIER_TYPES.filter((t) => project.identifiers[t].enabled).map((type) => ({
        type,
        loginIdentifier: project.identifiers[type].loginIdentifier,
        verification: project.identifiers[type].verification,
      })),
      socialProviders: project.socialProviders,
    } satisfies ComponentConfig);
  });

  /** A project's keys; an unknown or malformed project id is a 404, so a typo in a backend's settings shows at once. */
  async function projectKeys(id: string) {
    if (!PROJECT_ID_PATTERN.test(id) || !(await store.projects.get(id))) {
      throw new ApiError(404, 'project_not_found', 'Not found', `Project ${id.slice(0, 40)} does not exist`);
    }
    return keys.jwks(id);
  }

  /**
   * The keys that sign short sessions, for host backends that verify them: with `X-Corbado-ProjectID`
   * (as @corbado/node-sdk asks) only that project's, so that a verifier of one project refuses another's
   * token by its key alone; without it (OpenID discovery's `jwks_uri`, which takes no header) every
   * project's, and the verifier tells the projects apart by `aud`. `/.well-known/jwks.json` is the same.
   */
  for (const path of ['/.well-known/jwks', '/.well-known/jwks.json']) {
    app.get(path, async (c) => {
      const id = c.req.header('x-corbado-projectid')?.trim();
      return c.json(id ? await projectKeys(id) : await keys.allJwks());
    });
  }

  /** One project's keys without a header, for verifiers that cannot send one. */
  app.get('/projects/:projectId/.well-known/jwks.json', async (c) => c.json(await projectKeys(c.req.param('projectId'))));

  /**
   * OpenID discovery at `<issuer>/.well-known/openid-configuration`, for frameworks configured with
   * an issuer (ASP.NET's `Authority`, Spring's `issuer-uri`, go-oidc): the issuer, its keys and the
   * algorithm, and the members OpenID Connect Discovery 1.0 §3 requires of every provider. This server
   * mints its tokens (the short sessions, ID-token-like JWTs) in the login widget's processes, not at an
   * authorization endpoint: like other issuers that only mint tokens (the Kubernetes API server's
   * service-account issuer, Google's STS), it names `response_types_supported: ["id_token"]` (so no
   * token endpoint is required: only the implicit flow's shape), and its `authorization_endpoint` is a real
   * URL under the issuer that refuses every request (below). `id_token_signing_alg_values_supported`
   * stays `["ES256"]`, though the spec asks RS256 to be listed: verifiers that take their algorithms from
   * this document would then accept RS256 tokens, which this server never signs (server README, "OpenID
   * discovery").
   */
  app.get('/.well-known/openid-configuration', (c) => {
    const issuer = resolve.frontendApiUrl(c);
    return c.json({
      issuer,
      authorization_endpoint: `${issuer}${AUTHORIZATION_PATH}`,
      jwks_uri: `${issuer}/.well-known/jwks`,
      response_types_supported: ['id_token'],
      grant_types_supported: ['implicit'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [ALGORITHM],
      claims_supported: ['iss', 'aud', 'sub', 'iat', 'nbf', 'exp', 'jti', 'name', 'email', 'email_verified', 'phone_number', 'phone_number_verified', 'orig'],
    });
  });

  /**
   * The authorization endpoint discovery names. No OAuth client is registered with this server, so
   * every request is refused here with a 400, never redirected (RFC 6749 §4.1.2.1: a request of an
   * unknown client is answered to the person, not sent to its `redirect_uri`).
   */
  app.get(AUTHORIZATION_PATH, () => {
    throw ApiError.invalidRequest('This server has no OAuth clients: its sessions come from the login widget, not from an authorization request.');
  });
}
