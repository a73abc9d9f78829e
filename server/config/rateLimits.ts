// The abuse limits a project enforces: sliding windows, each a number of events per window. Every
// limit has a safe default; a project's `limits` overrides any of them (README: "Abuse limits").
import { int, obj, optional, type Check, type Issue } from '../schema.ts';

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

const MINUTE = 60;
const HOUR = 3600;

export const DEFAULT_RATE_LIMITS = {
  /** codes and links sent to one e-mail address */
  emailSendsPerIdentifier: { max: 5, windowSeconds: 15 * MINUTE },
  /** codes sent to one phone number (an SMS costs money: stricter) */
  smsSendsPerIdentifier: { max: 3, windowSeconds: 15 * MINUTE },
  /** e-mails sent on behalf of one client address */
  emailSendsPerIp: { max: 20, windowSeconds: HOUR },
  /** SMS sent on behalf of one client address */
  smsSendsPerIp: { max: 10, windowSeconds: HOUR },
  /** e-mails the project sends in all */
  emailSendsPerProject: { max: 1000, windowSeconds: HOUR },
  /** SMS the project sends in all */
  smsSendsPerProject: { max: 200, windowSeconds: HOUR },
  /** wrong codes entered for one identifier, across processes (each code also dies after 5) */
  codeAttemptsPerIdentifier: { max: 10, windowSeconds: 15 * MINUTE },
  /** wrong codes entered from one client address */
  codeAttemptsPerIp: { max: 30, windowSeconds: 15 * MINUTE },
  /** processes started from one client address */
  processInitsPerIp: { max: 60, windowSeconds: MINUTE },
  /** log-in attempts (account lookups) from one client address */
  loginInitsPerIp: { max: 20, windowSeconds: MINUTE },
  /** passkey ceremonies started (append and log-in) from one client address */
  passkeyStartsPerIp: { max: 30, windowSeconds: MINUTE },
  /** Backend API calls made with one API secret (the host's backend) */
  backendApiRequestsPerSecret: { max: 6000, windowSeconds: MINUTE },
} satisfies Record<string, RateLimit>;

/**
 * Limits of the whole server, across all its projects (README: "Abuse limits"): what one address
 * receives whatever project sends it, so that projects relaxing or adding up their own limits do not
 * turn the server into a mail bomb. Server settings (settings.ts), not a project's.
 */
export const DEFAULT_SERVER_RATE_LIMITS = {
  /** codes and links sent to one e-mail address by all projects together */
  emailSendsPerIdentifier: { max: 10, windowSeconds: 15 * MINUTE },
  /** SMS sent to one phone number by all projects together */
  smsSendsPerIdentifier: { max: 6, windowSeconds: 15 * MINUTE },
} satisfies Record<string, RateLimit>;

export type ServerRateLimitName = keyof typeof DEFAULT_SERVER_RATE_LIMITS;
export type ServerRateLimits = Record<ServerRateLimitName, RateLimit>;

export type RateLimitName = keyof typeof DEFAULT_RATE_LIMITS;
export type RateLimits = Record<RateLimitName, RateLimit>;
export const RATE_LIMIT_NAMES = Object.keys(DEFAULT_RATE_LIMITS) as RateLimitName[];

type PartialLimits = Partial<Record<RateLimitName, Partial<RateLimit> | undefined>>;

const limitSchema = optional(obj({ max: optional(int({ min: 1, max: 1_000_000_000 })), windowSeconds: optional(int({ min: 1, max: 86_400 })) }));

const knownLimits = obj(Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [name, limitSchema])) as Record<RateLimitName, typeof limitSchema>);

/**
 * The schema of a project's `limits`: any subset of the limits, each with max and/or windowSeconds. A
 * misspelt name is an error, not a limit silently left at its default.
 */
export const rateLimitsSchema: Check<PartialLimits> = Object.assign(
  (value: unknown, path: string, issues: Issue[]): PartialLimits => {
    const limits = knownLimits(value, path, issues) as PartialLimits;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const key of Object.keys(value)) {
        if (!(RATE_LIMIT_NAMES as string[]).includes(key)) issues.push({ field: `${path}.${key}`, message: `is not a limit; known: ${RATE_LIMIT_NAMES.join(', ')}` });
      }
    }
    return limits;
  },
  { optional: false },
);

export function resolveRateLimits(given: PartialLimits | undefined): RateLimits {
  return Object.fromEntries(
    RATE_LIMIT_NAMES.map((name) => [name, { ...DEFAULT_RATE_LIMITS[name], ...definedOnly(given?.[name]) }]),
  ) as RateLimits;
}

function definedOnly(limit: Partial<RateLimit> | undefined): Partial<RateLimit> {
  return Object.fromEntries(Object.entries(limit ?? {}).filter(([, v]) => v !== undefined));
}
