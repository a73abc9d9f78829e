// A project's configuration: its type, defaults, validation and the ${DEMO_ORIGIN} placeholder.
import type { IdentifierType, SocialProvider, VerificationMethod } from '../../src/core/api/types.ts';
import { ApiError } from '../ApiError.ts';
import { arr, bool, int, obj, oneOf, optional, str, type Issue } from '../schema.ts';
import { rateLimitsSchema, resolveRateLimits, type RateLimits } from './rateLimits.ts';
import { parseSignupFields, type SignupField } from './signupFields.ts';

export type { IdentifierType, SocialProvider, VerificationMethod };

export const IDENTIFIER_TYPES = ['email', 'phone', 'username'] as const satisfies readonly IdentifierType[];
export const VERIFICATIONS = ['none', 'email-otp', 'email-link', 'phone-otp'] as const satisfies readonly (VerificationMethod | 'none')[];
export type Verification = (typeof VERIFICATIONS)[number];

export const SOCIAL_PROVIDERS = ['google', 'microsoft', 'github'] as const satisfies readonly SocialProvider[];

/**
 * The languages of the server's messages (a project's `language`, and a visitor's where the widget
 * names it) and of sign-up field labels (en and de required).
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface IdentifierConfig {
  enabled: boolean;
  required: boolean;
  collectAt: 'signup' | 'later';
  verification: Verification;
  loginIdentifier: boolean;
  /** how many of this type a user may hold (added in the account); more than one makes "primary" a choice */
  maxPerUser: number;
  /** e-mail only: 'after-signup' creates the account first and verifies the address after (post-signup-email-verify) */
  verifyAt: 'signup' | 'after-signup';
}

export interface ProjectConfig {
  id: string;
  appName: string;
  allowedOrigins: string[];
  rpId: string;
  rpName: string;
  /** always holds all three types; a type the project does not use has enabled=false */
  identifiers: Record<IdentifierType, IdentifierConfig>;
  publicSignup: boolean;
  fullNameRequired: boolean;
  passkeys: boolean;
  passkeyAppend: 'before-verification' | 'after-verification';
  /** after a log-in with a passkey from another device (hybrid), offer one for this device */
  passkeyAppendAfterHybrid: boolean;
  socialProviders: SocialProvider[];
  shortSessionLifetimeSeconds: number;
  longSessionLifetimeSeconds: number;
  /** how long the audit trail keeps a record (days; older ones go in batches) */
  auditRetentionDays: number;
  /**
   * How recent a log-in must be for what cannot be undone (deleting the account, removing a login
   * identifier, changing the primary address, deleting the last passkey); older ones give a fresh proof.
   */
  recentLoginSeconds: number;
  shortSessionCookie: { domain: string; secure: boolean; sameSite: 'lax' | 'strict' | 'none'; path: string };
  environment: 'dev' | 'prod';
  /** the messages' language where the visitor's is not known (or has no texts) */
  language: Language;
  /** e-mails: `#rrggbb` for the top bar, the app's name and the button (a default blue without it) */
  emailAccentColor?: string;
  /** e-mails: an https URL of the logo shown above the app's name (none without it) */
  emailLogoUrl?: string;
  hideBadge: boolean;
  emailLinkUrl: string;
  /**
   * An e-mail link opened in another browser than the one that asked for it: `confirm` shows what it
   * would approve and lets the person approve it, decline it or continue there; `refuse` offers only
   * to continue there. Either way opening it changes nothing.
   */
  emailLinkOtherDevice: 'confirm' | 'refuse';
  /**
   * A page on another site than this API, in a browser that keeps no cookie of the API there (Safari,
   * strict privacy settings): `storage` hands the long session to the widget too, which keeps it in the
   * page's storage (as dev projects do: script on the page can read it); `short-only` keeps only the
   * short session there, and the widget tells the host (Corbado.sessionPersistence). Browsers that keep
   * the Partitioned cookie (http/crossSite.ts) get it either way.
   */
  crossSiteSessions: 'storage' | 'short-only';
  processLifetimeSeconds: number;
  /** abuse limits (config/rateLimits.ts): every limit, defaults filled in */
  limits: RateLimits;
  /** the project's own sign-up fields (config/signupFields.ts) */
  signupFields: SignupField[];
}

/**
 * Whether the long session also travels in the answer's body, for the widget to keep in the page's
 * storage: for a dev project, and from a page on another site for a project with
 * `crossSiteSessions: "storage"`; else only as the HttpOnly cookie.
 */
export function handsOutLongSession(project: ProjectConfig, crossSite: boolean | undefined): boolean {
  return project.environment === 'dev' || (crossSite === true && project.crossSiteSessions === 'storage');
}

