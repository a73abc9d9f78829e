// Where each social provider is and how the server-wide OAuth client is registered there. Development
// defaults to the local simulator of this same server (paths resolved against the API's public URL);
// production defaults to the real providers. Every value can be replaced per provider, from the
// environment (SOCIAL_<PROVIDER>_…) or createApi({ socialProviders }); a project's own client id and
// secret (admin command) take the place of the server-wide ones.
import { SOCIAL_PROVIDERS, type SocialProvider } from '../config/projectConfig.ts';

export interface ProviderSettings {
  /**
   * OpenID Connect providers (Google, Microsoft): the issuer. Its discovery document
   * (`<issuer>/.well-known/openid-configuration`) names the endpoints and the keys ID tokens are
   * checked with, and ID tokens must carry it as `iss`.
   */
  issuer?: string;
  /** where the browser is sent (Google, Microsoft: replaces the discovered one) */
  authorizeUrl?: string;
  /** where the server exchanges the code (Google, Microsoft: replaces the discovered one) */
  tokenUrl?: string;
  /** the profile: GitHub's `/user`; for Google and Microsoft it replaces the discovered userinfo endpoint */
  userinfoUrl?: string;
  /** GitHub only: `/user/emails`, where GitHub says which of the user's addresses are verified */
  emailsUrl?: string;
  /** the server-wide OAuth client; a project's own (admin command) wins */
  clientId?: string;
  clientSecret?: string;
  scope: string;
}

export type SocialSettings = Record<SocialProvider, ProviderSettings>;

/** The client secret the simulator expects unless configured otherwise. Not a secret: dev only. */
export const SIMULATOR_CLIENT_SECRET = 'local-simulator-secret';
export const CALLBACK_PATH = '/v2/auth/social/verify/callback';
/** The simulated Microsoft Entra tenant of the development defaults (the simulator serves any tenant id). */
export const SIMULATOR_MICROSOFT_TENANT = '7d3c1c5e-5f43-4a8f-9d36-2a8a0c4f1b6e';

/** The documented scopes each provider needs for an identity with an e-mail address. */
const SCOPES: Record<SocialProvider, string> = {
  // https://developers.google.com/identity/openid-connect/openid-connect#scope-param
  google: 'openid email profile',
  // https://learn.microsoft.com/entra/identity-platform/scopes-oidc#openid-connect-scopes
  microsoft: 'openid email profile',
  // https://docs.github.com/apps/oauth-apps/building-oauth-apps/scopes-for-oauth-apps: the profile and
  // the addresses (/user/emails needs user:email); GitHub knows no `openid`
  github: 'read:user user:email',
};

function simulatorDefaults(provider: SocialProvider): ProviderSettings {
  const base = `/_dev/oauth/${provider}`;
  const scope = SCOPES[provider];
  if (provider === 'google') return { issuer: base, clientSecret: SIMULATOR_CLIENT_SECRET, scope };
  if (provider === 'microsoft') return { issuer: `${base}/${SIMULATOR_MICROSOFT_TENANT}/v2.0`, clientSecret: SIMULATOR_CLIENT_SECRET, scope };
  return {
    authorizeUrl: `${base}/login/oauth/authorize`,
    tokenUrl: `${base}/login/oauth/access_token`,
    userinfoUrl: `${base}/api/user`,
    emailsUrl: `${base}/api/user/emails`,
    clientSecret: SIMULATOR_CLIENT_SECRET,
    scope,
  };
}

/** The real providers (production's defaults). */
const REAL: Record<SocialProvider, ProviderSettings> = {
  google: { issuer: 'https://accounts.google.com', scope: SCOPES.google },
  // `common`: work, school and personal accounts; openid-client checks the token's own tenant in `iss`
  microsoft: { issuer: 'https://login.microsoftonline.com/common/v2.0', scope: SCOPES.microsoft },
  github: {
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    userinfoUrl: 'https://api.github.com/user',
    emailsUrl: 'https://api.github.com/user/emails',
    scope: SCOPES.github,
  },
};

