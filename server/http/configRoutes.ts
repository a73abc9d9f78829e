// Project-level configuration the client reads before any process exists.
import type { Hono } from 'hono';
import type { ComponentConfig, ProcessConfig, SessionConfig, UserDetailsConfig } from '../../src/core/api/types.ts';
import { ApiError } from '../ApiError.ts';
import { IDENTIFIER_TYPES, PROJECT_ID_PATTERN } from '../config/projectConfig.ts';
import type { TokenSigner } from '../session/TokenSigner.ts';
import type { Store } from '../store/Store.ts';
import type { AppEnv } from './AppEnv.ts';
import { readJson, type RequestResolver } from './requestContext.ts';
import { anyObject, parseWith } from '../schema.ts';

export function registerConfigRoutes(app: Hono<AppEnv>, resolve: RequestResolver, signer: TokenSigner, store: Store): void {
  app.get('/v2/session-config', async (c) => {
    const project = await resolve.project(c);
    // the client writes the short-session cookie itself; in production it is Secure whatever the project says
    const secure = project.shortSessionCookie.secure || resolve.secureCookies(c);
    const cookie = { ...project.shortSessionCookie, secure, lifetimeSeconds: project.shortSessionLifetimeSeconds };
    return c.json({
      useSessionManagement: true,
      shortSessionCookieConfig: cookie,
      sessionTokenCookieConfig: cookie,
      frontendApiUrl: resolve.frontendApiUrl(c),
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

  /** The public key that signs short sessions, for host backends that verify them. */
  app.get('/.well-known/jwks.json', (c) => c.json(signer.jwks()));

  /**
   * The same keys under the project's issuer (`<frontendApiUrl>/projects/<id>`), the URL a project's
   * backend fetches; an unknown project is a 404, so a typo in a backend's settings shows at once.
   */
  app.get('/projects/:projectId/.well-known/jwks.json', async (c) => {
    const id = c.req.param('projectId');
    if (!PROJECT_ID_PATTERN.test(id) || !(await store.projects.get(id))) {
      throw new ApiError(404, 'project_not_found', 'Not found', `Project ${id.slice(0, 40)} does not exist`);
    }
    return c.json(signer.jwks());
  });
}
