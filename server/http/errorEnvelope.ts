// The error envelope of every non-2xx answer (CONTRACT §2.1, common.yml errorRsp).
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './AppEnv.ts';
import type { ApiError } from '../ApiError.ts';

export function runtimeSeconds(c: Context<AppEnv>): number {
  return Math.round((performance.now() - (c.get('startedAt') ?? performance.now())) * 1000) / 1_000_000;
}

export function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
  return c.json(
    {
      httpStatusCode: error.status,
      message: error.message,
      requestData: { requestID: c.get('requestId') ?? '', link: '' },
      runtime: runtimeSeconds(c),
      error: {
        type: error.type,
        links: [],
        ...(error.details ? { details: error.details } : {}),
        ...(error.validation?.length ? { validation: error.validation } : {}),
      },
    },
    error.status as ContentfulStatusCode,
  );
}

/** The body of a 2xx answer that has nothing else to say (genericRsp). */
export function genericOk(c: Context<AppEnv>) {
  return {
    httpStatusCode: 200,
    message: 'OK',
    requestData: { requestID: c.get('requestId') ?? '', link: '' },
    runtime: runtimeSeconds(c),
  };
}
