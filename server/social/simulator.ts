// A local stand-in for Google, Microsoft and GitHub: an OAuth 2.0 authorization-code provider under
// /_dev/oauth/<provider>/. It shows a consent page where any e-mail address and name can be entered,
// issues single-use codes (5 minutes, kept hashed in memory) bound to client, redirect URI and profile,
// exchanges them for bearer tokens and answers userinfo. The server's social code talks to it over
// HTTP exactly as it would talk to a real provider.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { SOCIAL_PROVIDERS, type SocialProvider } from '../config/projectConfig.ts';
import { ApiError } from '../ApiError.ts';
import type { AppEnv } from '../http/AppEnv.ts';
import { escapeHtml, htmlDocument, sendHtml, sendRedirect } from '../http/html.ts';
import { readForm } from '../http/requestBody.ts';
import { SIMULATOR_CLIENT_SECRET } from './providerClient.ts';

export const CODE_LIFETIME_MS = 5 * 60_000;
export const TOKEN_LIFETIME_SECONDS = 3600;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface ProviderLook {
  name: string;
  sample: { email: string; name: string };
  css: string;
}

const BASE_CSS = `*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem}
main{width:100%;max-width:26rem;padding:2rem;border-radius:8px}
h1{font-size:1.35rem;margin:.25rem 0 .5rem}p{margin:.5rem 0;line-height:1.4}
.sim{display:inline-block;font-size:.75rem;font-weight:600;letter-spacing:.04em;text-transform:uppercase;padding:.2rem .5rem;border-radius:4px}
.brand{font-weight:700;font-size:1.1rem;margin-top:.75rem}
label{display:block;font-size:.85rem;font-weight:600;margin:1rem 0 .3rem}
input[type=email],input[type=text]{width:100%;font:inherit;padding:.6rem .7rem;border-radius:4px}
.scopes{font-size:.85rem;margin:.75rem 0 0;padding-left:1.2rem}
.error{padding:.6rem .8rem;border-radius:4px;margin-top:1rem}
.actions{display:flex;gap:.75rem;justify-content:flex-end;margin-top:1.5rem}
button{font:inherit;font-weight:600;padding:.55rem 1.2rem;cursor:pointer}
small{display:block;margin-top:1.25rem;font-size:.75rem}code{word-break:break-all}`;

const LOOKS: Record<SocialProvider, ProviderLook> = {
  google: {
    name: 'Google',
    sample: { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' },
    css: `body{background:#f0f4f9;font-family:Roboto,Arial,sans-serif;color:#1f1f1f}main{background:#fff;border-radius:24px}
.sim{background:#e8f0fe;color:#0b57d0}.brand{color:#0b57d0}input{border:1px solid #747775}input:focus{outline:2px solid #0b57d0}
button{border-radius:20px;border:0}.primary{background:#0b57d0;color:#fff}.secondary{background:transparent;color:#0b57d0}
.error{background:#fce8e6;color:#b3261e}small{color:#444746}`,
  },
  microsoft: {
    name: 'Microsoft',
    sample: { email: 'grace.hopper@example.com', name: 'Grace Hopper' },
    css: `body{background:#f2f2f2;font-family:"Segoe UI",Tahoma,sans-serif;color:#1b1b1b}main{background:#fff;border-radius:0;box-shadow:0 2px 6px rgba(0,0,0,.2)}
.sim{background:#fff4ce;color:#6b4f00}.brand{color:#5e5e5e}input{border:0;border-bottom:1px solid #666;border-radius:0}input:focus{outline:none;border-bottom:2px solid #0067b8}
button{border-radius:0;border:0}.primary{background:#0067b8;color:#fff}.secondary{background:#ccc;color:#000}
.error{background:#fde7e9;color:#a80000}small{color:#605e5c}`,
  },
  github: {
    name: 'GitHub',
    sample: { email: 'alan.turing@example.com', name: 'Alan Turing' },
    css: `body{background:#f6f8fa;font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328}main{background:#fff;border:1px solid #d1d9e0;border-radius:6px}
.sim{background:#24292f;color:#fff}.brand{color:#24292f}input{border:1px solid #d1d9e0;border-radius:6px}input:focus{outline:2px solid #0969da}
button{border-radius:6px;border:1px solid rgba(31,35,40,.15)}.primary{background:#1f883d;color:#fff}.secondary{background:#f6f8fa;color:#24292f}
.error{background:#ffebe9;color:#d1242f;border:1px solid #ff818266}small{color:#59636e}`,
  },
};

interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  scope: string;
}

