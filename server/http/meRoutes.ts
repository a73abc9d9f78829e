// /v2/me*: the logged-in user's own data, authorised by the long session (bearer or cookie).
import type { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
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
/** `rotate`: the client keeps the long session it holds and stores the next one (this widget does; web-js 3.5 does not) */
const refreshBody = obj({ rotate: optional(bool()) });

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

  /**
   * A new short session. The long session rotates when it came as the cookie (the browser stores the
   * next value by itself) or when the client asks with `{"rotate": true}`; a bearer client that does not
   * ask (web-js 3.5 keeps its first value for good) keeps its value.
   */
  app.post('/v2/me/refresh', async (c) => {
    // the body first: a refusal changes nothing
    const wantsRotation = /json/i.test(c.req.header('content-type') ?? '') && parseWith(refreshBody, await readJson(c)).rotate === true;
    const { project, presented, viaCookie } = await resolve.session(c);
    const { answer, longSession } = await account.refresh(project, presented, viaCookie || wantsRotation, resolve.frontendApiUrl(c), resolve.crossSite(c));
    if (longSession) setCookie(c, LONG_SESSION_COOKIE, longSession.token, resolve.cookie(c, longSession.maxAgeSeconds));
    return c.json(answer, 200);
  });

  app.get('/v2/me/sessions', async (c) => c.json(await account.sessions((await resolve.session(c)).session)));

  /**
   * Whether the long session is still live: 204, or 401 once it was ended (on another device, by
   * log-out, or as a stolen copy). The widget asks every 10 s while its page is visible, so that a
   * session ended elsewhere signs this browser out within seconds; it reads, signs and writes nothing.
   */
  app.get('/v2/me/sessions/current', async (c) => {
    await resolve.session(c);
    return c.body(null, 204);
  });

  app.delete('/v2/me/sessions', async (c) => c.json(await account.endOtherSessions((await resolve.session(c)).session)));

  app.delete('/v2/me/sessions/:sessionID', async (c) => c.json(await account.endSession((await resolve.session(c)).session, c.req.param('sessionID'))));

  app.post('/v2/me/logout', async (c) => {
    // a bearer and a cookie naming different sessions (a stale tab, a second sign-in) both end here
    const { sessions } = await resolve.liveSessions(c);
    for (const session of sessions) await account.logout(session);
    resolve.removeLongSessionCookie(c);
    return c.body(null, 204);
  });
}
