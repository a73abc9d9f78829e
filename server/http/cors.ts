// CORS with credentials: the exact Origin is echoed only when the project allows it. Preflights carry
// no project header, so they are answered for an origin that any project allows.
import type { MiddlewareHandler } from 'hono';
import type { Store } from '../store/Store.ts';
import type { AppEnv } from './AppEnv.ts';
import { ApiError } from '../ApiError.ts';
import { errorResponse } from './errorEnvelope.ts';
import { DatabaseUnavailable } from '../store/DatabaseUnavailable.ts';

export const ALLOWED_METHODS = 'GET, POST, DELETE, PATCH, OPTIONS';
export const ALLOWED_HEADERS =
  'Content-Type, Authorization, X-Corbado-ProjectID, X-Corbado-SDK, X-Corbado-Client-Timezone, X-Corbado-Flags, X-Corbado-Process-ID, X-Corbado-Temp-Process-ID, Cache-Control, Pragma, Expires';
export const PREFLIGHT_MAX_AGE = '7200';

/**
 * `startOrigins`: the allowed origins when the server started. While the database is away, the origins
 * last read from it stand in, so that the browser lets the widget read the 503 (and its Retry-After)
 * instead of reporting a network error; no call succeeds meanwhile, so nothing else is let through.
 */
export function cors(store: Store, startOrigins: Set<string>): MiddlewareHandler<AppEnv> {
  let lastKnown = startOrigins;
  const allAllowedOrigins = async (): Promise<Set<string>> => {
    try {
      lastKnown = await store.projects.allAllowedOrigins();
      return lastKnown;
    } catch (error) {
      if (error instanceof DatabaseUnavailable) return lastKnown;
      throw error;
    }
  };
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (c.req.method === 'OPTIONS') {
      if (!origin || !(await allAllowedOrigins()).has(origin)) {
        const res = errorResponse(c, new ApiError(403, 'forbidden_origin', 'Forbidden', 'This origin is not allowed'));
        res.headers.set('Vary', 'Origin');
        return res;
      }
      return new Response(null, {
        status: 204,
        headers: {
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Allow-Credentials': 'true',
          'Access-Control-Allow-Methods': ALLOWED_METHODS,
          'Access-Control-Allow-Headers': ALLOWED_HEADERS,
          'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
          Vary: 'Origin',
        },
      });
    }
    await next();
    c.res.headers.append('Vary', 'Origin');
    if (!origin) return;
    const project = c.get('project');
    const allowed = project ? project.allowedOrigins.includes(origin) : (await allAllowedOrigins()).has(origin);
    if (allowed) {
      c.res.headers.set('Access-Control-Allow-Origin', origin);
      c.res.headers.set('Access-Control-Allow-Credentials', 'true');
      // the widget reads how long a rate-limited visitor has to wait
      c.res.headers.set('Access-Control-Expose-Headers', 'Retry-After');
    }
  };
}
