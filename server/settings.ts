// The server's settings from the environment (README: "Environment"), for main.ts and the admin command.
import type { StartOptions } from './app.ts';
import { DEFAULT_SERVER_RATE_LIMITS, type RateLimit, type ServerRateLimitName, type ServerRateLimits } from './config/rateLimits.ts';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from './events/WebhookEvents.ts';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from './senders/DeliveryWorker.ts';
import type { SmtpSettings } from './senders/Messenger.ts';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './store/DatabaseUnavailable.ts';
import { CommandSmsSender, WebhookSmsSender, type SmsSender } from './senders/SmsSender.ts';
import { socialOverridesFromEnv } from './social/providerSettings.ts';

export const DEFAULT_DATABASE_PATH = '.data/corbado.sqlite';

/** DATABASE_URL (postgres://…) wins over DATABASE_PATH (a SQLite file). */
export function databaseFromEnv(env: NodeJS.ProcessEnv): string {
  return env.DATABASE_URL || env.DATABASE_PATH || DEFAULT_DATABASE_PATH;
}

export function isProduction(env: NodeJS.ProcessEnv, argv: readonly string[]): boolean {
  return argv.includes('--production') || env.CORBADO_ENV === 'production';
}

function smtpFromEnv(env: NodeJS.ProcessEnv): SmtpSettings | undefined {
  if (env.SMTP_URL) return { url: env.SMTP_URL, ...(env.SMTP_FROM ? { from: env.SMTP_FROM } : {}) };
  if (!env.SMTP_HOST) return undefined;
  return {
    host: env.SMTP_HOST,
    ...(env.SMTP_PORT ? { port: Number(env.SMTP_PORT) } : {}),
    ...(env.SMTP_USER ? { user: env.SMTP_USER } : {}),
    ...(env.SMTP_PASS ? { pass: env.SMTP_PASS } : {}),
    ...(env.SMTP_FROM ? { from: env.SMTP_FROM } : {}),
  };
}

function smsFromEnv(env: NodeJS.ProcessEnv): SmsSender | undefined {
  if (env.SMS_WEBHOOK_URL) return new WebhookSmsSender(env.SMS_WEBHOOK_URL, env.SMS_WEBHOOK_TOKEN || undefined);
  if (env.SMS_COMMAND) return new CommandSmsSender(env.SMS_COMMAND);
  return undefined;
}

function port(env: NodeJS.ProcessEnv, variable = 'API_PORT', fallback = '3001'): number {
  const value = Number(env[variable] ?? fallback);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) throw new Error(`${variable} must be a port number, got ${env[variable]}`);
  return value;
}

/** The Backend API's port (BACKEND_API_PORT, default 3002; `off`: no Backend API listener) and its host. */
export function backendApiFromEnv(env: NodeJS.ProcessEnv): { backendApiPort?: number; backendApiHost?: string } {
  if (env.BACKEND_API_PORT?.trim().toLowerCase() === 'off') return {};
  return { backendApiPort: port(env, 'BACKEND_API_PORT', '3002'), ...(env.BACKEND_API_HOST ? { backendApiHost: env.BACKEND_API_HOST } : {}) };
}

/** The console's port (CONSOLE_PORT; `off`: no console listener; unset: none, `npm start` says 3003) and its host. */
export function consoleFromEnv(env: NodeJS.ProcessEnv, fallback?: string): { consolePort?: number; consoleHost?: string; consolePublicUrl?: string } {
  const value = env.CONSOLE_PORT?.trim().toLowerCase();
  if (value === 'off' || (value === undefined && fallback === undefined)) return {};
  return {
    consolePort: port(env, 'CONSOLE_PORT', fallback),
    ...(env.CONSOLE_HOST ? { consoleHost: env.CONSOLE_HOST } : {}),
    ...(env.CONSOLE_PUBLIC_URL ? { consolePublicUrl: consoleUrl(env.CONSOLE_PUBLIC_URL) } : {}),
  };
}

function consoleUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new Error(`CONSOLE_PUBLIC_URL must be an http(s) origin, got ${value}`);
  return url.origin;
}

/** The console's origin as the browser sees it: CONSOLE_PUBLIC_URL, else the local listener's (the admin command, before a server runs). */
export function consoleOriginFromEnv(env: NodeJS.ProcessEnv): string {
  if (env.CONSOLE_PUBLIC_URL) return consoleUrl(env.CONSOLE_PUBLIC_URL);
  const value = env.CONSOLE_PORT?.trim().toLowerCase();
  return `http://localhost:${value && value !== 'off' ? port(env, 'CONSOLE_PORT', '3003') : 3003}`;
}

