// The server's side of a social sign-in, through openid-client (README, "Social sign-in"): the
// authorization URL with PKCE (S256), state and, for OpenID Connect providers, a nonce; the code
// exchanged at the token endpoint; for Google and Microsoft the ID token validated (signature with the
// keys discovery names, iss, aud, exp, nonce); and each provider's own rule for whether it vouches for
// the e-mail address it names.
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import type { SocialProvider } from '../config/projectConfig.ts';
import type { Logger } from '../senders/Messenger.ts';
import { settingsProblems, settingVariable, SIMULATOR_CLIENT_SECRET, URL_SETTINGS, type ProviderSettings, type SocialSettings } from './providerSettings.ts';

export { CALLBACK_PATH } from './providerSettings.ts';

/** What the provider says about the account. */
export interface SocialProfile {
  /** the provider's stable id of the person (Microsoft: tenant and object id) */
  subject: string;
  email: string;
  /** whether the provider vouches that the person owns `email` (its own rule, see readProfile) */
  emailVerified: boolean;
  fullName: string;
  avatarUrl: string;
}

/** A failed discovery, exchange, validation or profile read. The message is for logs, never for the browser. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** What one sign-in attempt keeps (in its process) from the authorization URL to the callback. */
export interface SignInAttempt {
  codeVerifier: string;
  /** OpenID Connect providers: the ID token must carry it */
  nonce?: string;
}

export interface SocialProvidersOptions {
  /** production: no simulator defaults, no client without credentials */
  production: boolean;
  /** a project's own OAuth client for a provider (admin command), its secret unsealed; undefined when it has none */
  projectClient: (projectId: string, provider: SocialProvider) => Promise<ClientCredentials | undefined>;
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** bound on each call to a provider (default 10 s) */
  timeoutMs?: number;
  log?: Logger;
}

