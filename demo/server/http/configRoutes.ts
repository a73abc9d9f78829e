// Project-level configuration the client reads before any process exists.
import type { Hono } from 'hono';
import { IDENTIFIER_TYPES } from '../config/projectConfig.ts';
import type { TokenSigner } from '../session/TokenSigner.ts';
import type { AppEnv } from './AppEnv.ts';
import type { RequestResolver } from './requestContext.ts';

export function registerConfigRoutes(app: Hono<AppEnv>, resolve: RequestResolver, signer: TokenSigner): void {
  app.get('/v2/session-config', async (c) => {
    const project = await resolve.project(c);
    return c.json({
      useSessionManagement: true,
      shortSessionCookieConfig: { ...project.shortSessionCookie, lifetimeSeconds: project.shortSessionLifetimeSeconds },
      frontendApiUrl: resolve.frontendApiUrl(c),
    });
  });

  app.get('/v2/user-details-config', async (c) => {
    const project = await resolve.project(c);
    return c.json({
      fullNameRequired: project.fullNameRequired,
      identifiers: IDENTIFIER_TYPES.filter((t) => project.identifiers[t].enabled).map((type) => ({ type })),
    });
  });

  /** The public key that signs short sessions, for host backends that verify them. */
  app.get('/.well-known/jwks.json', (c) => c.json(signer.jwks()));
}
