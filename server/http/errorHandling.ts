// What every listener answers for a path it does not serve and for a request that failed: the error
// envelope, 503 with Retry-After while the database is away, and a 500 that says nothing of the fault.
import type { Context, Hono } from 'hono';
import { ApiError } from '../ApiError.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { Metrics } from '../metrics/Metrics.ts';
import type { Logger } from '../senders/Messenger.ts';
import { NulInText } from '../store/Database.ts';
import { DatabaseUnavailable } from '../store/DatabaseUnavailable.ts';
import type { AppEnv } from './AppEnv.ts';
import { errorResponse } from './errorEnvelope.ts';

/** The refusals the audit trail keeps: what the abuse limits and a disabled account refuse. */
const AUDITED_REFUSALS = new Set(['rate_limited', 'user_disabled']);

/**
 * A refusal of a project's request, recorded in its own transaction: the request's own rolled back
 * with the error, and there was no change for it to ride on.
 */
async function recordRefusal(trail: Pick<AuditTrail, 'record'> | undefined, c: Context<AppEnv>, error: ApiError, log: Logger): Promise<void> {
  const project = c.get('project');
  const reason = error.status === 429 ? 'rate_limited' : error.type;
  if (!trail || !project || !AUDITED_REFUSALS.has(reason)) return;
  try {
    await trail.record(project.id, { event: 'request.refused', outcome: 'refused', reason, details: { route: `${c.req.method} ${c.req.routePath}`, ...(error.limit ? { limit: error.limit } : {}) } });
  } catch (failed) {
    log.error(`[${c.get('requestId')}] the refusal could not be recorded in the audit trail`, failed);
  }
}

export function handleErrors(app: Hono<AppEnv>, metrics: Metrics, log: Logger, trail?: Pick<AuditTrail, 'record'>): void {
  app.notFound((c) => errorResponse(c, ApiError.notFound(`No route for ${c.req.method} ${new URL(c.req.url).pathname}`)));
  app.onError(async (error, c) => {
    if (error instanceof ApiError) {
      if (error.status === 429) metrics.limitRefused(error.limit ?? 'unknown');
      await recordRefusal(trail, c, error, log);
      return errorResponse(c, error);
    }
    if (error instanceof NulInText) return errorResponse(c, ApiError.invalidRequest('A value in the request contains a NUL character'));
    if (error instanceof DatabaseUnavailable) {
      metrics.serviceUnavailable();
      // weather, not a bug: one line without a stack, and the client is told when to try again
      log.error(`[${c.get('requestId')}] ${c.req.method} ${c.req.path}: ${error.message}`);
      return errorResponse(c, ApiError.serviceUnavailable('The service is briefly unavailable; please try again shortly', error.retryAfterSeconds));
    }
    log.error(`[${c.get('requestId')}] ${c.req.method} ${c.req.path} failed`, error);
    return errorResponse(c, new ApiError(500, 'internal_error', 'Internal server error'));
  });
}
