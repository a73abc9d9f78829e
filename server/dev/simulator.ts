// Local stand-ins for Google, Microsoft and GitHub under /_dev/oauth/<provider>/, each shaped like the
// real provider as its public documentation describes it, so that the server's client meets the same
// quirks it meets in production (each quirk names its page below). A consent page takes any address and
// name, what the provider says about the address, and (for tests) a wrong answer to give. Codes are
// single-use (5 minutes, kept hashed in memory) and bound to client, redirect URI, PKCE challenge and
// nonce; ID tokens are RS256-signed with a key made at start-up and published as a JWKS.
//
// Google   https://developers.google.com/identity/openid-connect/openid-connect
//   discovery at <issuer>/.well-known/openid-configuration; authorize /o/oauth2/v2/auth; token /token;
//   userinfo /v1/userinfo; keys /oauth2/v3/certs. The ID token carries `email_verified`.
// Microsoft https://learn.microsoft.com/entra/identity-platform/v2-protocols-oidc
//   v2.0 endpoints per tenant: /<tenant>/v2.0/.well-known/openid-configuration, /<tenant>/oauth2/v2.0/
//   authorize and token, /<tenant>/discovery/v2.0/keys; userinfo is Graph's /oidc/userinfo. `common`,
//   `organizations` and `consumers` publish the issuer as a template, `…/{tenantid}/v2.0`. ID tokens
//   (https://learn.microsoft.com/entra/identity-platform/id-token-claims-reference) carry `tid`, `oid`,
//   a pairwise `sub` (per client id), `preferred_username`, the optional `email` and `xms_edov`, and no
//   `email_verified`. A cancel comes back as error=access_denied with error_subcode=cancel.
// GitHub   https://docs.github.com/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
//   /login/oauth/authorize and /login/oauth/access_token, no OpenID Connect; the token answer is
//   form-encoded unless JSON is asked for, and an error is answered with HTTP 200. The REST API
//   (https://docs.github.com/rest/users/users, /rest/users/emails) needs a User-Agent; /user has no
//   verified address (its `email` is the public one, here null); /user/emails lists the addresses with
//   `primary` and `verified`, and answers 404 to a token without the user:email (or user) scope.
import { createHash, createHmac, createSign, generateKeyPairSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { SocialProvider } from '../config/projectConfig.ts';
import type { AppEnv } from '../http/AppEnv.ts';
import { sendRedirect } from '../http/html.ts';
import { readForm } from '../http/requestBody.ts';
import { SIMULATOR_CLIENT_SECRET } from '../social/providerSettings.ts';
import { consentPage, LOOKS, simulatorErrorPage, type ConsentValues } from './simulatorPages.ts';

export const CODE_LIFETIME_MS = 5 * 60_000;
export const TOKEN_LIFETIME_SECONDS = 3599;
/** Microsoft's tenant of personal accounts (id-token-claims-reference, `tid`). */
export const MICROSOFT_CONSUMER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';
export const MICROSOFT_ORGANIZATIONS_TENANT = '4b1c8e3a-2d6f-4e0b-9a75-3c5f2e8d1a90';
/** A tenant no simulated person belongs to: the `iss` of a token that names another tenant than its `tid`. */
const OTHER_TENANT = '0f0e0d0c-0b0a-4908-8706-050403020100';
const MICROSOFT_MULTI_TENANT = new Set(['common', 'organizations', 'consumers']);
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** An authorization request as the simulator accepted it. */
interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  state?: string;
  scope: string;
  nonce?: string;
  codeChallenge?: string;
  codeChallengeMethod?: 'plain' | 'S256';
}

interface Person {
  email: string;
  name: string;
  /** Google: email_verified; Microsoft: xms_edov; GitHub: the primary address's `verified` */
  vouched: boolean;
}

interface CodeGrant {
  provider: SocialProvider;
  tenant: string;
  request: AuthorizeRequest;
  person: Person;
  fault: string;
  expiresAt: number;
  usedAt: number | null;
  /** hashes of the access tokens issued for this code (revoked if the code is replayed, RFC 6749 §4.1.2) */
  tokenHashes: string[];
}

interface TokenGrant {
  provider: SocialProvider;
  clientId: string;
  scope: string;
  person: Person;
  expiresAt: number;
}

