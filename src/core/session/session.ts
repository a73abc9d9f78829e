// The session: short session (a JWT) and long session, the refresh loop, the optional cookie, and the
// $shortSession / $user / $authState atoms the host subscribes to (SPEC.md sections 3 and 4). Every tab
// of the site follows the others through the stored short session (storage events).
import { atom, computed, type ReadableAtom } from 'nanostores';
import type { ApiClient } from '../api/client';
import { CorbadoError } from '../errors';
import type { SessionConfig, ShortSessionCookieConfig } from '../api/types';
import { nowSeconds, readItem, storageKeys, writeItem } from '../storage';

export const SESSION_CHECK_INTERVAL_MS = 10_000;
export const REFRESH_THRESHOLD_SECONDS = 60;
const COOKIE_NAME = 'cbo_short_session';
/** a failed refresh is tried again after 1 s, 2 s, 4 s, ... at most 30 s */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 30_000;

export interface SessionUser {
  sub: string;
  email?: string;
  name?: string;
  orig?: string;
  iss?: string;
  exp: number;
  [claim: string]: unknown;
}

/**
 * Where this browser keeps the long session of its sign-in: `cookie` (the API's HttpOnly cookie),
 * `storage` (the page's storage: dev projects, and a page on another site than the API for a project
 * with crossSiteSessions "storage"), `short-only` (the page is on another site and the browser refused
 * the API's cookie there: the visitor stays signed in only until the short session expires).
 */
export type SessionPersistence = 'cookie' | 'storage' | 'short-only';

function storedPersistence(): SessionPersistence | undefined {
  const value = readItem(storageKeys.sessionPersistence);
  return value === 'cookie' || value === 'storage' || value === 'short-only' ? value : undefined;
}

/** the Frontend APIs a page was already warned about (one word per page, not one per refresh or load()) */
const warnedAbout = new Set<string>();

/** The one console warning of a page whose Frontend API is on another site. */
function warnCrossSite(frontendApiUrl: string, sessions: 'storage' | 'short-only'): void {
  if (warnedAbout.has(frontendApiUrl)) return;
  warnedAbout.add(frontendApiUrl);
  const page = globalThis.location?.origin ?? 'this page';
  const kept =
    sessions === 'storage'
      ? 'the widget keeps the long session in this page\'s storage there, where script on the page can read it'
      : 'visitors there stay signed in only until the short session expires (Corbado.sessionPersistence says "short-only")';
  console.warn(
    `[corbado] The Frontend API ${frontendApiUrl} is on another site than ${page}. Browsers refuse its SameSite=Lax cookies here and may refuse its Partitioned ones ` +
      `(Safari, blocked third-party cookies): the project's crossSiteSessions is "${sessions}": ${kept}. Serve the API on this page's site to avoid it (README, "Where to put the server").`,
  );
}

/** 1 logged in, 0 not (SPEC.md section 4, "Session"). */
export type AuthState = 0 | 1;

/** Reads a JWT's payload without verifying it: the widget only needs the claims, the server verifies. */
export function decodeShortSession(token: string | undefined): SessionUser | undefined {
  if (!token) return undefined;
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    const json = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const claims = JSON.parse(json) as SessionUser;
    return typeof claims.exp === 'number' && typeof claims.sub === 'string' ? claims : undefined;
  } catch {
    return undefined;
  }
}

export function isShortSessionValid(token: string | undefined, now = nowSeconds()): boolean {
  const claims = decodeShortSession(token);
  return !!claims && claims.exp > now;
}

export function needsRefresh(token: string | undefined, now = nowSeconds()): boolean {
  const claims = decodeShortSession(token);
  return !!claims && claims.exp - now < REFRESH_THRESHOLD_SECONDS;
}

/**
 * Only the server saying no (401, 403) ends a session: trouble (5xx, 429, no answer) says nothing about
 * it, and signing everybody out whenever the database restarts would punish visitors for an outage.
 */
function isRefusal(error: unknown): boolean {
  return error instanceof CorbadoError && (error.status === 401 || error.status === 403);
}

/** The cross-tab lock (Web Locks) where the browser has one: one refresh at a time per site. */
async function exclusively(run: () => Promise<void>): Promise<void> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  await (locks ? locks.request('cbo_session_refresh', run) : run());
}

export class Session {
  readonly $shortSession = atom<string | undefined>(undefined);
  readonly $user: ReadableAtom<SessionUser | undefined> = computed(this.$shortSession, decodeShortSession);
  readonly $authState: ReadableAtom<AuthState> = computed(this.$user, (user) => (user ? 1 : 0));
  /** true while start-up refreshes an expired session: views wait rather than say "Please log in" */
  readonly $restoring = atom(false);
  /** where the long session of the current (or last) sign-in is kept; undefined before any sign-in */
  readonly $persistence = atom<SessionPersistence | undefined>(storedPersistence());
  readonly #api: ApiClient;
  readonly #config: Promise<SessionConfig | undefined>;
  readonly #window: Window | undefined;
  readonly #ended = new Set<() => void>();
  #cookieConfig: ShortSessionCookieConfig | undefined;
  #useCookie: boolean;
  #timer: ReturnType<typeof setInterval> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;
  #refreshing: Promise<void> | undefined;

