// Whether a request comes from a page on another site than this API, and the cookie attributes that
// follow. A site is the scheme with the registrable domain (public suffix plus one label, the Public
// Suffix List's private section included, as browsers count it: `shop.myshopify.com` and
// `other.myshopify.com` are two sites); tldts keeps that list. A browser refuses a `SameSite=Lax` cookie
// set on a cross-site fetch, so such answers set `SameSite=None; Secure; Partitioned` (CHIPS: kept per
// top-level site, and by Chromium even with third-party cookies blocked).
import { getDomain } from 'tldts';

/** The schemeful site of a URL: `https://shop.test` for `https://auth.shop.test:8443/x`; undefined when it is no URL. */
export function siteOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  // an IP address or a single label (localhost) is its own site
  const domain = getDomain(host, { allowPrivateDomains: true }) ?? host;
  return `${parsed.protocol}//${domain.toLowerCase()}`;
}

/** Whether two URLs (or origins) are on different sites. */
export function onAnotherSite(a: string, b: string): boolean {
  const siteA = siteOf(a);
  const siteB = siteOf(b);
  return siteA !== undefined && siteB !== undefined && siteA !== siteB;
}

/**
 * Whether a request comes from another site than `apiUrl`: its Origin decides when it names one;
 * without it (a navigation, a GET that sent none) the browser's `Sec-Fetch-Site`.
 */
export function requestIsCrossSite(origin: string | undefined, fetchSite: string | undefined, apiUrl: string): boolean {
  if (origin && origin !== 'null') return onAnotherSite(origin, apiUrl);
  return fetchSite === 'cross-site';
}

export interface CookieAttributes {
  httpOnly: true;
  path: string;
  maxAge: number;
  secure: boolean;
  sameSite: 'Lax' | 'None';
  partitioned?: true;
}

/**
 * HttpOnly, this host only: `SameSite=Lax` for a request of the API's own site (or over http, where
 * browsers refuse `SameSite=None`), else `SameSite=None; Secure; Partitioned`.
 */
export function cookieAttributes(secure: boolean, crossSite: boolean, maxAgeSeconds: number, path = '/'): CookieAttributes {
  if (crossSite && secure) return { httpOnly: true, sameSite: 'None', path, maxAge: maxAgeSeconds, secure: true, partitioned: true };
  return { httpOnly: true, sameSite: 'Lax', path, maxAge: maxAgeSeconds, secure };
}

/** The attributes that remove a cookie set with cookieAttributes (a Partitioned one is removed only by a Partitioned removal). */
export function removalAttributes(secure: boolean, crossSite: boolean): { path: string; secure: boolean; sameSite?: 'None'; partitioned?: true } {
  return crossSite && secure ? { path: '/', secure: true, sameSite: 'None', partitioned: true } : { path: '/', secure };
}
