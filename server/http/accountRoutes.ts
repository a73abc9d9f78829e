// Account management on /v2/me (PATCH: the name, DELETE: the account), /v2/me/identifier* (add,
// change, remove, verify identifiers) and /v2/me/social-account (unlink a provider account), authorised by the long session like every /v2/me call. Each
// answers genericRsp; what cannot be done is an error envelope with a type the widget translates.
import type { Hono } from 'hono';
import type { Account } from '../account/Account.ts';
import type { AccountIdentifiers } from '../account/AccountIdentifiers.ts';
import { IDENTIFIER_TYPES } from '../config/projectConfig.ts';
import { anyObject, bool, obj, oneOf, optional, parseWith, str } from '../schema.ts';
import type { AppEnv } from './AppEnv.ts';
import { genericOk } from './errorEnvelope.ts';
import { readJson, type RequestResolver } from './requestContext.ts';

const identifierType = oneOf(IDENTIFIER_TYPES);
const identifierID = str({ min: 1, max: 100 });
const schemas = {
  meUpdate: obj({ fullName: str({ max: 1000 }) }),
  create: obj({ identifierType, value: str({ max: 320 }) }),
  remove: obj({ identifierID }),
  update: obj({ identifierID, identifierType, value: str({ max: 320 }), primary: optional(bool()) }),
  verifyStart: obj({ identifierID, clientInformation: optional(anyObject()) }),
  verifyFinish: obj({ identifierID, code: str({ max: 64 }) }),
  unlink: obj({ socialAccountID: str({ min: 1, max: 100 }) }),
};

export function registerAccountRoutes(app: Hono<AppEnv>, account: Account, identifiers: AccountIdentifiers, resolve: RequestResolver): void {
  app.patch('/v2/me', async (c) => {
    const { project, session } = await resolve.session(c);
    await account.updateName(project, session, parseWith(schemas.meUpdate, await readJson(c)).fullName);
    return c.json(genericOk(c));
  });

  app.delete('/v2/me', async (c) => {
    const { project, session } = await resolve.session(c);
    await account.deleteAccount(project, session);
    resolve.removeLongSessionCookie(c);
    return c.json(genericOk(c));
  });

  app.delete('/v2/me/social-account', async (c) => {
    const { project, session } = await resolve.session(c);
    await account.unlinkSocialAccount(project, session, parseWith(schemas.unlink, await readJson(c)).socialAccountID);
    return c.json(genericOk(c));
  });

  app.post('/v2/me/identifier', async (c) => {
    const { project, session } = await resolve.session(c);
    await identifiers.create(project, session, parseWith(schemas.create, await readJson(c)));
    return c.json(genericOk(c));
  });

  app.delete('/v2/me/identifier', async (c) => {
    const { project, session } = await resolve.session(c);
    await identifiers.remove(project, session, parseWith(schemas.remove, await readJson(c)).identifierID);
    return c.json(genericOk(c));
  });

  app.patch('/v2/me/identifier', async (c) => {
    const { project, session } = await resolve.session(c);
    await identifiers.update(project, session, parseWith(schemas.update, await readJson(c)));
    return c.json(genericOk(c));
  });

  app.post('/v2/me/identifier/verify/start', async (c) => {
    const { project, session } = await resolve.session(c);
    const body = parseWith(schemas.verifyStart, await readJson(c));
    await identifiers.verifyStart(project, session, body.identifierID, resolve.clientIp(c), {
      origin: c.req.header('origin'),
      language: resolve.language(c, project),
    });
    return c.json(genericOk(c));
  });

  app.post('/v2/me/identifier/verify/finish', async (c) => {
    const { project, session } = await resolve.session(c);
    await identifiers.verifyFinish(project, session, parseWith(schemas.verifyFinish, await readJson(c)), resolve.clientIp(c));
    return c.json(genericOk(c));
  });
}
