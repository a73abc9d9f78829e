// The browser cookie: a random value this API gives a browser that starts an auth process, kept with
// the process as a hash, so that the process's e-mail link, opened in that same browser, continues by
// itself (flow/linkApproval.ts) even for a client that sends no process token from its link page
// (web-js 3). A mail scanner or another device never has it. HttpOnly and SameSite=Lax (from a page on
// another site: SameSite=None; Partitioned, http/crossSite.ts); over https it carries the __Host- prefix,
// so that no sibling subdomain can plant a value of its own.
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { newSecretToken } from '../randomValues.ts';
import type { AppEnv } from './AppEnv.ts';
import type { CookieAttributes } from './crossSite.ts';

export const BROWSER_COOKIE = 'cbo_browser';
const HOST_ONLY = `__Host-${BROWSER_COOKIE}`;
/** what newSecretToken makes; anything else is ignored and replaced */
const VALUE = /^[A-Za-z0-9_-]{43}$/;

/** The request's browser cookie; over https only the __Host- one counts. */
export function readBrowserCookie(c: Context<AppEnv>, secure: boolean): string | undefined {
  const value = getCookie(c, secure ? HOST_ONLY : BROWSER_COOKIE);
  return value && VALUE.test(value) ? value : undefined;
}

/**
 * The browser's cookie, given anew when it has none, with `attributes` (RequestResolver.cookie: kept for
 * the process's lifetime, Partitioned from another site).
 */
export function giveBrowserCookie(c: Context<AppEnv>, attributes: CookieAttributes): string {
  const value = readBrowserCookie(c, attributes.secure) ?? newSecretToken();
  setCookie(c, attributes.secure ? HOST_ONLY : BROWSER_COOKIE, value, attributes);
  return value;
}