/** How long a discovered configuration is used before the provider is asked again. */
const CONFIGURATION_LIFETIME_MS = 60 * 60_000;
const GITHUB_API_HEADERS = { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' };
/** What Microsoft's multi-tenant discovery puts in its issuer where each token names its own tenant. */
const TENANT_TEMPLATE = '{tenantid}';
/** A Microsoft Entra tenant id (`tid`). */
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Google and Microsoft speak OpenID Connect; GitHub plain OAuth 2.0 with a REST API for the profile. */
export function isOpenIdProvider(provider: SocialProvider): boolean {
  return provider !== 'github';
}

export class SocialProviders {
  private readonly configurations = new Map<string, { at: number; configuration: Promise<ProviderClient> }>();
  private readonly fetchImpl: oidc.CustomFetch;
  private readonly timeoutSeconds: number;

  constructor(
    readonly settings: SocialSettings,
    private readonly options: SocialProvidersOptions,
  ) {
    const problems = settingsProblems(settings);
    if (problems.length > 0) throw new Error(problems.join('; '));
    this.fetchImpl = (options.fetch ?? fetch) as oidc.CustomFetch;
    this.timeoutSeconds = Math.max(1, Math.round((options.timeoutMs ?? 10_000) / 1000));
  }

  /**
   * The provider, ready for one project: its client (the project's own, else the server's; the
   * project id against the simulator in development) and the provider's configuration (discovered
   * for OpenID Connect providers, cached for an hour). A network call the first time: outside any
   * transaction.
   */
  async prepare(provider: SocialProvider, projectId: string, apiBase: string): Promise<PreparedProvider> {
    const credentials = await this.credentials(provider, projectId);
    const urls = absolute(this.settings[provider], apiBase);
    const key = JSON.stringify([provider, urls, credentials.clientId, sha256(credentials.clientSecret)]);
    const now = Date.now();
    let cached = this.configurations.get(key);
    if (!cached || now - cached.at > CONFIGURATION_LIFETIME_MS) {
      cached = { at: now, configuration: this.configure(provider, urls, credentials) };
      this.configurations.set(key, cached);
      // a failed discovery is asked again next time, not remembered
      cached.configuration.catch(() => this.configurations.get(key) === cached && this.configurations.delete(key));
    }
    return new PreparedProvider(provider, urls, await cached.configuration, this.options.log);
  }

  private async credentials(provider: SocialProvider, projectId: string): Promise<ClientCredentials> {
    const own = await this.options.projectClient(projectId, provider);
    if (own) return own;
    const { clientId, clientSecret } = this.settings[provider];
    if (this.options.production) {
      if (!clientId || !clientSecret) throw new ProviderError(`no OAuth client for ${provider}: set the project's (admin command) or ${settingVariable(provider, 'CLIENT_ID')} and _CLIENT_SECRET`);
      return { clientId, clientSecret };
    }
    // the simulator accepts any client id; each project is its own client there
    return { clientId: clientId ?? projectId, clientSecret: clientSecret ?? SIMULATOR_CLIENT_SECRET };
  }

  private async configure(provider: SocialProvider, urls: ProviderSettings, credentials: ClientCredentials): Promise<ProviderClient> {
    const insecure = Object.values(urls).some((v) => typeof v === 'string' && v.startsWith('http:'));
    const client = new ProviderClient(provider, credentials, this.providerFetch(provider, urls), this.timeoutSeconds, insecure);
    try {
      if (!isOpenIdProvider(provider)) {
        client.use({ issuer: new URL(urls.authorizeUrl!).origin, authorization_endpoint: urls.authorizeUrl!, token_endpoint: urls.tokenUrl! });
        return client;
      }
      const discovered: oidc.ServerMetadata = (await oidc.discovery(discoveryUrl(provider, urls.issuer!), credentials.clientId, credentials.clientSecret, undefined, {
        timeout: this.timeoutSeconds,
        [oidc.customFetch]: client.fetch,
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      })).serverMetadata();
      if (provider === 'microsoft') acceptMicrosoftIssuer(urls.issuer!, discovered.issuer);
      client.use({
        ...discovered,
        ...(urls.authorizeUrl ? { authorization_endpoint: urls.authorizeUrl } : {}),
        ...(urls.tokenUrl ? { token_endpoint: urls.tokenUrl } : {}),
        ...(urls.userinfoUrl ? { userinfo_endpoint: urls.userinfoUrl } : {}),
      });
      return client;
    } catch (error) {
      throw providerError(`${provider}: configuration from ${urls.issuer ?? urls.authorizeUrl}`, error);
    }
  }

  /**
   * GitHub answers a refused code with HTTP 200 and `{error}` (docs.github.com, "Troubleshooting
   * authorization request errors"); made a 400 here so that openid-client reports the provider's error.
   */
  private providerFetch(provider: SocialProvider, urls: ProviderSettings): oidc.CustomFetch {
    const base = this.fetchImpl;
    if (provider !== 'github') return base;
    return async (url, init) => {
      const response = await base(url, init);
      if (url !== urls.tokenUrl || response.status !== 200) return response;
      const text = await response.text();
      return new Response(text, { status: refusal(text) ? 400 : 200, headers: response.headers });
    };
  }
}

type Tokens = Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
type GrantChecks = Parameters<typeof oidc.authorizationCodeGrant>[2];

/**
 * One provider with one client, over openid-client: the provider's metadata (discovered, with the
 * configured endpoints in place of the discovered ones) and the code exchange. Every openid-client
 * Configuration made here gets the same settings: the time limit, the fetch, plain http only where an
 * operator configured it (the simulator, a test double; production refuses it), and for OpenID Connect
 * providers the ID token's signature checked with the keys of the discovered `jwks_uri`.
 */
class ProviderClient {
  configuration!: oidc.Configuration;
  private jwks: oidc.ExportedJWKSCache | undefined;

  constructor(
    private readonly provider: SocialProvider,
    private readonly credentials: ClientCredentials,
    readonly fetch: oidc.CustomFetch,
    private readonly timeoutSeconds: number,
    private readonly insecure: boolean,
  ) {}

  use(server: oidc.ServerMetadata): void {
    this.configuration = this.make(server, this.fetch);
  }

  private make(server: oidc.ServerMetadata, fetch: oidc.CustomFetch): oidc.Configuration {
    const configuration = new oidc.Configuration(server, this.credentials.clientId, this.credentials.clientSecret);
    configuration.timeout = this.timeoutSeconds;
    configuration[oidc.customFetch] = fetch;
    if (this.insecure) oidc.allowInsecureRequests(configuration);
    if (isOpenIdProvider(this.provider)) oidc.enableNonRepudiationChecks(configuration);
    return configuration;
  }

  /**
   * The code exchanged at the token endpoint, the answer (and its ID token) validated by openid-client.
   *
   * An issuer that names `{tenantid}` (Microsoft's `common` and `organizations`) has no single value a
   * token could carry: each ID token must carry the template with its own `tid`. openid-client does that
   * only for discovery on the host login.microsoftonline.com; here it is done wherever discovery
   * publishes the template (a national cloud, a stand-in, a proxy, and login.microsoftonline.com itself,
   * through the same path): the exchange runs once up to the provider's answer, which is kept and not
   * yet trusted; the answer's `tid` names the issuer to expect; then openid-client validates that same
   * answer (state, signature, iss, aud, exp, nonce) with a Configuration whose issuer is the template
   * with that `tid`. The code goes to the provider once; a token whose `iss` names another tenant than
   * its `tid` fails the issuer check, and one whose `tid` is no tenant id is refused before it.
   */
  async codeGrant(current: URL, checks: GrantChecks): Promise<Tokens> {
    const server: oidc.ServerMetadata = this.configuration.serverMetadata();
    if (!server.issuer.includes(TENANT_TEMPLATE)) return oidc.authorizationCodeGrant(this.configuration, current, checks);
    const tokenEndpoint = new URL(server.token_endpoint!).href;
    let kept: { body: string; init: ResponseInit } | undefined;
    const keep: oidc.CustomFetch = async (url, init) => {
      const response = await this.fetch(url, init);
      if (url !== tokenEndpoint) return response;
      kept = { body: await response.text(), init: { status: response.status, statusText: response.statusText, headers: answerHeaders(response.headers) } };
      throw new ProviderError('the token answer is kept for validation');
    };
    try {
      await oidc.authorizationCodeGrant(this.make(server, keep), current, checks);
    } catch (error) {
      if (!kept) throw error;
    }
    const answer = kept!;
    const replay: oidc.CustomFetch = async (url, init) => (url === tokenEndpoint ? new Response(answer.body, answer.init) : this.fetch(url, init));
    const validating = this.make({ ...server, issuer: tenantIssuer(server.issuer, answer) }, replay);
    if (this.jwks) oidc.setJwksCache(validating, this.jwks);
    try {
      return await oidc.authorizationCodeGrant(validating, current, checks);
    } finally {
      this.jwks = oidc.getJwksCache(validating) ?? this.jwks;
    }
  }
}

/**
 * Where discovery is asked. Microsoft's multi-tenant names (`common`, `organizations`, `consumers`)
 * publish another issuer than the one asked for (the template, or the consumer tenant's id), which
 * openid-client accepts only on login.microsoftonline.com; asked at the document's own URL,
 * openid-client leaves the issuer to acceptMicrosoftIssuer. Every other provider's issuer must be the
 * one configured, which openid-client checks.
 */
function discoveryUrl(provider: SocialProvider, issuer: string): URL {
  return new URL(provider === 'microsoft' ? `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration` : issuer);
}

/**
 * Which issuer Microsoft's discovery at `<authority>/<tenant>/v2.0` may name
 * (learn.microsoft.com/entra/identity-platform/v2-protocols-oidc): that same issuer; for a tenant
 * given by name (`common`, `organizations`, `consumers`, a domain), the template
 * `<authority>/{tenantid}/v2.0` (`common`, `organizations`) or `<authority>/<tenant id>/v2.0` (`consumers`
 * names the consumer tenant, a domain its tenant). Nothing else: not another host or path, and never the
 * template for a tenant given by its id, which would let every other tenant in.
 */
export function acceptMicrosoftIssuer(configured: string, discovered: string): void {
  if (sameUrl(configured, discovered)) return;
  const named = /^(.+\/)([^/]+)\/v2\.0\/?$/.exec(configured);
  if (named && !TENANT_ID.test(named[2]!)) {
    const authority = named[1]!;
    const tenant = discovered.startsWith(authority) && discovered.endsWith('/v2.0') ? discovered.slice(authority.length, -'/v2.0'.length) : undefined;
    if (tenant !== undefined && (tenant === TENANT_TEMPLATE || TENANT_ID.test(tenant))) return;
  }
  throw new ProviderError(`microsoft: discovery for ${configured} names the issuer ${discovered}`);
}

/**
 * The issuer a kept token answer's ID token must carry: the template with the token's own `tid`. An
 * answer without an ID token (a refusal, a missing token) is left to openid-client to report; an ID
 * token without a tenant id is refused here, so that the template itself is never expected of a token.
 */
function tenantIssuer(template: string, answer: { body: string; init: ResponseInit }): string {
  let idToken: unknown;
  try {
    idToken = answer.init.status === 200 ? (JSON.parse(answer.body) as { id_token?: unknown }).id_token : undefined;
  } catch {
    idToken = undefined;
  }
  if (typeof idToken !== 'string') return template;
  let tid: unknown;
  try {
    tid = decodeJwt(idToken).tid;
  } catch {
    throw new ProviderError('microsoft: the ID token cannot be read');
  }
  if (typeof tid !== 'string' || !TENANT_ID.test(tid)) throw new ProviderError('microsoft: the ID token names no tenant id (tid)');
  return template.replace(TENANT_TEMPLATE, tid);
}

/** A kept answer's headers, without those that described the bytes on the wire. */
function answerHeaders(headers: Headers): Headers {
  const copy = new Headers(headers);
  for (const name of ['content-encoding', 'content-length', 'transfer-encoding']) copy.delete(name);
  return copy;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/** One provider with one project's client: the authorization URL, and the callback's exchange. */
export class PreparedProvider {
  constructor(
    readonly provider: SocialProvider,
    private readonly urls: ProviderSettings,
    private readonly client: ProviderClient,
    private readonly log: Logger | undefined,
  ) {}

  private get configuration(): oidc.Configuration {
    return this.client.configuration;
  }

  get clientId(): string {
    return this.configuration.clientMetadata().client_id;
  }

  /** The provider's authorization URL for one attempt, and what the callback will need. */
  async authorization(redirectUri: string, state: string): Promise<{ url: string; attempt: SignInAttempt }> {
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const parameters: Record<string, string> = {
      redirect_uri: redirectUri,
      scope: this.urls.scope,
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    };
    const attempt: SignInAttempt = { codeVerifier };
    if (isOpenIdProvider(this.provider)) attempt.nonce = parameters.nonce = oidc.randomNonce();
    return { url: oidc.buildAuthorizationUrl(this.configuration, parameters).href, attempt };
  }

  /**
   * Exchanges the code (with the PKCE verifier; the ID token checked where there is one) and reads the
   * profile. Throws ProviderError for anything the provider or its answer gets wrong.
   */
  async signIn(redirectUri: string, callback: { code: string; state: string; iss?: string }, attempt: SignInAttempt): Promise<SocialProfile> {
    const current = new URL(redirectUri);
    current.searchParams.set('code', callback.code);
    current.searchParams.set('state', callback.state);
    if (callback.iss) current.searchParams.set('iss', callback.iss);
    const openId = isOpenIdProvider(this.provider);
    let tokens: Tokens;
    try {
      tokens = await this.client.codeGrant(current, {
        pkceCodeVerifier: attempt.codeVerifier,
        expectedState: callback.state,
        ...(openId ? { expectedNonce: attempt.nonce, idTokenExpected: true } : {}),
      });
    } catch (error) {
      throw providerError(`${this.provider}: code exchange`, error);
    }
    if (!openId) return this.gitHubProfile(tokens.access_token);
    const claims = tokens.claims();
    if (!claims) throw new ProviderError(`${this.provider}: no ID token`);
    const profile = this.provider === 'google' ? googleProfile(claims) : microsoftProfile(claims);
    if (!profile.fullName || !profile.avatarUrl) Object.assign(profile, await this.displayClaims(tokens.access_token, claims.sub, profile));
    return profile;
  }

  /**
   * The name and picture from userinfo when the ID token lacks them. Who the person is and whether the
   * address counts come from the validated ID token only; a failing userinfo costs only the name.
   */
  private async displayClaims(accessToken: string, subject: string, profile: SocialProfile): Promise<Partial<SocialProfile>> {
    if (!this.configuration.serverMetadata().userinfo_endpoint) return {};
    try {
      const info = await oidc.fetchUserInfo(this.configuration, accessToken, subject);
      return {
        fullName: profile.fullName || cleanName(info.name),
        avatarUrl: profile.avatarUrl || avatarUrl(info.picture),
      };
    } catch (error) {
      this.log?.error(`social sign-in with ${this.provider}: userinfo failed, going on without the name`, describe(error));
      return {};
    }
  }

  /**
   * GitHub (docs.github.com/rest/users): `/user` for the id, login, name and avatar (its `email` is the
   * public one, often null, and says nothing about verification); `/user/emails` for the addresses, of
   * which the primary one counts, verified when GitHub says so.
   */
  private async gitHubProfile(accessToken: string): Promise<SocialProfile> {
    const user = (await this.gitHubJson(accessToken, this.urls.userinfoUrl!)) as Record<string, unknown>;
    const emails = await this.gitHubJson(accessToken, this.urls.emailsUrl!);
    if (!Array.isArray(emails)) throw new ProviderError('github: /user/emails did not answer a list');
    const primary = (emails as Record<string, unknown>[]).find((e) => e?.primary === true && typeof e.email === 'string');
    if (!primary) throw new ProviderError('github: no primary address');
    const id = user.id;
    if (typeof id !== 'number' && typeof id !== 'string') throw new ProviderError('github: /user has no id');
    return {
      subject: String(id),
      email: primary.email as string,
      emailVerified: primary.verified === true,
      fullName: cleanName(user.name) || cleanName(user.login),
      avatarUrl: avatarUrl(user.avatar_url),
    };
  }

  private async gitHubJson(accessToken: string, url: string): Promise<unknown> {
    let response: Response;
    try {
      response = await oidc.fetchProtectedResource(this.configuration, accessToken, new URL(url), 'GET', null, new Headers(GITHUB_API_HEADERS));
    } catch (error) {
      throw providerError(`github: GET ${new URL(url).pathname}`, error);
    }
    const text = await response.text();
    if (!response.ok) throw new ProviderError(`github: GET ${new URL(url).pathname} answered ${response.status}: ${text.slice(0, 200)}`);
    if (text.length > 100_000) throw new ProviderError(`github: ${new URL(url).pathname} answered too much`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderError(`github: ${new URL(url).pathname} did not answer JSON`);
    }
  }
}

/**
 * Google vouches for the address with `email_verified`
 * (https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload).
 */
function googleProfile(claims: oidc.IDToken): SocialProfile {
  return {
    subject: claims.sub,
    email: emailOf(claims.email, 'google'),
    emailVerified: claims.email_verified === true,
    fullName: cleanName(claims.name),
    avatarUrl: avatarUrl(claims.picture),
  };
}

/**
 * Microsoft's `email` claim is not proof of ownership: "This value isn't guaranteed to be correct and is
 * mutable over time" (https://learn.microsoft.com/entra/identity-platform/id-token-claims-reference);
 * it has no `email_verified`. Its optional claim `xms_edov` ("email domain owner verified",
 * https://learn.microsoft.com/entra/identity-platform/optional-claims-reference) is true only where the
 * tenant owns and verified the address's domain, or the address is a Microsoft, Google or one-time-code
 * account's; so the address counts as verified only with `xms_edov: true`. (Register the optional
 * claims `email` and `xms_edov` on the app; without them every Microsoft address asks for a code.)
 * The account is keyed by tenant and object id: `sub` is pairwise, different for each client id, so a
 * project that moved to its own client would no longer find its people by it.
 */
function microsoftProfile(claims: oidc.IDToken): SocialProfile {
  const { tid, oid } = claims as { tid?: unknown; oid?: unknown };
  const subject = typeof tid === 'string' && typeof oid === 'string' ? `${tid}:${oid}` : claims.sub;
  // without the optional `email` claim, the sign-in name when it is an address (never verified either)
  const username = typeof claims.preferred_username === 'string' && claims.preferred_username.includes('@') ? claims.preferred_username : undefined;
  const edov = (claims as { xms_edov?: unknown }).xms_edov;
  return {
    subject,
    email: emailOf(claims.email ?? username, 'microsoft'),
    emailVerified: typeof claims.email === 'string' && (edov === true || edov === 'true' || edov === 1 || edov === '1'),
    fullName: cleanName(claims.name),
    avatarUrl: '',
  };
}

/** Whether a token answer is GitHub's refusal: JSON with an `error`. */
function refusal(text: string): boolean {
  try {
    return typeof (JSON.parse(text) as { error?: unknown }).error === 'string';
  } catch {
    return false;
  }
}

function emailOf(value: unknown, provider: SocialProvider): string {
  if (typeof value !== 'string' || !value || value.length > 320) throw new ProviderError(`${provider}: no e-mail address`);
  return value;
}

function cleanName(value: unknown): string {
  return typeof value === 'string' ? value.trim().slice(0, 100) : '';
}

function avatarUrl(value: unknown): string {
  return typeof value === 'string' && /^https?:\/\//.test(value) && value.length <= 2000 ? value : '';
}

/** The settings with every path resolved against the API's public URL (the simulator's defaults are paths). */
function absolute(settings: ProviderSettings, apiBase: string): ProviderSettings {
  const resolved: ProviderSettings = { ...settings };
  for (const [key] of URL_SETTINGS) {
    const value = settings[key];
    if (value) resolved[key] = new URL(value, `${apiBase}/`).href;
  }
  return resolved;
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? `: ${cause.message}` : cause && typeof cause === 'object' && 'error' in cause ? `: ${String((cause as { error: unknown }).error)}` : '';
  return `${error.message}${detail}`;
}

function providerError(what: string, error: unknown): ProviderError {
  return error instanceof ProviderError ? error : new ProviderError(`${what} failed: ${describe(error)}`);
}