/** Whether users log in with identifiers of this type. */
export function logsIn(project: ProjectConfig, type: IdentifierType): boolean {
  const cfg = project.identifiers[type];
  return cfg.enabled && cfg.loginIdentifier;
}

/** pro-1, pro-1000 …; `pro-console` is the console's own project (server/console/) */
export const PROJECT_ID_PATTERN = /^pro-(?:\d+|console)$/;
export const DEMO_ORIGIN_PLACEHOLDER = '${DEMO_ORIGIN}';

/** Which verification methods each identifier type may use. */
const ALLOWED_VERIFICATIONS: Record<IdentifierType, readonly Verification[]> = {
  email: ['none', 'email-otp', 'email-link'],
  phone: ['none', 'phone-otp'],
  username: ['none'],
};

const DEFAULT_VERIFICATION: Record<IdentifierType, Verification> = {
  email: 'email-otp',
  phone: 'phone-otp',
  username: 'none',
};

const DISABLED: IdentifierConfig = {
  enabled: false,
  required: false,
  collectAt: 'signup',
  verification: 'none',
  loginIdentifier: false,
  maxPerUser: 1,
  verifyAt: 'signup',
};

/** Room for a second e-mail address or phone number, so a user can move to a new one; one username. */
const DEFAULT_MAX_PER_USER: Record<IdentifierType, number> = { email: 2, phone: 2, username: 1 };

/**
 * The settings with a default of their own, for a configuration that leaves them out or was stored
 * before they existed. (Origins, the relying party's name, the environment and the e-mail link page
 * derive from other settings: resolveProjectConfig.)
 */
const SETTING_DEFAULTS = {
  rpId: 'localhost',
  publicSignup: true,
  fullNameRequired: false,
  passkeys: true,
  passkeyAppend: 'after-verification',
  passkeyAppendAfterHybrid: false,
  socialProviders: [],
  shortSessionLifetimeSeconds: 300,
  longSessionLifetimeSeconds: 30 * 86_400,
  auditRetentionDays: 365,
  recentLoginSeconds: 300,
  language: 'en',
  hideBadge: false,
  emailLinkOtherDevice: 'confirm',
  crossSiteSessions: 'short-only',
  processLifetimeSeconds: 3600,
  signupFields: [],
} as const satisfies Partial<ProjectConfig>;

const COOKIE_DEFAULTS: ProjectConfig['shortSessionCookie'] = { domain: '', secure: false, sameSite: 'lax', path: '/' };

/** An identifier type's settings, those left out filled in; a type not given or not enabled is off. */
function identifierWithDefaults(type: IdentifierType, given: Partial<IdentifierConfig> | undefined): IdentifierConfig {
  if (!given || given.enabled === false) return { ...DISABLED };
  return {
    enabled: true,
    required: true,
    collectAt: 'signup',
    verification: DEFAULT_VERIFICATION[type],
    loginIdentifier: true,
    maxPerUser: DEFAULT_MAX_PER_USER[type],
    verifyAt: 'signup',
    ...given,
  };
}

/** A stored configuration; one stored before a setting existed gets that setting's default. */
export function storedProjectConfig(stored: ProjectConfig): ProjectConfig {
  const missing = Object.entries(SETTING_DEFAULTS).filter(([key]) => stored[key as keyof ProjectConfig] === undefined);
  const identifiers = Object.fromEntries(IDENTIFIER_TYPES.map((t) => [t, identifierWithDefaults(t, stored.identifiers?.[t])]));
  return {
    ...stored,
    ...Object.fromEntries(missing),
    identifiers: identifiers as ProjectConfig['identifiers'],
    shortSessionCookie: { ...COOKIE_DEFAULTS, ...stored.shortSessionCookie },
    limits: resolveRateLimits(stored.limits),
  };
}

const identifierSchema = obj({
  enabled: optional(bool()),
  required: optional(bool()),
  collectAt: optional(oneOf(['signup', 'later'] as const)),
  verification: optional(oneOf(VERIFICATIONS)),
  loginIdentifier: optional(bool()),
  maxPerUser: optional(int({ min: 1, max: 10 })),
  verifyAt: optional(oneOf(['signup', 'after-signup'] as const)),
});