  constructor(api: ApiClient, config: Promise<SessionConfig | undefined>, useCookie = false, window = globalThis.window) {
    this.#api = api;
    this.#useCookie = useCookie;
    this.#window = window;
    this.#config = config.then((value) => {
      if (value?.frontendApiUrl) api.sessionBaseUrl = value.frontendApiUrl;
      this.#cookieConfig = value?.shortSessionCookieConfig;
      if (value?.crossSite) warnCrossSite(value.frontendApiUrl ?? api.sessionBaseUrl ?? 'of this widget', value.crossSite.sessions);
      if (this.#useCookie && this.$shortSession.get()) this.#writeCookie(this.$shortSession.get());
      return value;
    });
    api.longSession = () => readItem(storageKeys.longSession);
  }

  /**
   * Uses the stored short session (storage, then the cookie) if it is still valid. Otherwise, when this
   * browser was signed in before (an expired short session or a long session is kept: a hint that costs
   * never-signed-in visitors no request), it refreshes: in production the long session is an HttpOnly
   * cookie of the Frontend API that only the server can read.
   */
  start(): void {
    const stored = readItem(storageKeys.shortSession) ?? this.#readCookie();
    if (isShortSessionValid(stored)) this.$shortSession.set(stored);
    // the browser kept no long session (short-only): there is nothing to refresh with, and it is known why
    else if (this.$persistence.get() === 'short-only') writeItem(storageKeys.shortSession, undefined);
    else if (stored || readItem(storageKeys.longSession)) {
      this.$restoring.set(true);
      void this.refresh().finally(() => this.$restoring.set(false));
    }
    this.#timer = setInterval(() => this.#check(), SESSION_CHECK_INTERVAL_MS);
    this.#window?.document.addEventListener('visibilitychange', this.#onVisible);
    this.#window?.addEventListener('storage', this.#onStorage);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#cancelRetry();
    this.#window?.document.removeEventListener('visibilitychange', this.#onVisible);
    this.#window?.removeEventListener('storage', this.#onStorage);
  }

  /** Called when the session ends other than by this tab's logout(): another tab, or the server, ended it. */
  onEnded(listener: () => void): () => void {
    this.#ended.add(listener);
    return () => this.#ended.delete(listener);
  }

  readonly #onVisible = () => {
    if (this.#window?.document.visibilityState === 'visible') this.#check();
  };

  /** Another tab signed in, refreshed or signed out: this one follows (a null key: storage cleared). */
  readonly #onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === storageKeys.shortSession) this.#follow();
  };

  #follow(): void {
    const stored = readItem(storageKeys.shortSession);
    if (isShortSessionValid(stored)) {
      this.#failures = 0;
      this.#cancelRetry();
      this.$shortSession.set(stored);
    } else if (!stored) {
      this.#cancelRetry();
      this.#end();
    }
  }

  #check(): void {
    const token = this.$shortSession.get();
    // no long session anywhere (the browser refused the API's cookie): nothing to refresh or check; the
    // session ends with its short session, and the host knows why (sessionPersistence "short-only")
    if (token && this.$persistence.get() === 'short-only') {
      if (!isShortSessionValid(token)) this.#shortOnlyExpired();
      return;
    }
    // signed out here once the short session has truly expired; the stored one stays as the hint that
    // the next refresh (a retry, the next visit) may bring the visitor back
    if (token && !isShortSessionValid(token)) this.$shortSession.set(undefined);
    else if (token && needsRefresh(token) && !this.#retry) void this.refresh();
    // a visible page asks whether its session still lives (ended on another device, or as a stolen
    // copy): one small read per check, so that it signs out within seconds, not at the next refresh
    else if (token && !this.#retry && this.#window?.document.visibilityState === 'visible') void this.#alive();
  }

  async #alive(): Promise<void> {
    const stored = readItem(storageKeys.shortSession);
    const longSession = readItem(storageKeys.longSession);
    try {
      await this.#config;
      await this.#api.sessions('get', 'current');
    } catch (error) {
      if (isRefusal(error)) this.#refused(stored, longSession);
    }
  }

  /** The server refused the session: it ends, unless this browser signed in again meanwhile (only the refused one ends). */
  #refused(stored: string | undefined, longSession: string | undefined): void {
    if (readItem(storageKeys.shortSession) === stored && readItem(storageKeys.longSession) === longSession) {
      this.#forget();
      this.#end();
    } else this.#follow();
  }

  /** Waits for the session configuration, so /v2/me calls go to the URL it names. */
  ready(): Promise<unknown> {
    return this.#config;
  }

  /**
   * A completed sign-in: keeps the sessions, then learns where the long session is kept. Without one in
   * the answer it asks (cookie only) whether the browser kept the API's cookie; refused (another site, a
   * browser that blocks the cookie), the session is short-only and the host is told, rather than a
   * refresh signing the visitor out later without a word.
   */
  async signedIn(shortSession: string, longSession?: string): Promise<void> {
    // a long session of an earlier sign-in is not this one's (nor may it answer for the cookie below)
    if (longSession === undefined) writeItem(storageKeys.longSession, undefined);
    this.setSession(shortSession, longSession);
    if (longSession !== undefined) return this.#persist('storage');
    await this.#config;
    // asked on the API's own site too: WebKitGTK's no-third-party policy refuses a sibling subdomain's cookie
    try {
      await this.#api.sessions('get', 'current');
      this.#persist('cookie');
    } catch (error) {
      if (!isRefusal(error)) return this.#persist('cookie'); // trouble: the refresh will tell
      this.#persist('short-only');
      console.warn(
        `[corbado] This browser refused the Frontend API's session cookie on this page: the visitor stays signed in until the short session expires (Corbado.sessionPersistence is "short-only").`,
      );
    }
  }

  #persist(persistence: SessionPersistence | undefined): void {
    writeItem(storageKeys.sessionPersistence, persistence);
    this.$persistence.set(persistence);
  }

  /** A short-only session ran out: it ends (the host hears it as any end), sessionPersistence still says why. */
  #shortOnlyExpired(): void {
    writeItem(storageKeys.shortSession, undefined);
    this.#writeCookie(undefined);
    this.#end();
  }

  setSession(shortSession: string, longSession?: string): void {
    writeItem(storageKeys.shortSession, shortSession);
    if (longSession !== undefined) writeItem(storageKeys.longSession, longSession);
    this.#writeCookie(shortSession);
    this.$shortSession.set(shortSession);
  }

  /**
   * Asks the server for a new short session. A refusal (401, 403) signs out; trouble keeps the short
   * session until it expires and tries again with backoff; an answer without a token is only logged.
   */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#refreshOnce().finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  async #refreshOnce(): Promise<void> {
    this.#cancelRetry();
    const before = this.$shortSession.get() ?? readItem(storageKeys.shortSession);
    await this.#config;
    // tabs take turns, and a tab that waited adopts what the tab before it got instead of asking again
    await exclusively(async () => {
      const stored = readItem(storageKeys.shortSession);
      if (isShortSessionValid(stored) && (decodeShortSession(stored)?.exp ?? 0) > (decodeShortSession(before)?.exp ?? 0)) {
        this.$shortSession.set(stored);
        return;
      }
      const longSession = readItem(storageKeys.longSession);
      try {
        const answer = await this.#api.refresh();
        this.#failures = 0;
        // a rotated long session (dev projects keep it here; prod ones get it as the server's cookie)
        if (answer?.shortSession) {
          this.setSession(answer.shortSession, answer.longSession);
          // a refresh that worked without a long session of its own came by the API's cookie
          if (this.$persistence.get() === undefined) this.#persist(answer.longSession !== undefined || longSession !== undefined ? 'storage' : 'cookie');
        } else console.warn('[corbado] refresh answered without a short session');
      } catch (error) {
        if (isRefusal(error)) this.#refused(stored, longSession);
        else this.#retryLater();
      }
    });
  }

  /** The next try: backoff, but never later than half the short session's remaining life. */
  #retryLater(): void {
    this.#failures++;
    const exp = decodeShortSession(this.$shortSession.get())?.exp;
    const left = exp === undefined ? Infinity : (exp - nowSeconds()) * 1000;
    const delay = Math.max(RETRY_FIRST_MS, Math.min(RETRY_FIRST_MS * 2 ** (this.#failures - 1), RETRY_MAX_MS, left / 2));
    if (left <= 0) this.$shortSession.set(undefined); // truly expired: see #check
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.refresh();
    }, delay);
  }

  #cancelRetry(): void {
    clearTimeout(this.#retry);
    this.#retry = undefined;
  }

  async logout(): Promise<void> {
    this.#cancelRetry();
    try {
      await this.#config;
      await this.#api.logout();
    } catch {
      // the local session is cleared whatever the server answers
    }
    this.#forget();
    this.$shortSession.set(undefined);
  }

  #end(): void {
    const was = this.$shortSession.get();
    this.$shortSession.set(undefined);
    if (was) for (const listener of [...this.#ended]) listener();
  }

  #forget(): void {
    writeItem(storageKeys.shortSession, undefined);
    writeItem(storageKeys.longSession, undefined);
    this.#persist(undefined);
    this.#writeCookie(undefined);
  }

  #readCookie(): string | undefined {
    if (!this.#useCookie) return undefined;
    const prefix = `${COOKIE_NAME}=`;
    const found = this.#window?.document.cookie.split('; ').find((part) => part.startsWith(prefix));
    return found?.slice(prefix.length) || undefined;
  }

  #writeCookie(token: string | undefined): void {
    const config = this.#cookieConfig;
    if (!this.#useCookie || !config) return;
    const parts = [`${COOKIE_NAME}=${token ?? ''}`, `path=${config.path || '/'}`, `SameSite=${config.sameSite}`];
    if (config.domain) parts.push(`domain=${config.domain}`);
    if (config.secure) parts.push('secure');
    parts.push(token ? `max-age=${config.lifetimeSeconds}` : 'max-age=0');
    if (this.#window) this.#window.document.cookie = parts.join('; ');
  }
}