interface CodeGrant {
  provider: SocialProvider;
  clientId: string;
  redirectUri: string;
  email: string;
  name: string;
  expiresAt: number;
  usedAt: number | null;
  /** hashes of the access tokens issued for this code (revoked if the code is replayed) */
  tokenHashes: string[];
}

interface TokenGrant {
  provider: SocialProvider;
  email: string;
  name: string;
  expiresAt: number;
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function isProvider(value: string): value is SocialProvider {
  return (SOCIAL_PROVIDERS as readonly string[]).includes(value);
}

/** A stable, provider-typical user id per provider and e-mail address. */
export function simulatedSubject(provider: SocialProvider, email: string): string {
  const hex = sha256(`${provider}:${email.trim().toLowerCase()}`);
  if (provider === 'github') return String((parseInt(hex.slice(0, 8), 16) % 900_000_000) + 100_000_000);
  if (provider === 'microsoft') return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  return `1${BigInt(`0x${hex.slice(0, 16)}`).toString().padStart(20, '0')}`;
}

type Validated<T> = { ok: true; value: T } | { ok: false; error: string; description: string };

/** Checks the authorization request like a provider does before it would ever redirect. */
function readAuthorizeParams(get: (name: string) => string | undefined): Validated<AuthorizeParams> {
  const fail = (error: string, description: string): Validated<AuthorizeParams> => ({ ok: false, error, description });
  const clientId = get('client_id')?.trim();
  if (!clientId) return fail('invalid_request', 'The client_id parameter is missing.');
  if (clientId.length > 200) return fail('invalid_client', 'The client_id is not valid.');
  const redirectUri = get('redirect_uri');
  if (!redirectUri) return fail('invalid_request', 'The redirect_uri parameter is missing.');
  let parsed: URL;
  try {
    parsed = new URL(redirectUri);
  } catch {
    return fail('invalid_request', 'The redirect_uri is not an absolute URL.');
  }
  if (redirectUri.length > 2000 || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hash || parsed.username || parsed.password) {
    return fail('invalid_request', 'The redirect_uri must be an http(s) URL without a fragment or credentials.');
  }
  const responseType = get('response_type');
  if (!responseType) return fail('invalid_request', 'The response_type parameter is missing.');
  if (responseType !== 'code') return fail('unsupported_response_type', `The response_type "${responseType.slice(0, 40)}" is not supported; use "code".`);
  const state = get('state');
  if (state !== undefined && state.length > 1000) return fail('invalid_request', 'The state parameter is too long.');
  const scope = (get('scope') ?? 'openid').trim() || 'openid';
  if (scope.length > 500) return fail('invalid_scope', 'The scope parameter is too long.');
  return { ok: true, value: { clientId, redirectUri, state: state || undefined, scope } };
}

function withParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

export interface SimulatorOptions {
  now: () => number;
  /** the client secret every client must present at the token endpoint */
  clientSecret?: string;
}

export function registerOAuthSimulator(app: Hono<AppEnv>, options: SimulatorOptions): void {
  const { now } = options;
  const clientSecret = options.clientSecret ?? SIMULATOR_CLIENT_SECRET;
  const consentKey = randomBytes(32);
  const codes = new Map<string, CodeGrant>();
  const tokens = new Map<string, TokenGrant>();

  function sweep(): void {
    const t = now();
    for (const [key, grant] of codes) if (grant.expiresAt <= t - CODE_LIFETIME_MS) codes.delete(key);
    for (const [key, grant] of tokens) if (grant.expiresAt <= t) tokens.delete(key);
  }

  /** Binds the consent form to the request it was shown for. */
  function consentToken(provider: SocialProvider, p: AuthorizeParams): string {
    return createHmac('sha256', consentKey)
      .update(JSON.stringify([provider, p.clientId, p.redirectUri, p.state ?? '', p.scope]))
      .digest('base64url');
  }

  function providerOf(c: Context<AppEnv>): SocialProvider {
    const provider = c.req.param('provider') ?? '';
    if (!isProvider(provider)) throw ApiError.notFound(`No simulated OAuth provider "${provider.slice(0, 40)}"`);
    return provider;
  }

  function errorPage(c: Context<AppEnv>, provider: SocialProvider, error: string, description: string): Response {
    const look = LOOKS[provider];
    const body = `<main>
<span class="sim">Local simulator</span>
<div class="brand">${escapeHtml(look.name)}</div>
<h1>This sign-in request is not valid</h1>
<p class="error" role="alert"><strong>${escapeHtml(error)}</strong>: ${escapeHtml(description)}</p>
<p>The app that sent you here made a mistake. You were not redirected back to it.</p>
</main>`;
    return sendHtml(c, htmlDocument(`${look.name} sign-in error (local simulator)`, body, BASE_CSS + look.css), 400);
  }

  function consentPage(
    c: Context<AppEnv>,
    provider: SocialProvider,
    p: AuthorizeParams,
    values: { email: string; name: string },
    problem?: string,
  ): Response {
    const look = LOOKS[provider];
    const hidden = { client_id: p.clientId, redirect_uri: p.redirectUri, response_type: 'code', scope: p.scope, state: p.state, consent: consentToken(provider, p) };
    const hiddenInputs = Object.entries(hidden)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v!)}">`)
      .join('\n');
    const scopes = p.scope
      .split(/\s+/)
      .filter(Boolean)
      .map((s) => `<li><code>${escapeHtml(s)}</code></li>`)
      .join('');
    const body = `<main>
<span class="sim">Local simulator</span>
<div class="brand">${escapeHtml(look.name)}</div>
<h1>Sign in with ${escapeHtml(look.name)}</h1>
<p><strong>${escapeHtml(p.clientId)}</strong> wants to know who you are. It will receive your e-mail address and name.</p>
<ul class="scopes" aria-label="Requested scopes">${scopes}</ul>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/_dev/oauth/${provider}/authorize">
${hiddenInputs}
<label for="email">Email</label>
<input id="email" name="email" type="email" required maxlength="254" autocomplete="off" value="${escapeHtml(values.email)}">
<label for="name">Full name</label>
<input id="name" name="name" type="text" maxlength="100" autocomplete="off" value="${escapeHtml(values.name)}">
<div class="actions">
<button class="secondary" type="submit" name="action" value="deny" formnovalidate>Cancel</button>
<button class="primary" type="submit" name="action" value="allow">Continue</button>
</div>
</form>
<small>This page stands in for ${escapeHtml(look.name)} on this machine; nothing is sent anywhere else.
You will return to <code>${escapeHtml(new URL(p.redirectUri).origin)}</code>.</small>
</main>`;
    return sendHtml(c, htmlDocument(`Sign in with ${look.name} (local simulator)`, body, BASE_CSS + look.css), problem ? 400 : 200);
  }

  app.get('/_dev/oauth/:provider/authorize', (c) => {
    const provider = providerOf(c);
    const params = readAuthorizeParams((name) => c.req.query(name));
    if (!params.ok) return errorPage(c, provider, params.error, params.description);
    return consentPage(c, provider, params.value, LOOKS[provider].sample);
  });

  app.post('/_dev/oauth/:provider/authorize', async (c) => {
    const provider = providerOf(c);
    const form: Record<string, string> = await readForm(c);
    const field = (name: string): string | undefined => form[name];
    const params = readAuthorizeParams(field);
    if (!params.ok) return errorPage(c, provider, params.error, params.description);
    const p = params.value;
    const expected = Buffer.from(consentToken(provider, p));
    const given = Buffer.from(field('consent') ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return errorPage(c, provider, 'invalid_request', 'The consent form is not valid for this request. Start the sign-in again.');
    }
    if (field('action') !== 'allow') {
      return sendRedirect(c, withParams(p.redirectUri, { error: 'access_denied', error_description: 'The user cancelled the sign-in.', state: p.state }));
    }
    const email = (field('email') ?? '').trim();
    const name = (field('name') ?? '').trim();
    if (!EMAIL_PATTERN.test(email) || email.length > 254) {
      return consentPage(c, provider, p, { email, name }, 'Enter a valid e-mail address.');
    }
    if (name.length > 100) return consentPage(c, provider, p, { email, name: name.slice(0, 100) }, 'The name can have at most 100 characters.');
    sweep();
    const code = randomBytes(32).toString('base64url');
    codes.set(sha256(code), {
      provider,
      clientId: p.clientId,
      redirectUri: p.redirectUri,
      email,
      name,
      expiresAt: now() + CODE_LIFETIME_MS,
      usedAt: null,
      tokenHashes: [],
    });
    return sendRedirect(c, withParams(p.redirectUri, { code, state: p.state }));
  });

  app.post('/_dev/oauth/:provider/token', async (c) => {
    const provider = providerOf(c);
    const oauthError = (status: 400 | 401, error: string, description: string) =>
      c.json({ error, error_description: description }, status, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    const type = c.req.header('content-type') ?? '';
    if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
    }
    const form: Record<string, string> = await readForm(c);
    const field = (name: string): string | undefined => form[name];
    // client authentication: client_secret_post, or client_secret_basic
    let clientId = field('client_id');
    let secret = field('client_secret');
    const basic = /^Basic\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString();
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        clientId = decodeURIComponent(decoded.slice(0, colon));
        secret = decodeURIComponent(decoded.slice(colon + 1));
      }
    }
    const grantType = field('grant_type');
    if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is missing.');
    if (grantType !== 'authorization_code') return oauthError(400, 'unsupported_grant_type', 'Only authorization_code is supported.');
    if (!clientId || secret === undefined) return oauthError(401, 'invalid_client', 'Client authentication is missing.');
    const secretHash = Buffer.from(sha256(secret), 'hex');
    if (!timingSafeEqual(secretHash, Buffer.from(sha256(clientSecret), 'hex'))) {
      return oauthError(401, 'invalid_client', 'Client authentication failed.');
    }
    const code = field('code');
    const redirectUri = field('redirect_uri');
    if (!code || !redirectUri) return oauthError(400, 'invalid_request', 'code and redirect_uri are required.');
    const grant = codes.get(sha256(code));
    const t = now();
    if (!grant) return oauthError(400, 'invalid_grant', 'The authorization code is unknown.');
    if (grant.usedAt !== null) {
      // a replayed code: refuse it and revoke what it was exchanged for (RFC 6749 §4.1.2)
      for (const hash of grant.tokenHashes) tokens.delete(hash);
      return oauthError(400, 'invalid_grant', 'The authorization code was already used.');
    }
    if (grant.expiresAt <= t) return oauthError(400, 'invalid_grant', 'The authorization code has expired.');
    if (grant.provider !== provider || grant.clientId !== clientId || grant.redirectUri !== redirectUri) {
      return oauthError(400, 'invalid_grant', 'The authorization code was issued for another client or redirect_uri.');
    }
    grant.usedAt = t;
    sweep();
    const accessToken = randomBytes(32).toString('base64url');
    const tokenHash = sha256(accessToken);
    tokens.set(tokenHash, { provider, email: grant.email, name: grant.name, expiresAt: t + TOKEN_LIFETIME_SECONDS * 1000 });
    grant.tokenHashes.push(tokenHash);
    return c.json(
      { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS, scope: 'openid email profile' },
      200,
      { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
    );
  });

  app.get('/_dev/oauth/:provider/userinfo', (c) => {
    const provider = providerOf(c);
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const grant = token ? tokens.get(sha256(token)) : undefined;
    if (!grant || grant.provider !== provider || grant.expiresAt <= now()) {
      return c.json({ error: 'invalid_token', error_description: 'The access token is missing, unknown or expired.' }, 401, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
        'Cache-Control': 'no-store',
      });
    }
    return c.json(
      { sub: simulatedSubject(provider, grant.email), email: grant.email, email_verified: true, name: grant.name },
      200,
      { 'Cache-Control': 'no-store' },
    );
  });
}
