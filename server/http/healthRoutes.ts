// Health endpoints as operators know them from Ory Kratos (/health/alive, /health/ready) and Keycloak:
// liveness says the process serves HTTP and never touches the database (an orchestrator that restarts
// an instance because its database is away only adds load); readiness says whether this instance can
// serve calls now, and why not, so that a load balancer sends traffic elsewhere meanwhile.
import type { Hono } from 'hono';
import type { TokenSigner } from '../session/TokenSigner.ts';
import { DatabaseUnavailable } from '../store/DatabaseUnavailable.ts';
import { SCHEMA_VERSION } from '../store/migrations.ts';
import type { Store } from '../store/Store.ts';
import type { AppEnv } from './AppEnv.ts';

/** How long readiness waits for the database: below a probe's usual timeout, whatever the store's bounds. */
export const READINESS_TIMEOUT_MS = 2_000;

type Check = 'ok' | string;

export function registerHealthRoutes(app: Hono<AppEnv>, store: Store, signer: TokenSigner): void {
  app.get('/health/alive', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok' });
  });

  app.get('/health/ready', async (c) => {
    c.header('Cache-Control', 'no-store');
    const checks: Record<'database' | 'migrations' | 'signingKey', Check> = {
      database: 'ok',
      migrations: 'ok',
      signingKey: signingKeyCheck(signer),
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
    return c.json({ status: ready ? 'ok' : 'unavailable', checks }, ready ? 200 : 503);
  });
}

/** The key was loaded at start-up; a token it signs must verify with it. */
function signingKeyCheck(signer: TokenSigner): Check {
  try {
    const now = Math.floor(Date.now() / 1000);
    const token = signer.sign({ sub: 'readiness', iat: now, exp: now + 60 });
    return signer.verify(token) ? 'ok' : 'a token it signs does not verify';
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
