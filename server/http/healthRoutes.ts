// Health endpoints as operators know them from Ory Kratos (/health/alive, /health/ready) and Keycloak:
// liveness says the process serves HTTP and never touches the database (an orchestrator that restarts
// an instance because its database is away only adds load); readiness says whether this instance can
// serve calls now, and why not, so that a load balancer sends traffic elsewhere meanwhile.
import type { Hono } from 'hono';
import { crossSiteProjects, type CrossSiteProject } from '../productionReadiness.ts';
import type { KeyRing } from '../session/KeyRing.ts';
import { DatabaseUnavailable } from '../store/DatabaseUnavailable.ts';
import { SCHEMA_VERSION } from '../store/migrations.ts';
import type { Store } from '../store/Store.ts';
import type { AppEnv } from './AppEnv.ts';

/** How long readiness waits for the database: below a probe's usual timeout, whatever the store's bounds. */
export const READINESS_TIMEOUT_MS = 2_000;

type Check = 'ok' | string;

/**
 * `publicUrl`: with it, readiness also lists the projects whose allowed origins are on another site
 * (`crossSite`, productionReadiness.ts: what their visitors get). It is information, not a check: such
 * an instance is ready.
 */
export function registerHealthRoutes(app: Hono<AppEnv>, store: Store, keys: KeyRing, publicUrl?: string): void {
  app.get('/health/alive', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok' });
  });

  app.get('/health/ready', async (c) => {
    c.header('Cache-Control', 'no-store');
    const checks: Record<'database' | 'migrations' | 'signingKey', Check> = {
      database: 'ok',
      migrations: 'ok',
      signingKey: await signingKeyCheck(keys),
    };
    const version = await bounded(store.schemaVersion(), READINESS_TIMEOUT_MS).catch((error: unknown) => {
      checks.database = error instanceof DatabaseUnavailable ? `unreachable: ${error.reason}` : error instanceof Error ? `unreachable: ${error.message}` : 'unreachable';
      checks.migrations = 'unknown (database unreachable)';
      return undefined;
    });
    if (version !== undefined && version !== SCHEMA_VERSION) {
      checks.migrations = `database at version ${version}, this server needs ${SCHEMA_VERSION}`;
    }
    const ready = Object.values(checks).every((check) => check === 'ok');
    if (!ready) c.header('Retry-After', '5');
    const crossSite = ready && publicUrl ? await crossSiteAnswer(store, publicUrl) : undefined;
    return c.json({ status: ready ? 'ok' : 'unavailable', checks, ...(crossSite?.length ? { crossSite } : {}) }, ready ? 200 : 503);
  });
}

async function crossSiteAnswer(store: Store, publicUrl: string): Promise<CrossSiteProject[] | undefined> {
  try {
    const projects = await bounded(store.projects.list(), READINESS_TIMEOUT_MS);
    return crossSiteProjects(projects.map((p) => p.config), publicUrl);
  } catch {
    return undefined; // the database just answered; a hiccup here says nothing about readiness
  }
}

/** The keys were opened at start-up; a token one of them signs must verify with its public key. */
async function signingKeyCheck(keys: KeyRing): Promise<Check> {
  try {
    return await keys.check();
  } catch (error) {
    return `not usable: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