/** The server's limits across projects from `SERVER_*_SENDS_PER_IDENTIFIER` (`max` or `max/windowSeconds`). */
function serverLimitsFromEnv(env: NodeJS.ProcessEnv): Partial<ServerRateLimits> {
  const variables: Record<ServerRateLimitName, string> = {
    emailSendsPerIdentifier: 'SERVER_EMAIL_SENDS_PER_IDENTIFIER',
    smsSendsPerIdentifier: 'SERVER_SMS_SENDS_PER_IDENTIFIER',
  };
  const limits: Partial<ServerRateLimits> = {};
  for (const [name, variable] of Object.entries(variables) as [ServerRateLimitName, string][]) {
    const value = env[variable];
    if (value) limits[name] = limitSetting(variable, value, name);
  }
  return limits;
}

function limitSetting(variable: string, value: string, name: ServerRateLimitName): RateLimit {
  const match = /^\s*(\d+)\s*(?:\/\s*(\d+)\s*)?$/.exec(value);
  const max = Number(match?.[1]);
  const windowSeconds = match?.[2] === undefined ? undefined : Number(match[2]);
  if (!match || max < 1 || (windowSeconds !== undefined && (windowSeconds < 1 || windowSeconds > 86_400))) {
    throw new Error(`${variable} must be a number of messages, optionally with a window of 1 to 86400 seconds (e.g. 10/900), got ${value}`);
  }
  return { max, windowSeconds: windowSeconds ?? DEFAULT_SERVER_RATE_LIMITS[name].windowSeconds };
}

/** The bounds on waits for the database, in milliseconds; each variable replaces its default. */
export function databaseTimeoutsFromEnv(env: NodeJS.ProcessEnv): Partial<DatabaseTimeouts> {
  const variables: Record<keyof DatabaseTimeouts, string> = {
    connectMs: 'DATABASE_CONNECT_TIMEOUT_MS',
    poolCheckoutMs: 'DATABASE_POOL_TIMEOUT_MS',
    statementMs: 'DATABASE_STATEMENT_TIMEOUT_MS',
    lockMs: 'DATABASE_LOCK_TIMEOUT_MS',
    idleInTransactionMs: 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
    busyMs: 'DATABASE_BUSY_TIMEOUT_MS',
  };
  const timeouts: Partial<DatabaseTimeouts> = {};
  for (const [name, variable] of Object.entries(variables) as [keyof DatabaseTimeouts, string][]) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    const ms = Number(value);
    // 0 would mean "wait for ever" to PostgreSQL: the very thing these bounds exist to prevent
    if (!/^\s*\d+\s*$/.test(value) || ms < 1 || ms > 600_000) {
      throw new Error(`${variable} must be a number of milliseconds from 1 to 600000 (default ${DEFAULT_DATABASE_TIMEOUTS[name]}), got ${value}`);
    }
    timeouts[name] = ms;
  }
  return timeouts;
}

/** An on/off setting: `on`/`true`/`1` or `off`/`false`/`0`; undefined when unset. */
function switchSetting(env: NodeJS.ProcessEnv, variable: string): boolean | undefined {
  const value = env[variable]?.trim().toLowerCase();
  if (value === undefined || value === '') return undefined;
  if (['on', 'true', '1'].includes(value)) return true;
  if (['off', 'false', '0'].includes(value)) return false;
  throw new Error(`${variable} must be on or off, got ${env[variable]}`);
}

/** Whole-number settings: each variable set replaces its default, within its bounds (a value out of them stops the start-up, naming it). */
function wholeNumbers<K extends string>(env: NodeJS.ProcessEnv, variables: Record<K, [string, number, number]>, defaults: Record<K, number>): Partial<Record<K, number>> {
  const settings: Partial<Record<K, number>> = {};
  for (const [name, [variable, min, max]] of Object.entries(variables) as [K, [string, number, number]][]) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    const number = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || number < min || number > max) {
      throw new Error(`${variable} must be a whole number from ${min} to ${max} (default ${defaults[name]}), got ${value}`);
    }
    settings[name] = number;
  }
  return settings;
}

/** How messages go out (README: "Delivery of codes and links"); each variable replaces its default. */
export function deliveryFromEnv(env: NodeJS.ProcessEnv): Partial<DeliverySettings> {
  return wholeNumbers<keyof DeliverySettings>(
    env,
    {
      batchSize: ['DELIVERY_BATCH_SIZE', 1, 500],
      sendTimeoutMs: ['DELIVERY_SEND_TIMEOUT_MS', 1_000, 120_000],
      pollMs: ['DELIVERY_POLL_MS', 10, 60_000],
      retryBaseMs: ['DELIVERY_RETRY_BASE_MS', 100, 600_000],
      retryMaxMs: ['DELIVERY_RETRY_MAX_MS', 100, 600_000],
    },
    DEFAULT_DELIVERY_SETTINGS,
  );
}

