// What every listener answers for a path it does not serve and for a request that failed: the error
// envelope, 503 with Retry-After while the database is away, and a 500 that says nothing of the fault.
import type { Hono } from 'hono';
import { ApiError } from '../ApiError.ts';
import type { Metrics } from '../metrics/Metrics.ts';
import type { Logger } from '../senders/Messenger.ts';
import { NulInText } from '../store/Database.ts';
import { DatabaseUnavailable } from '../store/DatabaseUnavailable.ts';
import type { AppEnv } from './AppEnv.ts';
import { errorResponse } from './errorEnvelope.ts';

export function handleErrors(app: Hono<AppEnv>, metrics: Metrics, log: Logger): void {
  app.notFound((c) => errorResponse(c, ApiError.notFound(`No route for ${c.req.method} ${new URL(c.req.url).pathname}`)));
  app.onError((error, c) => {
    if (error instanceof ApiError) {
      if (error.status === 429) metrics.limitRefused(error.limit ?? 'unknown');
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
