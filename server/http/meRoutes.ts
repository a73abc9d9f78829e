// /v2/me*: the logged-in user's own data, authorised by the long session (bearer or cookie).
import type { Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import type { Account } from '../account/Account.ts';
import { LONG_SESSION_COOKIE } from '../session/Sessions.ts';
import { newSecretToken } from '../randomValues.ts';
import type { AppEnv } from './AppEnv.ts';
import { genericOk } from './errorEnvelope.ts';
import { readJson, type RequestResolver } from './requestContext.ts';
import { anyObject, bool, obj, optional, parseWith, str } from '../schema.ts';

const appendStartBody = obj({
  clientInformation: optional(obj({ isUserVerifyingPlatformAuthenticatorAvailable: optional(bool()), clientEnvHandle: optional(str({ max: 512 })) })),
});
const appendFinishBody = obj({ attestationResponse: str({ min: 1, max: 100_000 }), clientInformation: optional(anyObject()) });

export function registerMeRoutes(app: Hono<AppEnv>, account: Account, resolve: RequestResolver): void {
  app.get('/v2/me', async (c) => {
    const { project, session } = await resolve.session(c);
    return c.json(await account.me(project, session));
  });

  app.get('/v2/me/passkeys', async (c) => c.json(await account.passkeys((await resolve.session(c)).session)));

  app.post('/v2/me/passkeys/append/start', async (c) => {
    const { project, session } = await resolve.session(c);
    const body = parseWith(appendStartBody, await readJson(c));
    const answer = await account.appendStart(project, session, body.clientInformation ?? {});
    // a browser that names no client handle gets one, as at process/init (SPEC §3: newClientEnvHandle)
    return c.json(body.clientInformation?.clientEnvHandle ? answer : { ...answer, newClientEnvHandle: `ceh-${newSecretToken()}` });
  });

  app.post('/v2/me/passkeys/append/finish', async (c) => {
    const { project, session } = await resolve.session(c);
    const body = parseWith(appendFinishBody, await readJson(c));
    await account.appendFinish(project, session, body.attestationResponse, c.req.header('user-agent'));
    return c.json(genericOk(c));
  });

  app.delete('/v2/me/passkeys/:credentialID', async (c) => {
    const { project, session } = await resolve.session(c);
    return c.json(await account.deletePasskey(project, session, c.req.param('credentialID')));
  });

  app.post('/v2/me/refresh', async (c) => {
    const { project, session } = await resolve.session(c);
    return c.json(await account.refresh(project, session, resolve.frontendApiUrl(c)), 200);
  });

  app.post('/v2/me/logout', async (c) => {
    // a bearer and a cookie naming different sessions (a stale tab, a second sign-in) both end here
    const { sessions } = await resolve.liveSessions(c);
    for (const session of sessions) await account.logout(session);
    deleteCookie(c, LONG_SESSION_COOKIE, { path: '/', secure: resolve.secureCookies(c) });
    return c.body(null, 204);
  });
}
