// /v2/me/reauth*: a fresh proof (passkey or code) on the account page, for what needs a recent log-in.
// Authorised by the long session like every /v2/me call; a proof renews that long session only.
import type { Hono } from 'hono';
import type { Reauthentication } from '../account/Reauthentication.ts';
import { anyObject, obj, optional, parseWith, str } from '../schema.ts';
import type { AppEnv } from './AppEnv.ts';
import { genericOk } from './errorEnvelope.ts';
import { readJson, type RequestResolver } from './requestContext.ts';

const identifierID = str({ min: 1, max: 100 });
const schemas = {
  passkeyStart: obj({ clientInformation: optional(anyObject()) }),
  passkeyFinish: obj({ assertionResponse: str({ min: 1, max: 100_000 }) }),
  codeStart: obj({ identifierID }),
  codeFinish: obj({ identifierID, code: str({ max: 64 }) }),
};

export function registerReauthRoutes(app: Hono<AppEnv>, reauth: Reauthentication, resolve: RequestResolver): void {
  app.get('/v2/me/reauth', async (c) => {
    const { project, session } = await resolve.session(c);
    return c.json(await reauth.options(project, session));
  });

  app.post('/v2/me/reauth/passkey/start', async (c) => {
    const { project, session } = await resolve.session(c);
    parseWith(schemas.passkeyStart, await readJson(c));
    return c.json(await reauth.passkeyStart(project, session, resolve.clientIp(c)));
  });

  app.post('/v2/me/reauth/passkey/finish', async (c) => {
    const { project, session } = await resolve.session(c);
    await reauth.passkeyFinish(project, session, parseWith(schemas.passkeyFinish, await readJson(c)).assertionResponse);
    return c.json(genericOk(c));
  });

  app.post('/v2/me/reauth/code/start', async (c) => {
    const { project, session } = await resolve.session(c);
    const { identifierID } = parseWith(schemas.codeStart, await readJson(c));
    await reauth.codeStart(project, session, identifierID, resolve.clientIp(c), { origin: c.req.header('origin'), language: resolve.language(c, project) });
    return c.json(genericOk(c));
  });

  app.post('/v2/me/reauth/code/finish', async (c) => {
    const { project, session } = await resolve.session(c);
    await reauth.codeFinish(project, session, parseWith(schemas.codeFinish, await readJson(c)), resolve.clientIp(c));
    return c.json(genericOk(c));
  });
}
