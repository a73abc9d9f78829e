// What operators see of the requests (README: "Metrics and request logs"): each answered request is
// counted by its route pattern, and optionally written as one JSON line; GET /metrics serves the
// figures to Prometheus. The log line holds no body, no query string and no header: a code, a token,
// a session or an address never reaches it; the route pattern stands in for the path (no ids either).
import { timingSafeEqual } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Metrics } from '../metrics/Metrics.ts';
import type { AppEnv } from './AppEnv.ts';

export const METRICS_PATH = '/metrics';

/** Where a request went: the pattern of the route that matched, `preflight` or `unmatched`. */
export function routePattern(c: Context<AppEnv>): string {
  // middlewares (`app.use`) match as method ALL; the last route of a method is the one that answers
  const route = matchedRoutes(c).findLast((r) => r.method !== 'ALL');
  return route?.path ?? (c.req.method === 'OPTIONS' ? 'preflight' : 'unmatched');
}

/**
 * Counts every answered request but the scrapes themselves, and hands a JSON line to `log` for each
 * (without one, nothing is logged). Health probes that pass are not logged: they come every few
 * seconds and say nothing; a failing readiness check is.
 */
export function observeRequests(metrics: Metrics, log: ((line: string) => void) | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.req.path === METRICS_PATH) return;
    const route = routePattern(c);
    const status = c.res.status;
    const ms = performance.now() - c.get('startedAt');
    metrics.request(c.req.method, route, status, ms / 1000);
    if (!log || (route.startsWith('/health/') && status < 400)) return;
    log(
      JSON.stringify({
        time: new Date().toISOString(),
        requestId: c.get('requestId'),
        method: c.req.method,
        route,
        status,
        durationMs: Math.round(ms * 10) / 10,
        projectId: c.get('project')?.id ?? null,
      }),
    );
  };
}

/**
 * GET /metrics, registered before CORS so that no answer of it carries CORS headers (and a preflight
 * for it is refused): a browser page never reads it. With a token, only `Authorization: Bearer <token>`
 * is answered; anything else is 401 without a body worth reading.
 */
export function registerMetricsRoute(app: Hono<AppEnv>, metrics: Metrics, token: string | undefined): void {
  const expected = token === undefined ? undefined : Buffer.from(`Bearer ${token}`);
  app.all(METRICS_PATH, async (c) => {
    c.header('Cache-Control', 'no-store');
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.text('Method not allowed\n', 405, { Allow: 'GET, HEAD' });
    if (expected) {
      const given = Buffer.from(c.req.header('authorization') ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return c.text('Unauthorized\n', 401, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
      }
    }
    return c.body(await metrics.text(), 200, { 'Content-Type': metrics.contentType });
  });
}
