// What production refuses to start without, and what it refuses to start with (README: "Production").
// A server in production must not hand out tokens under a URL a visitor cannot trust, nor serve
// projects meant for a developer's machine: the seeded demo projects, `environment: dev` (long sessions
// in response bodies), or pages on plain http elsewhere than the local machine.
import type { ApiOptions } from './app.ts';
import { SOCIAL_PROVIDERS, type ProjectConfig } from './config/projectConfig.ts';
import { webhookUrlProblem } from './events/webhookTargets.ts';
import { settingVariable, socialSettings, URL_SETTINGS, type SocialSettings } from './social/providerSettings.ts';
import type { Store } from './store/Store.ts';
import { onAnotherSite } from './http/crossSite.ts';

/** Hosts where plain http stays on the machine itself (a TLS proxy in front, or a developer's test). */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLocalHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
}

/** Why a PUBLIC_URL is not fit for production, or undefined when it is. */
export function publicUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `PUBLIC_URL must be an absolute https URL such as https://auth.shop.example, got ${JSON.stringify(value)}`;
  }
  if (url.protocol !== 'https:' && !isLocalHttp(url)) {
    return `PUBLIC_URL must be an https URL (http only for localhost, 127.0.0.1 or [::1]), got ${JSON.stringify(value)}`;
  }
  if (url.username || url.password || url.search || url.hash) {
    return `PUBLIC_URL must be a plain base URL, without user, password, query or fragment, got ${JSON.stringify(value)}`;
  }
  return undefined;
}

/**
 * Social providers' URLs in production: absolute https (a path would be the development simulator,
 * which production does not serve; plain http lets anyone on the way read codes and tokens).
 */
function socialProblems(settings: SocialSettings): string[] {
  const problems: string[] = [];
  for (const provider of SOCIAL_PROVIDERS) {
    for (const [key, variable] of URL_SETTINGS) {
      const value = settings[provider][key];
      if (value === undefined) continue;
      let url: URL | undefined;
      try {
        url = new URL(value);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'https:' && !isLocalHttp(url))) {
        problems.push(`${settingVariable(provider, variable)} must be an absolute https URL (the simulator's paths exist only in development), got ${JSON.stringify(value)}`);
      }
    }
  }
  return problems;
}

const fix = (id: string, what: string) => `${what}: run \`npm run admin -- projects update ${id} <file.json>\``;

/** What makes a stored project unfit for production; each reason says how to fix it. */
function projectProblems(config: ProjectConfig, seeded: boolean): string[] {
  const problems: string[] = [];
  if (seeded) {
    problems.push(
      `project ${config.id} came from the development seed (projects.json); ${fix(config.id, 'replace its configuration with your own')}, or start production on a fresh database`,
    );
  }
  if (config.environment === 'dev') problems.push(`project ${config.id} has environment "dev"; ${fix(config.id, 'set "environment": "prod"')}`);
  const insecure = config.allowedOrigins.filter((origin) => {
    try {
      const url = new URL(origin);
      return url.protocol === 'http:' && !isLocalHttp(url);
    } catch {
      return false;
    }
  });
  if (insecure.length > 0) {
    problems.push(`project ${config.id} allows http origins ${insecure.join(', ')}; ${fix(config.id, 'list https origins instead')}`);
  }
  return problems;
}

/**
 * Throws when production mode lacks a setting or has an unsafe one; the message names every missing
 * setting and every unsafe project, with how to fix it.
 */