export type ProviderOverrides = Partial<Record<SocialProvider, Partial<ProviderSettings>>>;

/** The defaults of the mode (simulator or real providers) with per-provider overrides, e.g. from the environment. */
export function socialSettings(overrides: ProviderOverrides = {}, mode: 'development' | 'production' = 'development'): SocialSettings {
  const settings = {} as SocialSettings;
  for (const provider of SOCIAL_PROVIDERS) {
    const given = Object.fromEntries(Object.entries(overrides[provider] ?? {}).filter(([, v]) => v !== undefined && v !== ''));
    settings[provider] = { ...(mode === 'production' ? REAL[provider] : simulatorDefaults(provider)), ...given };
  }
  return settings;
}

/** SOCIAL_<PROVIDER>_ISSUER, _AUTHORIZE_URL, _TOKEN_URL, _USERINFO_URL, _CLIENT_ID, _CLIENT_SECRET, _SCOPE; SOCIAL_GITHUB_EMAILS_URL. */
export function socialOverridesFromEnv(env: NodeJS.ProcessEnv): ProviderOverrides {
  const overrides: ProviderOverrides = {};
  for (const provider of SOCIAL_PROVIDERS) {
    const read = (name: string) => env[settingVariable(provider, name)] || undefined;
    const entry: Partial<ProviderSettings> = {
      issuer: read('ISSUER'),
      authorizeUrl: read('AUTHORIZE_URL'),
      tokenUrl: read('TOKEN_URL'),
      userinfoUrl: read('USERINFO_URL'),
      ...(provider === 'github' ? { emailsUrl: read('EMAILS_URL') } : {}),
      clientId: read('CLIENT_ID'),
      clientSecret: read('CLIENT_SECRET'),
      scope: read('SCOPE'),
    };
    const given = Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined));
    if (Object.keys(given).length > 0) overrides[provider] = given;
  }
  return overrides;
}

/** The URL settings and the variable that sets each (SOCIAL_<PROVIDER>_<variable>). */
export const URL_SETTINGS = [
  ['issuer', 'ISSUER'],
  ['authorizeUrl', 'AUTHORIZE_URL'],
  ['tokenUrl', 'TOKEN_URL'],
  ['userinfoUrl', 'USERINFO_URL'],
  ['emailsUrl', 'EMAILS_URL'],
] as const satisfies readonly (readonly [keyof ProviderSettings, string])[];

/** The variable that sets one of a provider's settings. */
export function settingVariable(provider: SocialProvider, variable: string): string {
  return `SOCIAL_${provider.toUpperCase()}_${variable}`;
}

/** What a provider's settings lack or get wrong, each naming the variable to set; empty when usable. */
export function settingsProblems(settings: SocialSettings): string[] {
  const problems: string[] = [];
  for (const provider of SOCIAL_PROVIDERS) {
    const p = settings[provider];
    // GitHub has no discovery: every endpoint is needed; an OpenID Connect provider names its own
    const needed = URL_SETTINGS.filter(([key]) => (provider === 'github' ? key !== 'issuer' : key === 'issuer'));
    for (const [key, variable] of needed) if (!p[key]) problems.push(`social provider ${provider}: ${settingVariable(provider, variable)} is needed`);
    for (const [key, variable] of URL_SETTINGS) {
      const value = p[key];
      if (value !== undefined && !isHttpUrlOrPath(value)) problems.push(`social provider ${provider}: ${settingVariable(provider, variable)} must be an http(s) URL or an absolute path, got ${value}`);
    }
  }
  return problems;
}

function isHttpUrlOrPath(value: string): boolean {
  try {
    const url = new URL(value, 'http://localhost/');
    return (url.protocol === 'http:' || url.protocol === 'https:') && (value.startsWith('/') || /^https?:\/\//i.test(value));
  } catch {
    return false;
  }
}
