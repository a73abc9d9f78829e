// Small server-rendered pages (the social callback's error page; in development the OAuth simulator's in
// server/dev/): escaping and a common document frame with strict security headers.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

/** A whole document; `title` is escaped here, `body` and `css` must already be safe. */
export function htmlDocument(title: string, body: string, css = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${css}</style></head>
<body>
${body}
</body></html>`;
}

/** No scripts, no framing, no caching, no referrer (codes and states travel in URLs here). */
export function sendHtml(c: Context, html: string, status: ContentfulStatusCode = 200): Response {
  return c.html(html, status, {
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
}

/** A 302 that keeps the URL it leaves out of caches and referrers. */
export function sendRedirect(c: Context, location: string): Response {
  return c.body(null, 302, { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
}