export async function checkProductionReadiness(options: ApiOptions, store: Store): Promise<void> {
  const missing: string[] = [];
  const unsafe: string[] = [];
  if (!options.publicUrl) missing.push('PUBLIC_URL (the public https URL of this API)');
  else {
    const problem = publicUrlProblem(options.publicUrl);
    if (problem) unsafe.push(problem);
  }
  if (!options.smtp) missing.push('SMTP_URL or SMTP_HOST (e-mail delivery)');
  if (!options.sms) missing.push('SMS_WEBHOOK_URL or SMS_COMMAND (SMS delivery)');
  if (!options.keyEncryptionSecret) missing.push('KEY_ENCRYPTION_SECRET (32+ characters; encrypts the signing key and secrets in the database)');
  if (options.metricsEnabled) {
    if (!options.metricsToken) missing.push('METRICS_TOKEN with METRICS_ENABLED (16+ characters; the bearer token Prometheus sends for /metrics)');
    else if (options.metricsToken.length < 16) unsafe.push('METRICS_TOKEN must have 16+ characters');
  }
  for (const { config, source } of await store.projects.list()) {
    if (config.allowedOrigins.length === 0) missing.push(`allowedOrigins of project ${config.id}`);
    unsafe.push(...projectProblems(config, source === 'seed'));
  }
  const rules = { production: true, allowPrivateNetworks: options.webhooks?.allowPrivateNetworks ?? false };
  for (const endpoint of await store.webhookEndpoints.summaries()) {
    const problem = webhookUrlProblem(endpoint.url, rules);
    if (problem) {
      unsafe.push(
        `webhook endpoint ${endpoint.id} of project ${endpoint.projectId}: ${problem}; run \`npm run admin -- webhooks remove ${endpoint.id}\` and add it again with an https URL`,
      );
    }
  }
  unsafe.push(...socialProblems(socialSettings(options.socialProviders, 'production')));
  const reasons = [
    ...(missing.length > 0 ? [`Production mode needs: ${missing.join('; ')}`] : []),
    ...(unsafe.length > 0 ? [`Production mode refuses to start: ${unsafe.join('; ')}`] : []),
  ];
  if (reasons.length > 0) throw new Error(reasons.join('. '));
}

/** A project whose pages are (partly) on another site than this API, and what their visitors get. */
export interface CrossSiteProject {
  project: string;
  /** the allowed origins on another site than PUBLIC_URL */
  origins: string[];
  crossSiteSessions: ProjectConfig['crossSiteSessions'];
  /** in words, for the log and the readiness answer */
  visitors: string;
}

/**
 * The projects whose allowed origins are on another site than `publicUrl` (http/crossSite.ts), with
 * what their visitors get there: the long session as a Partitioned cookie where the browser keeps one
 * (Chromium, also with third-party cookies blocked; Firefox), and where it refuses it (Safari, WebKit)
 * what the project's crossSiteSessions says.
 */
export function crossSiteProjects(projects: ProjectConfig[], publicUrl: string): CrossSiteProject[] {
  const found: CrossSiteProject[] = [];
  for (const config of projects) {
    const origins = config.allowedOrigins.filter((origin) => onAnotherSite(origin, publicUrl));
    if (origins.length === 0) continue;
    const refused =
      config.environment === 'dev' || config.crossSiteSessions === 'storage'
        ? 'the widget keeps the long session in the page\'s storage, where script on the page can read it'
        : `they stay signed in only for the short session (${config.shortSessionLifetimeSeconds} s) and the widget tells the host (Corbado.sessionPersistence "short-only")`;
    found.push({
      project: config.id,
      origins,
      crossSiteSessions: config.crossSiteSessions,
      visitors: `the long session is a Partitioned cookie where the browser keeps one (Chromium, Firefox); where it refuses it (Safari/WebKit) ${refused}`,
    });
  }
  return found;
}

/** One line per such project, for the log of a production start. */
export function crossSiteNotice(found: CrossSiteProject[], publicUrl: string): string[] {
  return found.map(
    (p) =>
      `Project ${p.project}: ${p.origins.join(', ')} ${p.origins.length > 1 ? 'are' : 'is'} on another site than PUBLIC_URL ${publicUrl} (crossSiteSessions "${p.crossSiteSessions}"): ${p.visitors}. ` +
      'Serving the API on the pages\' site avoids it (README, "Where to put the server").',
  );
}
