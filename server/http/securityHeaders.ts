// Response headers that keep browsers from misusing the API's answers: never sniffed, framed or cached
// (bodies carry session tokens), no referrer. Production adds a strict CSP and, over HTTPS, HSTS.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './AppEnv.ts';

export function securityHeaders(options: { production: boolean; https: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'no-referrer');
    headers.set('X-Frame-Options', 'DENY');
    if (c.req.path.startsWith('/v2/')) headers.set('Cache-Control', 'no-store');
    if (options.production) {
      headers.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
      headers.set('Cross-Origin-Opener-Policy', 'same-origin');
      if (options.https) headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    }
  };
}