type Validated<T> = { ok: true; value: T } | { ok: false; error: string; description: string };

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Stable, provider-typical ids of a simulated person (by provider and lower-cased address). */
export function simulatedIds(provider: SocialProvider, email: string): { numeric: string; guid: string } {
  const hex = sha256(`${provider}:${email.trim().toLowerCase()}`);
  return {
    numeric: provider === 'github' ? String((parseInt(hex.slice(0, 8), 16) % 900_000_000) + 100_000_000) : `1${BigInt(`0x${hex.slice(0, 16)}`).toString().padStart(20, '0')}`,
    guid: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`,
  };
}

/** Microsoft's `sub`: pairwise, the same person has another one under another client id. */
export function microsoftPairwiseSubject(clientId: string, objectId: string): string {
  return createHash('sha256').update(`${clientId}:${objectId}`).digest('base64url').slice(0, 43);
}

/** The `tid` of a person signing in at a tenant path: the tenant itself, or one for the multi-tenant names. */
function tenantOf(path: string): string {
  if (path === 'organizations') return MICROSOFT_ORGANIZATIONS_TENANT;
  return MICROSOFT_MULTI_TENANT.has(path) ? MICROSOFT_CONSUMER_TENANT : path.toLowerCase();
}

/**
 * The tenant in the issuer a tenant path's discovery publishes: `common` and `organizations` a template
 * (each token names its own tenant, `…/{tenantid}/v2.0`), `consumers` the consumer tenant's id, a tenant
 * id itself.
 */
function discoveredTenant(path: string): string {
  if (path === 'common' || path === 'organizations') return '{tenantid}';
  return path === 'consumers' ? MICROSOFT_CONSUMER_TENANT : path;
}

/** Checks an authorization request as the provider does before it would ever redirect. */
function readAuthorize(provider: SocialProvider, get: (name: string) => string | undefined): Validated<AuthorizeRequest> {
  const fail = (error: string, description: string): Validated<AuthorizeRequest> => ({ ok: false, error, description });
  const clientId = get('client_id')?.trim();
  if (!clientId) return fail('invalid_request', 'The client_id parameter is missing.');
  if (clientId.length > 200) return fail('invalid_client', 'The client_id is not valid.');
  // GitHub falls back to the app's registered callback; the simulator knows no registration and needs one
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
  // GitHub's authorize has no response_type; Google and Microsoft require `code` for this flow
  if (provider !== 'github') {
    const responseType = get('response_type');
    if (!responseType) return fail('invalid_request', 'The response_type parameter is missing.');
    if (responseType !== 'code') return fail('unsupported_response_type', `The response_type "${responseType.slice(0, 40)}" is not supported; use "code".`);
  }
  const state = get('state');
  if (state !== undefined && state.length > 1000) return fail('invalid_request', 'The state parameter is too long.');
  const scope = (get('scope') ?? '').trim();
  if (scope.length > 500) return fail('invalid_scope', 'The scope parameter is too long.');
  if (provider !== 'github' && !scope.split(/\s+/).includes('openid')) return fail('invalid_scope', 'The scope must include openid.');
  const nonce = get('nonce');
  if (nonce !== undefined && nonce.length > 500) return fail('invalid_request', 'The nonce parameter is too long.');
  const codeChallenge = get('code_challenge');
  const method = get('code_challenge_method') ?? (codeChallenge ? 'plain' : undefined);
  if (codeChallenge !== undefined && !PKCE_VALUE.test(codeChallenge)) return fail('invalid_request', 'The code_challenge is not valid.');
  // GitHub supports S256 only; Google and Microsoft also plain
  if (method !== undefined && method !== 'S256' && (provider === 'github' || method !== 'plain')) {
    return fail('invalid_request', `The code_challenge_method "${method.slice(0, 20)}" is not supported.`);
  }
  return {
    ok: true,
    value: {
      clientId,
      redirectUri,
      scope,
      ...(state ? { state } : {}),
      ...(nonce ? { nonce } : {}),
      ...(codeChallenge ? { codeChallenge, codeChallengeMethod: method as 'plain' | 'S256' } : {}),
    },
  };
}

function withParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

export interface SimulatorOptions {
  now: () => number;
  /** the client secret every client must present at the token endpoint, unless `clients` names its own */
  clientSecret?: string;
  /** client ids with a secret of their own (tests of per-project credentials) */
  clients?: Record<string, string>;
  /**
   * The API's public URL (PUBLIC_URL): the stand-ins announce their issuer and endpoints under it, as
   * the API resolves their paths, rather than under the address a request came to (behind a TLS proxy
   * that is http://… and discovery fails with "issuer does not match").
   */
  publicUrl?: string;
}

export function registerOAuthSimulator(app: Hono<AppEnv>, options: SimulatorOptions): void {
  const { now } = options;
  const defaultSecret = options.clientSecret ?? SIMULATOR_CLIENT_SECRET;
  const consentKey = randomBytes(32);
  const codes = new Map<string, CodeGrant>();
  const tokens = new Map<string, TokenGrant>();
  // made at the first ID token or key request, not at start-up: an RSA key takes a while to find, and
  // most servers (tests) never sign in with Google or Microsoft
  let signingKey: { privateKey: KeyObject; kid: string; jwks: { keys: object[] } } | undefined;
  const key = () => {
    if (signingKey) return signingKey;
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = randomBytes(8).toString('hex');
    signingKey = { privateKey, kid, jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }] } };
    return signingKey;
  };

  function sweep(): void {
    const t = now();
    for (const [key, grant] of codes) if (grant.expiresAt <= t - CODE_LIFETIME_MS) codes.delete(key);
    for (const [key, grant] of tokens) if (grant.expiresAt <= t) tokens.delete(key);
  }

  /** Binds the consent form to the request (and tenant) it was shown for. */
  function consentToken(provider: SocialProvider, tenant: string, r: AuthorizeRequest): string {
    return createHmac('sha256', consentKey).update(JSON.stringify([provider, tenant, r])).digest('base64url');
  }

  const originOf = (c: Context<AppEnv>) => options.publicUrl ?? new URL(c.req.url).origin;
  const base = (c: Context<AppEnv>, provider: SocialProvider) => `${originOf(c)}/_dev/oauth/${provider}`;

  // --- authorization: the consent page and its answer --------------------------------------------

  function authorize(provider: SocialProvider, tenantOfRequest: (c: Context<AppEnv>) => string | undefined) {
    const show = (c: Context<AppEnv>) => {
      const tenant = tenantOfRequest(c);
      if (tenant === undefined) return simulatorErrorPage(c, provider, 'invalid_tenant', 'The tenant is not a tenant id, common, organizations or consumers.');
      const read = readAuthorize(provider, (name) => c.req.query(name));
      if (!read.ok) return simulatorErrorPage(c, provider, read.error, read.description);
      return page(c, provider, tenant, read.value, { ...LOOKS[provider].sample, vouched: LOOKS[provider].vouch.checked, fault: '' });
    };
    const answer = async (c: Context<AppEnv>) => {
      const tenant = tenantOfRequest(c);
      if (tenant === undefined) return simulatorErrorPage(c, provider, 'invalid_tenant', 'The tenant is not valid.');
      const form: Record<string, string> = await readForm(c);
      const read = readAuthorize(provider, (name) => form[name]);
      if (!read.ok) return simulatorErrorPage(c, provider, read.error, read.description);
      const r = read.value;
      const expected = Buffer.from(consentToken(provider, tenant, r));
      const given = Buffer.from(form.consent ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return simulatorErrorPage(c, provider, 'invalid_request', 'The consent form is not valid for this request. Start the sign-in again.');
      }
      if (form.action !== 'allow') {
        // Microsoft adds error_subcode=cancel (v2-oauth2-auth-code-flow, "Error response")
        const cancel = provider === 'microsoft' ? { error_subcode: 'cancel' } : {};
        return sendRedirect(c, withParams(r.redirectUri, { error: 'access_denied', ...cancel, error_description: 'The user cancelled the sign-in.', state: r.state }));
      }
      const values: ConsentValues = {
        email: (form.email ?? '').trim(),
        name: (form.name ?? '').trim(),
        vouched: form.vouched === 'yes',
        fault: form.fault && form.fault in LOOKS[provider].faults ? form.fault : '',
      };
      if (!EMAIL_PATTERN.test(values.email) || values.email.length > 254) return page(c, provider, tenant, r, values, 'Enter a valid e-mail address.');
      if (values.name.length > 100) return page(c, provider, tenant, r, { ...values, name: values.name.slice(0, 100) }, 'The name can have at most 100 characters.');
      sweep();
      const code = randomBytes(32).toString('base64url');
      codes.set(sha256(code), {
        provider,
        tenant,
        request: r,
        person: { email: values.email, name: values.name, vouched: values.vouched },
        fault: values.fault,
        expiresAt: now() + CODE_LIFETIME_MS,
        usedAt: null,
        tokenHashes: [],
      });
      return sendRedirect(c, withParams(r.redirectUri, { code, state: r.state }));
    };
    return { show, answer };
  }

  function page(c: Context<AppEnv>, provider: SocialProvider, tenant: string, r: AuthorizeRequest, values: ConsentValues, problem?: string): Response {
    const hidden = {
      client_id: r.clientId,
      redirect_uri: r.redirectUri,
      ...(provider === 'github' ? {} : { response_type: 'code' }),
      scope: r.scope,
      state: r.state,
      nonce: r.nonce,
      code_challenge: r.codeChallenge,
      code_challenge_method: r.codeChallenge ? r.codeChallengeMethod : undefined,
      consent: consentToken(provider, tenant, r),
    };
    return consentPage(c, provider, { action: new URL(c.req.url).pathname, clientId: r.clientId, redirectUri: r.redirectUri, scope: r.scope, hidden }, values, problem);
  }

  // --- the token endpoint -----------------------------------------------------------------------

  /** A refusal in the provider's way: JSON with 400/401 (Google, Microsoft), HTTP 200 (GitHub). */
  function refuse(c: Context<AppEnv>, provider: SocialProvider, status: 400 | 401, error: string, description: string): Response {
    if (provider === 'github') {
      const uri = 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors';
      return tokenAnswer(c, { error, error_description: description, error_uri: uri });
    }
    const extra =
      provider === 'microsoft'
        ? { error_codes: [status === 401 ? 7000215 : 70008], timestamp: new Date(Date.now()).toISOString().replace('T', ' ').slice(0, 19) + 'Z', trace_id: crypto.randomUUID(), correlation_id: crypto.randomUUID() }
        : {};
    return c.json({ error, error_description: description, ...extra }, status, NO_STORE);
  }

  /** GitHub answers form-encoded unless the request accepts JSON (authorizing-oauth-apps, "Response"). */
  function tokenAnswer(c: Context<AppEnv>, body: Record<string, string>): Response {
    if (/json/i.test(c.req.header('accept') ?? '')) return c.json(body, 200, NO_STORE);
    return c.body(new URLSearchParams(body).toString(), 200, { ...NO_STORE, 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' });
  }

  async function token(c: Context<AppEnv>, provider: SocialProvider, tenant: string): Promise<Response> {
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    let form: Record<string, string>;
    if (type.startsWith('application/x-www-form-urlencoded')) form = await readForm(c);
    else if (provider === 'github' && type.startsWith('application/json')) form = Object.fromEntries(Object.entries((await c.req.json().catch(() => ({}))) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
    else return refuse(c, provider, 400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
    // client authentication: client_secret_post, or client_secret_basic
    let clientId = form.client_id;
    let secret = form.client_secret;
    const basic = /^Basic\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString();
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        clientId = decodeURIComponent(decoded.slice(0, colon));
        secret = decodeURIComponent(decoded.slice(colon + 1));
      }
    }
    if (provider !== 'github') {
      if (!form.grant_type) return refuse(c, provider, 400, 'invalid_request', 'grant_type is missing.');
      if (form.grant_type !== 'authorization_code') return refuse(c, provider, 400, 'unsupported_grant_type', 'Only authorization_code is supported.');
    }
    const expectedSecret = (clientId && options.clients?.[clientId]) ?? defaultSecret;
    if (!clientId || secret === undefined || !timingSafeEqual(Buffer.from(sha256(secret), 'hex'), Buffer.from(sha256(expectedSecret), 'hex'))) {
      return refuse(c, provider, 401, provider === 'github' ? 'incorrect_client_credentials' : 'invalid_client', 'Client authentication failed.');
    }
    const badCode = provider === 'github' ? 'bad_verification_code' : 'invalid_grant';
    const code = form.code;
    if (!code) return refuse(c, provider, 400, 'invalid_request', 'code is required.');
    const grant = codes.get(sha256(code));
    const t = now();
    if (!grant) return refuse(c, provider, 400, badCode, 'The code passed is incorrect or expired.');
    if (grant.usedAt !== null) {
      for (const hash of grant.tokenHashes) tokens.delete(hash);
      return refuse(c, provider, 400, badCode, 'The authorization code was already used.');
    }
    if (grant.expiresAt <= t) return refuse(c, provider, 400, badCode, 'The code passed is incorrect or expired.');
    if (grant.provider !== provider || grant.tenant !== tenant || grant.request.clientId !== clientId) {
      return refuse(c, provider, 400, badCode, 'The authorization code was issued to another client.');
    }
    if (grant.request.redirectUri !== form.redirect_uri) {
      return refuse(c, provider, 400, provider === 'github' ? 'redirect_uri_mismatch' : 'invalid_grant', 'The redirect_uri does not match the authorization request.');
    }
    const { codeChallenge, codeChallengeMethod } = grant.request;
    if (codeChallenge) {
      const verifier = form.code_verifier ?? '';
      const derived = codeChallengeMethod === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
      if (!PKCE_VALUE.test(verifier) || derived !== codeChallenge) return refuse(c, provider, 400, badCode, 'The code_verifier does not match the code_challenge.');
    }
    grant.usedAt = t;
    if (grant.fault === 'token-error') return refuse(c, provider, 400, badCode, 'The code passed is incorrect or expired.');
    sweep();
    const accessToken = (provider === 'github' ? 'gho_' : provider === 'google' ? 'ya29.' : 'EwB') + randomBytes(30).toString('base64url');
    const tokenHash = sha256(accessToken);
    tokens.set(tokenHash, { provider, clientId, scope: grant.request.scope, person: grant.person, expiresAt: t + TOKEN_LIFETIME_SECONDS * 1000 });
    grant.tokenHashes.push(tokenHash);
    if (provider === 'github') {
      // scopes come back comma-separated
      return tokenAnswer(c, { access_token: accessToken, scope: grant.request.scope.split(/[\s,]+/).filter(Boolean).join(','), token_type: 'bearer' });
    }
    const idToken = signIdToken(idTokenClaims(c, grant), grant.fault);
    const answer =
      provider === 'microsoft'
        ? { token_type: 'Bearer', scope: grant.request.scope, expires_in: TOKEN_LIFETIME_SECONDS, ext_expires_in: TOKEN_LIFETIME_SECONDS, access_token: accessToken, id_token: idToken }
        : { access_token: accessToken, expires_in: TOKEN_LIFETIME_SECONDS, scope: grant.request.scope, token_type: 'Bearer', id_token: idToken };
    return c.json(answer, 200, NO_STORE);
  }

  // --- ID tokens --------------------------------------------------------------------------------

  function idTokenClaims(c: Context<AppEnv>, grant: CodeGrant): Record<string, unknown> {
    const { person, request } = grant;
    // by the machine's clock: the server's client checks ID tokens against it (tests move the server's clock only)
    const iat = Math.floor(Date.now() / 1000);
    const ids = simulatedIds(grant.provider, person.email);
    const [given, ...family] = person.name.split(' ');
    const common = { aud: request.clientId, iat, exp: iat + 3600, ...(request.nonce ? { nonce: request.nonce } : {}) };
    if (grant.provider === 'google') {
      return {
        iss: base(c, 'google'),
        azp: request.clientId,
        sub: ids.numeric,
        email: person.email,
        email_verified: person.vouched,
        ...(person.name ? { name: person.name, given_name: given, ...(family.length ? { family_name: family.join(' ') } : {}) } : {}),
        ...common,
      };
    }
    const tid = tenantOf(grant.tenant);
    return {
      ver: '2.0',
      iss: `${base(c, 'microsoft')}/${tid}/v2.0`,
      sub: microsoftPairwiseSubject(request.clientId, ids.guid),
      oid: ids.guid,
      tid,
      nbf: iat,
      ...(person.name ? { name: person.name } : {}),
      preferred_username: person.email,
      // the optional claims `email` and `xms_edov` (optional-claims-reference)
      email: person.email,
      ...(person.vouched ? { xms_edov: true } : {}),
      ...common,
    };
  }

  function signIdToken(claims: Record<string, unknown>, fault: string): string {
    const wrong: Record<string, unknown> =
      fault === 'id-token-nonce'
        ? { nonce: randomBytes(16).toString('base64url') }
        : fault === 'id-token-audience'
          ? { aud: 'another-client-id', azp: 'another-client-id' }
          : fault === 'id-token-issuer'
            ? { iss: 'https://issuer.invalid/' }
            : fault === 'id-token-tenant'
              ? { iss: String(claims.iss).replace(String(claims.tid), OTHER_TENANT) }
              : fault === 'id-token-expired'
                ? { iat: (claims.iat as number) - 7200, exp: (claims.iat as number) - 3600, nbf: (claims.iat as number) - 7200 }
                : {};
    const signed = sign({ ...claims, ...wrong }, key().privateKey, key().kid);
    if (fault !== 'id-token-tampered') return signed;
    // someone changed the claims on the way and kept the signature
    const [header, , signature] = signed.split('.');
    const tampered = Buffer.from(JSON.stringify({ ...claims, email: 'intruder@example.com', email_verified: true, xms_edov: true })).toString('base64url');
    return `${header}.${tampered}.${signature}`;
  }

  // --- the profile: userinfo, GitHub's REST API --------------------------------------------------

  function bearer(c: Context<AppEnv>, provider: SocialProvider, schemes = /^Bearer\s+(\S+)$/i): TokenGrant | undefined {
    const value = schemes.exec(c.req.header('authorization') ?? '')?.[1];
    const grant = value ? tokens.get(sha256(value)) : undefined;
    return grant && grant.provider === provider && grant.expiresAt > now() ? grant : undefined;
  }

  const invalidToken = (c: Context<AppEnv>) =>
    c.json({ error: 'invalid_token', error_description: 'The access token is missing, unknown or expired.' }, 401, {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
      'Cache-Control': 'no-store',
    });

  /** GitHub's REST API: a User-Agent is required, `token` and `Bearer` both work (rest/using-the-rest-api). */
  function gitHubApi(c: Context<AppEnv>): TokenGrant | Response {
    if (!c.req.header('user-agent')) {
      return c.text('Request forbidden by administrative rules. Please make sure your request has a User-Agent header.', 403);
    }
    return bearer(c, 'github', /^(?:Bearer|token)\s+(\S+)$/i) ?? c.json({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' }, 401);
  }

  // --- routes -----------------------------------------------------------------------------------

  // Google
  app.get('/_dev/oauth/google/.well-known/openid-configuration', (c) => {
    const b = base(c, 'google');
    return c.json({
      issuer: b,
      authorization_endpoint: `${b}/o/oauth2/v2/auth`,
      token_endpoint: `${b}/token`,
      userinfo_endpoint: `${b}/v1/userinfo`,
      jwks_uri: `${b}/oauth2/v3/certs`,
      response_types_supported: ['code', 'token', 'id_token', 'code token', 'code id_token', 'token id_token', 'code token id_token', 'none'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid', 'email', 'profile'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      claims_supported: ['aud', 'email', 'email_verified', 'exp', 'family_name', 'given_name', 'iat', 'iss', 'name', 'picture', 'sub'],
      code_challenge_methods_supported: ['plain', 'S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
  });
  const google = authorize('google', () => 'google');
  app.get('/_dev/oauth/google/o/oauth2/v2/auth', google.show);
  app.post('/_dev/oauth/google/o/oauth2/v2/auth', google.answer);
  app.post('/_dev/oauth/google/token', (c) => token(c, 'google', 'google'));
  app.get('/_dev/oauth/google/oauth2/v3/certs', (c) => c.json(key().jwks));
  app.get('/_dev/oauth/google/v1/userinfo', (c) => {
    const grant = bearer(c, 'google');
    if (!grant) return invalidToken(c);
    const { person } = grant;
    return c.json({ sub: simulatedIds('google', person.email).numeric, ...(person.name ? { name: person.name } : {}), email: person.email, email_verified: person.vouched }, 200, { 'Cache-Control': 'no-store' });
  });

  // Microsoft (`:tenant` is a tenant id or common, organizations, consumers)
  const tenantParam = (c: Context<AppEnv>): string | undefined => {
    const tenant = c.req.param('tenant') ?? '';
    return GUID.test(tenant) || MICROSOFT_MULTI_TENANT.has(tenant) ? tenant.toLowerCase() : undefined;
  };
  app.get('/_dev/oauth/microsoft/:tenant/v2.0/.well-known/openid-configuration', (c) => {
    const tenant = tenantParam(c);
    if (!tenant) return c.json({ error: 'invalid_tenant', error_description: 'AADSTS90002: Tenant not found.' }, 400);
    const b = base(c, 'microsoft');
    return c.json({
      token_endpoint: `${b}/${tenant}/oauth2/v2.0/token`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      jwks_uri: `${b}/${tenant}/discovery/v2.0/keys`,
      response_modes_supported: ['query', 'fragment', 'form_post'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      issuer: `${b}/${discoveredTenant(tenant)}/v2.0`,
      authorization_endpoint: `${b}/${tenant}/oauth2/v2.0/authorize`,
      userinfo_endpoint: `${b}/graph/oidc/userinfo`,
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'acr', 'nonce', 'preferred_username', 'name', 'tid', 'ver', 'at_hash', 'c_hash', 'email'],
      tenant_region_scope: null,
    });
  });
  const microsoft = authorize('microsoft', tenantParam);
  app.get('/_dev/oauth/microsoft/:tenant/oauth2/v2.0/authorize', microsoft.show);
  app.post('/_dev/oauth/microsoft/:tenant/oauth2/v2.0/authorize', microsoft.answer);
  app.post('/_dev/oauth/microsoft/:tenant/oauth2/v2.0/token', (c) => {
    const tenant = tenantParam(c);
    return tenant ? token(c, 'microsoft', tenant) : c.json({ error: 'invalid_tenant' }, 400);
  });
  app.get('/_dev/oauth/microsoft/:tenant/discovery/v2.0/keys', (c) => c.json(key().jwks));
  app.get('/_dev/oauth/microsoft/graph/oidc/userinfo', (c) => {
    const grant = bearer(c, 'microsoft');
    if (!grant) return invalidToken(c);
    const { person, clientId } = grant;
    const [given, ...family] = person.name.split(' ');
    const sub = microsoftPairwiseSubject(clientId, simulatedIds('microsoft', person.email).guid);
    return c.json({ sub, ...(person.name ? { name: person.name, given_name: given, family_name: family.join(' ') } : {}), email: person.email }, 200, { 'Cache-Control': 'no-store' });
  });

  // GitHub
  const github = authorize('github', () => 'github');
  app.get('/_dev/oauth/github/login/oauth/authorize', github.show);
  app.post('/_dev/oauth/github/login/oauth/authorize', github.answer);
  app.post('/_dev/oauth/github/login/oauth/access_token', (c) => token(c, 'github', 'github'));
  app.get('/_dev/oauth/github/api/user', (c) => {
    const grant = gitHubApi(c);
    if (grant instanceof Response) return grant;
    const { person } = grant;
    const id = Number(simulatedIds('github', person.email).numeric);
    const login = person.email.split('@')[0]!.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 39);
    return c.json({
      login,
      id,
      node_id: Buffer.from(`04:User${id}`).toString('base64'),
      avatar_url: `${base(c, 'github')}/avatars/u/${id}`,
      html_url: `https://github.com/${login}`,
      type: 'User',
      name: person.name || null,
      // the public address, which people often leave unset; never a statement about verification
      email: null,
    });
  });
  app.get('/_dev/oauth/github/api/user/emails', (c) => {
    const grant = gitHubApi(c);
    if (grant instanceof Response) return grant;
    const scopes = grant.scope.split(/[\s,]+/);
    if (!scopes.includes('user:email') && !scopes.includes('user')) {
      return c.json({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest/users/emails#list-email-addresses-for-the-authenticated-user', status: '404' }, 404, {
        'X-Accepted-OAuth-Scopes': 'user, user:email',
      });
    }
    const { person } = grant;
    const login = person.email.split('@')[0];
    return c.json([
      { email: person.email, primary: true, verified: person.vouched, visibility: 'private' },
      { email: `${simulatedIds('github', person.email).numeric}+${login}@users.noreply.github.com`, primary: false, verified: true, visibility: null },
    ]);
  });
  app.get('/_dev/oauth/github/avatars/u/:id', (c) => {
    const hue = Number(c.req.param('id')) % 360 || 0;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="20" fill="hsl(${hue} 45% 45%)"/></svg>`;
    return c.body(svg, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'max-age=86400' });
  });
}

/** A compact JWS, RS256. */
function sign(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(key).toString('base64url');
  return `${header}.${payload}.${signature}`;
}
