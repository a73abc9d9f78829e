// The server's side of an OAuth 2.0 authorization-code sign-in, provider by provider: it builds the
// authorization URL, exchanges the code at the token endpoint and reads the profile from the userinfo
// endpoint, over real HTTP. Endpoints and client credentials come from configuration (README.md,
// "Social sign-in"); by default they point at the local simulator of this same server
// (/_dev/oauth/<provider>/…), whose paths are resolved against the API's public URL.
import { SOCIAL_PROVIDERS, type SocialProvider } from '../config/projectConfig.ts';

export interface ProviderSettings {
  /** where the browser is sent; absolute, or a path resolved against the API's public URL */
  authorizeUrl: string;
  /** where the server exchanges the code (POST, form-encoded) */
  tokenUrl: string;
  /** where the server reads the profile with the access token (GET, bearer) */
  userinfoUrl: string;
  /** the OAuth client id; without it, each project's id is its client id */
  clientId?: string;
  clientSecret: string;
  scope: string;
}

export type SocialSettings = Record<SocialProvider, ProviderSettings>;

/** The client secret the simulator expects unless configured otherwise. Not a secret: dev only. */
export const SIMULATOR_CLIENT_SECRET = 'local-simulator-secret';
export const CALLBACK_PATH = '/v2/auth/social/verify/callback';

export function simulatorSettings(provider: SocialProvider, clientSecret = SIMULATOR_CLIENT_SECRET): ProviderSettings {
  return {
    authorizeUrl: `/_dev/oauth/${provider}/authorize`,
    tokenUrl: `/_dev/oauth/${provider}/token`,
    userinfoUrl: `/_dev/oauth/${provider}/userinfo`,
    clientSecret,
    scope: 'openid email profile',
  };
}

/** Defaults (the simulator) with per-provider overrides, e.g. from the environment. */
export function socialSettings(overrides: Partial<Record<SocialProvider, Partial<ProviderSettings>>> = {}): SocialSettings {
  const settings = {} as SocialSettings;
  for (const provider of SOCIAL_PROVIDERS) {
    const given = Object.fromEntries(Object.entries(overrides[provider] ?? {}).filter(([, v]) => v !== undefined && v !== ''));
    settings[provider] = { ...simulatorSettings(provider), ...given };
  }
  return settings;
}

/** SOCIAL_<PROVIDER>_AUTHORIZE_URL, _TOKEN_URL, _USERINFO_URL, _CLIENT_ID, _CLIENT_SECRET, _SCOPE. */
export function socialOverridesFromEnv(env: NodeJS.ProcessEnv): Partial<Record<SocialProvider, Partial<ProviderSettings>>> {
  const overrides: Partial<Record<SocialProvider, Partial<ProviderSettings>>> = {};
  for (const provider of SOCIAL_PROVIDERS) {
    const prefix = `SOCIAL_${provider.toUpperCase()}_`;
    const read = (name: string) => env[prefix + name] || undefined;
    const entry: Partial<ProviderSettings> = {
      authorizeUrl: read('AUTHORIZE_URL'),
      tokenUrl: read('TOKEN_URL'),
      userinfoUrl: read('USERINFO_URL'),
      clientId: read('CLIENT_ID'),
      clientSecret: read('CLIENT_SECRET'),
      scope: read('SCOPE'),
    };
    if (Object.values(entry).some((v) => v !== undefined)) overrides[provider] = entry;
  }
  return overrides;
}

/** What the provider says about the account. */
export interface SocialProfile {
  subject: string;
  email: string;
  emailVerified: boolean;
  fullName: string;
  avatarUrl: string;
}