/** How webhook events go out (README: "Webhooks"); each variable replaces its default. */
export function webhookSettingsFromEnv(env: NodeJS.ProcessEnv): Partial<WebhookSettings> {
  const { giveUpSeconds, ...numbers } = wholeNumbers<keyof DeliverySettings | 'giveUpSeconds'>(
    env,
    {
      batchSize: ['WEBHOOK_BATCH_SIZE', 1, 500],
      sendTimeoutMs: ['WEBHOOK_SEND_TIMEOUT_MS', 1_000, 60_000],
      pollMs: ['WEBHOOK_POLL_MS', 10, 60_000],
      retryBaseMs: ['WEBHOOK_RETRY_BASE_MS', 100, 3_600_000],
      retryMaxMs: ['WEBHOOK_RETRY_MAX_MS', 100, 86_400_000],
      giveUpSeconds: ['WEBHOOK_GIVE_UP_SECONDS', 60, 30 * 86_400],
    },
    { ...DEFAULT_WEBHOOK_SETTINGS, giveUpSeconds: DEFAULT_WEBHOOK_SETTINGS.giveUpMs / 1000 },
  );
  const allowPrivateNetworks = switchSetting(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS');
  return {
    ...numbers,
    ...(giveUpSeconds !== undefined ? { giveUpMs: giveUpSeconds * 1000 } : {}),
    ...(allowPrivateNetworks !== undefined ? { allowPrivateNetworks } : {}),
  };
}

export function startOptionsFromEnv(env: NodeJS.ProcessEnv, argv: readonly string[]): StartOptions {
  const smtp = smtpFromEnv(env);
  const sms = smsFromEnv(env);
  const proxies = Number(env.TRUSTED_PROXIES ?? 0);
  const poolSize = Number(env.DATABASE_POOL_SIZE ?? 0);
  if (!Number.isInteger(poolSize) || poolSize < 0) throw new Error(`DATABASE_POOL_SIZE must be a whole number, got ${env.DATABASE_POOL_SIZE}`);
  if (!Number.isInteger(proxies) || proxies < 0) throw new Error(`TRUSTED_PROXIES must be a whole number, got ${env.TRUSTED_PROXIES}`);
  const logRequests = switchSetting(env, 'LOG_REQUESTS');
  return {
    port: port(env),
    ...(env.API_HOST ? { host: env.API_HOST } : {}),
    ...backendApiFromEnv(env),
    ...consoleFromEnv(env),
    database: databaseFromEnv(env),
    ...(poolSize ? { databasePoolSize: poolSize } : {}),
    databaseTimeouts: databaseTimeoutsFromEnv(env),
    mode: isProduction(env, argv) ? 'production' : 'development',
    ...(env.PUBLIC_URL ? { publicUrl: env.PUBLIC_URL } : {}),
    demoOrigin: env.DEMO_ORIGIN ?? 'http://localhost:5173',
    ...(smtp ? { smtp } : {}),
    ...(sms ? { sms } : {}),
    ...(env.KEY_ENCRYPTION_SECRET ? { keyEncryptionSecret: env.KEY_ENCRYPTION_SECRET } : {}),
    delivery: deliveryFromEnv(env),
    webhooks: webhookSettingsFromEnv(env),
    ...(proxies ? { trustedProxies: proxies } : {}),
    ...(logRequests !== undefined ? { logRequests } : {}),
    metricsEnabled: switchSetting(env, 'METRICS_ENABLED') ?? false,
    ...(env.METRICS_TOKEN ? { metricsToken: env.METRICS_TOKEN } : {}),
    ...(env.METRICS_PORT ? { metricsPort: port(env, 'METRICS_PORT', '') } : {}),
    ...(env.METRICS_HOST ? { metricsHost: env.METRICS_HOST } : {}),
    serverLimits: serverLimitsFromEnv(env),
    socialProviders: socialOverridesFromEnv(env),
    oauthSimulator: env.OAUTH_SIMULATOR !== 'off',
    ...(env.OAUTH_SIMULATOR_CLIENT_SECRET ? { simulatorClientSecret: env.OAUTH_SIMULATOR_CLIENT_SECRET } : {}),
    ...(env.AAGUID_CATALOGUE ? { aaguidCatalogue: env.AAGUID_CATALOGUE } : {}),
  };
}