const partialSchema = obj({
  appName: optional(str({ min: 1, max: 100 })),
  allowedOrigins: optional(arr(str({ min: 1, max: 200 }), { max: 20 })),
  rpId: optional(str({ min: 1, max: 253 })),
  rpName: optional(str({ min: 1, max: 100 })),
  identifiers: optional(
    obj({ email: optional(identifierSchema), phone: optional(identifierSchema), username: optional(identifierSchema) }),
  ),
  publicSignup: optional(bool()),
  fullNameRequired: optional(bool()),
  passkeys: optional(bool()),
  passkeyAppend: optional(oneOf(['before-verification', 'after-verification'] as const)),
  passkeyAppendAfterHybrid: optional(bool()),
  socialProviders: optional(arr(oneOf(SOCIAL_PROVIDERS), { max: 3 })),
  shortSessionLifetimeSeconds: optional(int({ min: 10, max: 86_400 })),
  longSessionLifetimeSeconds: optional(int({ min: 60, max: 366 * 86_400 })),
  auditRetentionDays: optional(int({ min: 1, max: 3650 })),
  recentLoginSeconds: optional(int({ min: 1, max: 86_400 })),
  shortSessionCookie: optional(
    obj({
      domain: optional(str({ max: 253 })),
      secure: optional(bool()),
      sameSite: optional(oneOf(['lax', 'strict', 'none'] as const)),
      path: optional(str({ min: 1, max: 200 })),
    }),
  ),
  environment: optional(oneOf(['dev', 'prod'] as const)),
  language: optional(oneOf(LANGUAGES)),
  emailAccentColor: optional(str({ pattern: /^#[0-9a-fA-F]{6}$/ })),
  emailLogoUrl: optional(str({ min: 1, max: 500 })),
  hideBadge: optional(bool()),
  emailLinkUrl: optional(str({ min: 1, max: 500 })),
  emailLinkOtherDevice: optional(oneOf(['confirm', 'refuse'] as const)),
  crossSiteSessions: optional(oneOf(['storage', 'short-only'] as const)),
  processLifetimeSeconds: optional(int({ min: 60, max: 7 * 86_400 })),
  limits: optional(rateLimitsSchema),
});

/** Replaces the placeholder; without a demo origin it stays (and fails the URL checks that follow). */
function expand(value: string, demoOrigin: string | undefined): string {
  return demoOrigin === undefined ? value : value.split(DEMO_ORIGIN_PLACEHOLDER).join(demoOrigin);
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Builds a full configuration from a partial one (a seed entry, a POST /_dev/projects body or the
 * admin command's file). With a demo origin, origins and the e-mail link page default to the demo
 * pages; without one (production projects) `allowedOrigins` must be given, and the link opens the
 * first of them. Throws a 400 ApiError listing every problem.
 */
export function resolveProjectConfig(id: string, input: unknown, demoOrigin: string | undefined): ProjectConfig {
  const issues: Issue[] = [];
  const partial = partialSchema(input, '', issues);
  const signupFields = parseSignupFields((input as { signupFields?: unknown } | null)?.signupFields, issues, (url) => expand(url, demoOrigin));
  if (issues.length > 0) throw ApiError.invalidRequest('The project configuration is invalid', issues);

  const appName = partial.appName ?? 'Demo App';
  const identifiers = {} as Record<IdentifierType, IdentifierConfig>;
  const givenIdentifiers = partial.identifiers ?? { email: {} };
  for (const type of IDENTIFIER_TYPES) {
    identifiers[type] = identifierWithDefaults(type, givenIdentifiers[type]);
    if (!identifiers[type].enabled) continue;
    if (identifiers[type].verifyAt === 'after-signup' && (type !== 'email' || identifiers[type].verification === 'none')) {
      issues.push({ field: `identifiers.${type}.verifyAt`, message: "'after-signup' is for an e-mail address that is verified" });
    }
    if (type === 'username' && identifiers[type].maxPerUser > 1) {
      issues.push({ field: 'identifiers.username.maxPerUser', message: 'must be 1: a user has one username' });
    }
    if (!ALLOWED_VERIFICATIONS[type].includes(identifiers[type].verification)) {
      issues.push({
        field: `identifiers.${type}.verification`,
        message: `must be one of ${ALLOWED_VERIFICATIONS[type].join(', ')}`,
      });
    }
  }
  const enabledTypes = IDENTIFIER_TYPES.filter((t) => identifiers[t].enabled);
  if (enabledTypes.length === 0) issues.push({ field: 'identifiers', message: 'must enable at least one identifier' });
  else if (!enabledTypes.some((t) => identifiers[t].collectAt === 'signup')) {
    issues.push({ field: 'identifiers', message: 'at least one identifier must be collected at signup' });
  }
  if (enabledTypes.length > 0 && !enabledTypes.some((t) => identifiers[t].loginIdentifier)) {
    issues.push({ field: 'identifiers', message: 'at least one identifier must be a login identifier' });
  }

  if ((partial.socialProviders ?? []).length > 0 && !identifiers.email.enabled) {
    issues.push({ field: 'socialProviders', message: 'need the email identifier: social sign-in creates users by their e-mail address' });
  }

  if (demoOrigin === undefined && !partial.allowedOrigins?.length) {
    issues.push({ field: 'allowedOrigins', message: 'is required: the origins of the pages that embed the widget' });
  }
  const allowedOrigins = (partial.allowedOrigins ?? (demoOrigin === undefined ? [] : [DEMO_ORIGIN_PLACEHOLDER])).map((o) => expand(o, demoOrigin));
  allowedOrigins.forEach((origin, i) => {
    if (!isOrigin(origin)) issues.push({ field: `allowedOrigins[${i}]`, message: 'must be an origin like https://example.com' });
  });
  // by default the link opens the demo's combined view for this project
  const defaultLinkPage = demoOrigin === undefined ? `${allowedOrigins[0] ?? ''}/` : `${DEMO_ORIGIN_PLACEHOLDER}/?project=${id}`;
  const emailLinkUrl = expand(partial.emailLinkUrl ?? defaultLinkPage, demoOrigin);
  const linkDerivedFromMissingOrigins = demoOrigin === undefined && allowedOrigins.length === 0 && partial.emailLinkUrl === undefined;
  if (partial.emailLogoUrl !== undefined && !isHttpsUrl(partial.emailLogoUrl)) {
    issues.push({ field: 'emailLogoUrl', message: 'must be an https URL (mail clients block or warn about others)' });
  }
  if (!isHttpUrl(emailLinkUrl) && !linkDerivedFromMissingOrigins) issues.push({ field: 'emailLinkUrl', message: 'must be an http(s) URL' });
  if (issues.length > 0) throw ApiError.invalidRequest('The project configuration is invalid', issues);

  const d = SETTING_DEFAULTS;
  return {
    id,
    appName,
    allowedOrigins,
    rpId: partial.rpId ?? d.rpId,
    rpName: partial.rpName ?? appName,
    identifiers,
    publicSignup: partial.publicSignup ?? d.publicSignup,
    fullNameRequired: partial.fullNameRequired ?? d.fullNameRequired,
    passkeys: partial.passkeys ?? d.passkeys,
    passkeyAppend: partial.passkeyAppend ?? d.passkeyAppend,
    passkeyAppendAfterHybrid: partial.passkeyAppendAfterHybrid ?? d.passkeyAppendAfterHybrid,
    socialProviders: [...new Set(partial.socialProviders ?? d.socialProviders)],
    shortSessionLifetimeSeconds: partial.shortSessionLifetimeSeconds ?? d.shortSessionLifetimeSeconds,
    longSessionLifetimeSeconds: partial.longSessionLifetimeSeconds ?? d.longSessionLifetimeSeconds,
    auditRetentionDays: partial.auditRetentionDays ?? d.auditRetentionDays,
    recentLoginSeconds: partial.recentLoginSeconds ?? d.recentLoginSeconds,
    // the schema leaves out what is not given, so a spread keeps the defaults where the partial is silent
    shortSessionCookie: { ...COOKIE_DEFAULTS, ...partial.shortSessionCookie },
    // demo projects hand out the long session in the body as well; created ones only as a cookie
    environment: partial.environment ?? (demoOrigin === undefined ? 'prod' : 'dev'),
    language: partial.language ?? d.language,
    ...(partial.emailAccentColor !== undefined ? { emailAccentColor: partial.emailAccentColor.toLowerCase() } : {}),
    ...(partial.emailLogoUrl !== undefined ? { emailLogoUrl: partial.emailLogoUrl } : {}),
    hideBadge: partial.hideBadge ?? d.hideBadge,
    emailLinkUrl,
    emailLinkOtherDevice: partial.emailLinkOtherDevice ?? d.emailLinkOtherDevice,
    crossSiteSessions: partial.crossSiteSessions ?? d.crossSiteSessions,
    processLifetimeSeconds: partial.processLifetimeSeconds ?? d.processLifetimeSeconds,
    limits: resolveRateLimits(partial.limits),
    signupFields,
  };
}

/**
 * For a project created under an id the store chooses: checks the partial configuration now (a 400
 * listing every problem, before an id is taken) and answers what builds it once the id is known.
 */
export function projectBuilder(input: unknown, demoOrigin: string | undefined): (id: string) => ProjectConfig {
  resolveProjectConfig('pro-0', input, demoOrigin);
  return (id) => resolveProjectConfig(id, input, demoOrigin);
}