/** A failed exchange or profile read. The message is for logs, never for the browser. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

const MAX_RESPONSE_CHARS = 100_000;

export class ProviderClient {
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(
    readonly settings: SocialSettings,
    options: { fetch?: typeof fetch; timeoutMs?: number } = {},
  ) {
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    for (const provider of SOCIAL_PROVIDERS) {
      for (const key of ['authorizeUrl', 'tokenUrl', 'userinfoUrl'] as const) {
        const value = settings[provider][key];
        let url: URL | undefined;
        try {
          url = new URL(value, 'http://localhost/');
        } catch {
          url = undefined;
        }
        if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
          throw new Error(`social provider ${provider}: ${key} must be an http(s) URL or an absolute path, got ${value}`);
        }
      }
    }
  }

  clientId(provider: SocialProvider, projectId: string): string {
    return this.settings[provider].clientId ?? projectId;
  }

  /** The provider's authorization URL for one sign-in attempt. */
  authorizationUrl(provider: SocialProvider, a: { apiBase: string; projectId: string; redirectUri: string; state: string }): string {
    const p = this.settings[provider];
    const url = new URL(p.authorizeUrl, `${a.apiBase}/`);
    url.searchParams.set('client_id', this.clientId(provider, a.projectId));
    url.searchParams.set('redirect_uri', a.redirectUri);
    url.searchParams.set('state', a.state);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', p.scope);
    return url.toString();
  }

  /** Exchanges the code for an access token and reads the profile with it. */
  async signIn(provider: SocialProvider, a: { apiBase: string; projectId: string; code: string; redirectUri: string }): Promise<SocialProfile> {
    const accessToken = await this.exchangeCode(provider, a);
    return this.userInfo(provider, a.apiBase, accessToken);
  }

  async exchangeCode(provider: SocialProvider, a: { apiBase: string; projectId: string; code: string; redirectUri: string }): Promise<string> {
    const p = this.settings[provider];
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: a.code,
      redirect_uri: a.redirectUri,
      client_id: this.clientId(provider, a.projectId),
      client_secret: p.clientSecret,
    });
    const body = await this.requestJson(new URL(p.tokenUrl, `${a.apiBase}/`), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
    });
    const token = body.access_token;
    const type = body.token_type;
    if (typeof token !== 'string' || !token) throw new ProviderError('the token response has no access_token');
    if (typeof type === 'string' && type.toLowerCase() !== 'bearer') throw new ProviderError(`unsupported token_type ${type}`);
    return token;
  }

  async userInfo(provider: SocialProvider, apiBase: string, accessToken: string): Promise<SocialProfile> {
    const body = await this.requestJson(new URL(this.settings[provider].userinfoUrl, `${apiBase}/`), {
      method: 'GET',
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
    });
    // OpenID Connect names (sub, name, picture); GitHub-style names (id, login, avatar_url) as a fallback
    const rawSubject = body.sub ?? body.id;
    const subject = typeof rawSubject === 'string' || typeof rawSubject === 'number' ? String(rawSubject) : '';
    if (!subject || subject.length > 255) throw new ProviderError('the profile has no usable subject');
    if (typeof body.email !== 'string' || !body.email || body.email.length > 320) throw new ProviderError('the profile has no e-mail address');
    const name = typeof body.name === 'string' ? body.name : typeof body.login === 'string' ? body.login : '';
    const picture = typeof body.picture === 'string' ? body.picture : typeof body.avatar_url === 'string' ? body.avatar_url : '';
    return {
      subject,
      email: body.email,
      emailVerified: body.email_verified === true || body.email_verified === 'true',
      fullName: name.trim().slice(0, 100),
      avatarUrl: /^https?:\/\//.test(picture) && picture.length <= 2000 ? picture : '',
    };
  }

  private async requestJson(url: URL, init: RequestInit): Promise<Record<string, unknown>> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      throw new ProviderError(`${init.method} ${url.origin}${url.pathname} failed: ${(error as Error).message}`);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) throw new ProviderError(`${init.method} ${url.pathname} answered ${response.status}: ${text.slice(0, 200)}`);
    if (text.length > MAX_RESPONSE_CHARS) throw new ProviderError(`${url.pathname} answered too much`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ProviderError(`${url.pathname} did not answer JSON`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ProviderError(`${url.pathname} did not answer an object`);
    return parsed as Record<string, unknown>;
  }
}
