// /v2/auth/*: the process calls. Each route resolves headers, validates the body and hands over to
// the flow engine.
import type { Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { IDENTIFIER_TYPES, SOCIAL_PROVIDERS, VERIFICATIONS } from '../config/projectConfig.ts';
import { signupAnswersBody as signupFields } from '../config/signupFields.ts';
import type { FlowEngine, FlowOutcome } from '../flow/FlowEngine.ts';
import { LINK_ANSWERS } from '../flow/linkApproval.ts';
import { GO_PATH, SOCIAL_STATE_LIFETIME_MS } from '../flow/social.ts';
import { newSecretToken } from '../randomValues.ts';
import { LONG_SESSION_COOKIE } from '../session/Sessions.ts';
import type { AppEnv } from './AppEnv.ts';
import { giveBrowserCookie } from './browserCookie.ts';
import { escapeHtml, htmlDocument, sendHtml, sendRedirect } from './html.ts';
import { readJson, type RequestResolver } from './requestContext.ts';
import { anyObject, arr, bool, num, obj, oneOf, optional, parseWith, str } from '../schema.ts';

const identifierType = oneOf(IDENTIFIER_TYPES);
const verificationMethod = oneOf(VERIFICATIONS.filter((v) => v !== 'none') as ['email-otp', 'email-link', 'phone-otp']);

const clientInformation = obj({
  bluetoothAvailable: optional(bool()),
  clientEnvHandle: optional(str({ max: 512 })),
  visitorId: optional(str({ max: 512 })),
  canUsePasskeys: optional(bool()),
  isUserVerifyingPlatformAuthenticatorAvailable: optional(bool()),
  isConditionalMediationAvailable: optional(bool()),
  clientCapabilities: optional(anyObject()),
  javaScriptHighEntropy: optional(obj({ platform: str({ max: 100 }), platformVersion: str({ max: 100 }), mobile: bool() })),
  isNative: optional(bool()),
});

const schemas = {
  processInit: obj({
    clientInformation,
    passkeyAppendShown: optional(num()),
    optOutOfPasskeyAppendAfterHybrid: optional(bool()),
    preferredBlock: optional(str({ max: 100 })),
  }),
  signupInit: obj({
    identifiers: arr(obj({ type: identifierType, identifier: str({ max: 320 }) }), { max: 3 }),
    fullName: optional(str({ max: 1000 })),
    signupFields,
  }),
  loginInit: obj({ identifierValue: str({ max: 320 }), isPhone: bool() }),
  verifyStart: obj({ identifierType, verificationType: verificationMethod }),
  verifyFinish: obj({
    code: str({ max: 512 }),
    identifierType,
    verificationType: verificationMethod,
    isNewDevice: optional(bool()),
  }),
  identifierUpdate: obj({ identifierType, value: str({ max: 320 }) }),
  phoneCollect: obj({ phone: str({ max: 64 }) }),
  usernameCollect: obj({ username: str({ max: 320 }) }),
  passkeyStart: obj({ clientInformation: optional(anyObject()) }),
  signedChallenge: obj({ signedChallenge: str({ min: 1, max: 100_000 }) }),
  event: obj({ eventType: str({ min: 1, max: 100 }), challenge: optional(str({ max: 100_000 })) }),
  socialStart: obj({
    providerType: oneOf(SOCIAL_PROVIDERS),
    redirectUrl: str({ max: 2000 }),
    authType: oneOf(['signup', 'login'] as const),
    signupFields,
  }),
  // across sites: the result secret the callback returned to the page with (flow/social.ts)
  socialFinish: obj({ result: optional(str({ max: 100 })) }),
  // an e-mail link's page: the process the link names (its id) and the link's token
  emailLink: obj({ process: str({ min: 1, max: 64 }), token: str({ min: 1, max: 512 }) }),
  anyBody: anyObject(),
};

export function registerAuthRoutes(app: Hono<AppEnv>, engine: FlowEngine, resolve: RequestResolver): void {
  function reply(c: Context<AppEnv>, outcome: FlowOutcome) {
    if (outcome.longSession) {
      setCookie(c, LONG_SESSION_COOKIE, outcome.longSession.token, resolve.cookie(c, outcome.longSession.maxAgeSeconds));
    }
    return c.json(outcome.response);
  }

  app.post('/v2/auth/process/init', async (c) => {
    // a stale X-Corbado-Process-ID header is ignored here; a fresh visitor's page sends this call without a
    // preflight (the project in the query, JSON as text/plain): the Origin is checked before anything else
    const project = await resolve.project(c, { simple: true });
    const body = parseWith(schemas.processInit, await readJson(c, { textPlain: true }));
    const result = await engine.initProcess(
      {
        project,
        frontendApiUrl: resolve.frontendApiUrl(c),
        userAgent: c.req.header('user-agent'),
        clientIp: resolve.clientIp(c),
        language: resolve.language(c, project),
        browserCookie: giveBrowserCookie(c, resolve.cookie(c, project.processLifetimeSeconds)),
      },
      body,
    );
    return c.json({
      token: result.token,
      expiresAt: result.expiresAt,
      processResponse: result.response,
      ...(body.clientInformation.clientEnvHandle ? {} : { newClientEnvHandle: `ceh-${newSecretToken()}` }),
    });
  });

  app.get('/v2/auth/process', async (c) => reply(c, await engine.getProcess(await resolve.flowRequest(c), c.req.query('preferredBlock'))));
  app.post('/v2/auth/process/reset', async (c) => reply(c, await engine.resetProcess(await resolve.flowRequest(c))));
  app.post('/v2/auth/process/complete', async (c) => reply(c, await engine.completeProcess(await resolve.flowRequest(c))));
  app.post('/v2/auth/block/skip', async (c) => reply(c, await engine.skipBlock(await resolve.flowRequest(c))));

  app.post('/v2/auth/events', async (c) => {
    await engine.requireProcess(await resolve.flowRequest(c));
    parseWith(schemas.event, await readJson(c));
    return c.body(null, 204);
  });

  app.post('/v2/auth/signup/init', async (c) => {
    const call = await resolve.flowRequest(c);
    return reply(c, await engine.signupInit(call, parseWith(schemas.signupInit, await readJson(c))));
  });

  app.post('/v2/auth/login/init', async (c) => {
    const call = await resolve.flowRequest(c);
    return reply(c, await engine.loginInit(call, parseWith(schemas.loginInit, await readJson(c))));
  });

  app.post('/v2/auth/identifier/verify/start', async (c) => {
    const call = await resolve.flowRequest(c);
    return reply(c, await engine.verifyStart(call, parseWith(schemas.verifyStart, await readJson(c))));
  });

  app.post('/v2/auth/identifier/verify/finish', async (c) => {
    const call = await resolve.flowRequest(c);
    const body = parseWith(schemas.verifyFinish, await readJson(c));
    if (call.fromEmailLink && body.verificationType === 'email-link') {
      // web-js 3's link page: it names the link's process (its id) in X-Corbado-Temp-Process-ID
      return reply(c, await engine.openLink({ ...call, processToken: '' }, { process: call.processToken, token: body.code }));
    }
    return reply(c, await engine.verifyFinish(call, body));
  });

  // The page an e-mail link opens (flow/linkApproval.ts): `open` on load, the rest on a click.
  app.post('/v2/auth/email-link/open', async (c) => {
    const call = await resolve.linkRequest(c);
    return reply(c, await engine.openLink(call, parseWith(schemas.emailLink, await readJson(c))));
  });
  for (const answer of LINK_ANSWERS) {
    app.post(`/v2/auth/email-link/${answer}`, async (c) => {
      const call = await resolve.linkRequest(c);
      return reply(c, await engine.answerLink(call, parseWith(schemas.emailLink, await readJson(c)), answer));
    });
  }

  app.get('/v2/auth/identifier/verify/status', async (c) => reply(c, await engine.verificationStatus(await resolve.flowRequest(c))));

  app.post('/v2/auth/identifier/update', async (c) => {
    const call = await resolve.flowRequest(c);
    return reply(c, await engine.updateIdentifier(call, parseWith(schemas.identifierUpdate, await readJson(c))));
  });

  app.post('/v2/auth/phone/collect', async (c) => {
    const call = await resolve.flowRequest(c);
    return reply(c, await engine.collect(call, 'phone', parseWith(schemas.phoneCollect, await readJson(c)).phone));
  });

  app.post('/v2/auth/username/collect', async (c) => {
    const call = await resolve.flowRequest(c);
    return reply(c, await engine.collect(call, 'username', parseWith(schemas.usernameCollect, await readJson(c)).username));
  });

  app.post('/v2/auth/passkey/append/start', async (c) => {
    const call = await resolve.flowRequest(c);
    parseWith(schemas.passkeyStart, await readJson(c));
    return reply(c, await engine.passkeyAppendStart(call));
  });

  app.post('/v2/auth/passkey/append/finish', async (c) => {
    const call = await resolve.flowRequest(c);
    const body = parseWith(schemas.signedChallenge, await readJson(c));
    return reply(c, await engine.passkeyAppendFinish(call, body.signedChallenge));
  });

  app.post('/v2/auth/passkey/login/start', async (c) => {
    const call = await resolve.flowRequest(c);
    parseWith(schemas.anyBody, await readJson(c));
    return reply(c, await engine.passkeyLoginStart(call));
  });

  app.post('/v2/auth/passkey/login/finish', async (c) => {
    const call = await resolve.flowRequest(c);
    const body = parseWith(schemas.signedChallenge, await readJson(c));
    return reply(c, await engine.passkeyLoginFinish(call, body.signedChallenge));
  });

  app.post('/v2/auth/passkey/mediation/finish', async (c) => {
    const call = await resolve.flowRequest(c);
    const body = parseWith(schemas.signedChallenge, await readJson(c));
    return reply(c, await engine.mediationFinish(call, body.signedChallenge));
  });

  // Social sign-in (CONTRACT §8): start hands out the provider URL, the provider sends the browser to
  // the callback, which redirects back to the app; finish then logs in or signs up.
  app.post('/v2/auth/social/verify/start', async (c) => {
    const call = await resolve.flowRequest(c);
    const body = parseWith(schemas.socialStart, await readJson(c));
    // the browser's own secret, kept as long as a round trip may take: its callback must bring it back
    const browser = socialBrowser(c) ?? newSecretToken();
    const outcome = await engine.socialStart(call, body, browser);
    setCookie(c, SOCIAL_BROWSER_COOKIE, browser, resolve.cookie(c, SOCIAL_STATE_LIFETIME_MS / 1000, SOCIAL_COOKIE_PATH));
    return reply(c, outcome);
  });

  app.get('/v2/auth/social/verify/callback', async (c) => {
    const outcome = await engine.socialCallback(
      {
        state: c.req.query('state'),
        code: c.req.query('code'),
        error: c.req.query('error'),
        iss: c.req.query('iss'),
      },
      socialBrowser(c),
    );
    if ('redirect' in outcome) return sendRedirect(c, outcome.redirect);
    return sendHtml(c, callbackErrorPage(outcome.page), 400);
  });

  // across sites: the page navigates here first, so that the binding cookie is the API's own (flow/social.ts)
  app.get(GO_PATH, async (c) => {
    const go = await engine.socialGo(c.req.query('process'), c.req.query('browser'));
    if (!go) {
      const page = { title: 'This sign-in cannot continue', message: 'This sign-in is unknown, has expired or was already started. Please start it again.' };
      return sendHtml(c, callbackErrorPage(page), 400);
    }
    // first-party (a top-level navigation): Lax suffices, and the provider's redirect to the callback brings it back
    setCookie(c, SOCIAL_BROWSER_COOKIE, go.browser, { httpOnly: true, sameSite: 'Lax', path: SOCIAL_COOKIE_PATH, maxAge: SOCIAL_STATE_LIFETIME_MS / 1000, secure: resolve.secureCookies(c) });
    return sendRedirect(c, go.redirect);
  });

  app.post('/v2/auth/social/verify/finish', async (c) => {
    const call = await resolve.flowRequest(c);
    const body = parseWith(schemas.socialFinish, await readJson(c));
    return reply(c, await engine.socialFinish(call, body.result));
  });
}

/**
 * The cookie that ties a social sign-in to the browser that started it (set by start on this API's
 * origin, sent back with the provider's top-level redirect to the callback: SameSite=Lax suffices).
 */
export const SOCIAL_BROWSER_COOKIE = 'cbo_social_browser';
const SOCIAL_COOKIE_PATH = '/v2/auth/social/';

function socialBrowser(c: Context<AppEnv>): string | undefined {
  const value = getCookie(c, SOCIAL_BROWSER_COOKIE);
  return value && /^[\w-]{43}$/.test(value) ? value : undefined;
}

function callbackErrorPage(page: { title: string; message: string; backUrl?: string }): string {
  const css = `body{font:16px system-ui,sans-serif;background:#f5f5f7;color:#1d1d1f;display:flex;justify-content:center;padding:3rem 1rem;margin:0}
main{background:#fff;max-width:28rem;padding:2rem;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.12)}h1{font-size:1.3rem;margin-top:0}a{color:#0a58ca}`;
  const back = page.backUrl ? `<p><a href="${escapeHtml(page.backUrl)}">Back to the app</a></p>` : '';
  return htmlDocument(page.title, `<main><h1>${escapeHtml(page.title)}</h1><p role="alert">${escapeHtml(page.message)}</p>${back}</main>`, css);
}
