// The session: short session (a JWT) and long session, the refresh loop, the optional cookie, and the
// $shortSession / $user / $authState atoms the host subscribes to (SPEC.md sections 3 and 4).
import { atom, computed, type ReadableAtom } from 'nanostores';
import type { ApiClient } from '../api/client';
import type { SessionConfig, ShortSessionCookieConfig } from '../api/types';
import { nowSeconds, readItem, storageKeys, writeItem } from '../storage';

export const SESSION_CHECK_INTERVAL_MS = 10_000;
export const REFRESH_THRESHOLD_SECONDS = 60;
const COOKIE_NAME = 'cbo_short_session';

export interface SessionUser {
  sub: string;
  email?: string;
  name?: string;
  orig?: string;
  iss?: string;
  exp: number;
  [claim: string]: unknown;
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

export class Session {
  readonly $shortSession = atom<string | undefined>(undefined);
  readonly $user: ReadableAtom<SessionUser | undefined> = computed(this.$shortSession, decodeShortSession);
  readonly $authState: ReadableAtom<AuthState> = computed(this.$user, (user) => (user ? 1 : 0));
  readonly #api: ApiClient;
  readonly #config: Promise<SessionConfig | undefined>;
  #cookieConfig: ShortSessionCookieConfig | undefined;
  #useCookie: boolean;
  #timer: ReturnType<typeof setInterval> | undefined;
  #refreshing: Promise<void> | undefined;

  constructor(api: ApiClient, config: Promise<SessionConfig | undefined>, useCookie = false) {
    this.#api = api;
    this.#useCookie = useCookie;
    this.#config = config.then((value) => {
      if (value?.frontendApiUrl) api.sessionBaseUrl = value.frontendApiUrl;
      this.#cookieConfig = value?.shortSessionCookieConfig;
      if (this.#useCookie && this.$shortSession.get()) this.#writeCookie(this.$shortSession.get());
      return value;
    });
    api.longSession = () => readItem(storageKeys.longSession);
  }

  /** Uses the stored short session if it is still valid, otherwise tries a refresh; then keeps it fresh. */
  start(): void {
    const stored = readItem(storageKeys.shortSession);
    if (isShortSessionValid(stored)) this.$shortSession.set(stored);
    else if (readItem(storageKeys.longSession)) void this.refresh();
    this.#timer = setInterval(() => this.#check(), SESSION_CHECK_INTERVAL_MS);
    document.addEventListener('visibilitychange', this.#onVisible);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    document.removeEventListener('visibilitychange', this.#onVisible);
  }

  readonly #onVisible = () => {
    if (document.visibilityState === 'visible') this.#check();
  };

  #check(): void {
    const token = this.$shortSession.get();
    if (token && needsRefresh(token)) void this.refresh();
  }

  /** Waits for the session configuration, so /v2/me calls go to the URL it names. */
  ready(): Promise<unknown> {
    return this.#config;
  }

  setSession(shortSession: string, longSession?: string): void {
    writeItem(storageKeys.shortSession, shortSession);
    if (longSession !== undefined) writeItem(storageKeys.longSession, longSession);
    this.#writeCookie(shortSession);
    this.$shortSession.set(shortSession);
  }

  /** A failed refresh (an exception) logs the user out; an answer without a token is only logged. */
  refresh(): Promise<void> {
    this.#refreshing ??= (async () => {
      try {
        await this.#config;
        const answer = await this.#api.refresh();
        if (answer?.shortSession) this.setSession(answer.shortSession);
        else console.warn('[corbado] refresh answered without a short session');
      } catch {
        this.#clear();
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  async logout(): Promise<void> {
    try {
      await this.#config;
      await this.#api.logout();
    } catch {
      // the local session is cleared whatever the server answers
    }
    this.#clear();
  }

  #clear(): void {
    writeItem(storageKeys.shortSession, undefined);
    writeItem(storageKeys.longSession, undefined);
    this.#writeCookie(undefined);
    this.$shortSession.set(undefined);
  }

  #writeCookie(token: string | undefined): void {
    const config = this.#cookieConfig;
    if (!this.#useCookie || !config) return;
    const parts = [`${COOKIE_NAME}=${token ?? ''}`, `path=${config.path || '/'}`, `SameSite=${config.sameSite}`];
    if (config.domain) parts.push(`domain=${config.domain}`);
    if (config.secure) parts.push('secure');
    parts.push(token ? `max-age=${config.lifetimeSeconds}` : 'max-age=0');
    document.cookie = parts.join('; ');
  }
}
