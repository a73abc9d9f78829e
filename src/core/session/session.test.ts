// @vitest-environment happy-dom
// The session's clock and its answers to the server, driven with fake timers and a fake API (the real
// client against the real server is what the end-to-end suite runs: e2e/session.spec.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../api/client';
import type { SessionConfig } from '../api/types';
import { tooManyRequests, unhandledBackendError } from '../errors';
import { storageKeys } from '../storage';
import { decodeShortSession, isShortSessionValid, needsRefresh, Session } from './session';

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const token = (claims: object) => `${b64url({ alg: 'ES256' })}.${b64url(claims)}.sig`;

describe('short session', () => {
  it('reads the claims of a JWT, with or without padding, and non-ASCII names', () => {
    const claims = decodeShortSession(token({ sub: 'usr-1', name: 'Jürgen', email: 'j@x.de', exp: 100 }));
    expect(claims).toMatchObject({ sub: 'usr-1', name: 'Jürgen', email: 'j@x.de', exp: 100 });
  });

  it('rejects what is not a session token', () => {
    expect(decodeShortSession('garbage')).toBeUndefined();
    expect(decodeShortSession(token({ name: 'no sub or exp' }))).toBeUndefined();
    expect(decodeShortSession(undefined)).toBeUndefined();
  });

  it('is valid while exp lies ahead and needs a refresh in its last minute', () => {
    const now = 1_000;
    expect(isShortSessionValid(token({ sub: 'u', exp: now + 1 }), now)).toBe(true);
    expect(isShortSessionValid(token({ sub: 'u', exp: now }), now)).toBe(false);
    expect(needsRefresh(token({ sub: 'u', exp: now + 59 }), now)).toBe(true);
    expect(needsRefresh(token({ sub: 'u', exp: now + 61 }), now)).toBe(false);
  });
});

const T0 = 1_700_000_000;
const now = () => Math.floor(Date.now() / 1000);
/** a short session of user `sub` valid for `seconds` from the fake clock's now */
const session = (seconds: number, sub = 'usr-1') => token({ sub, email: `${sub}@example.com`, exp: now() + seconds });
const failure = (status: number) => Object.assign(status === 429 ? tooManyRequests(5) : unhandledBackendError('x'), { status });
const cookieConfig = { domain: '', secure: false, sameSite: 'lax' as const, path: '/', lifetimeSeconds: 300 };

type Answer = { shortSession?: string; longSession?: string } | Error | (() => Promise<{ shortSession?: string }>);

/** A fake Frontend API: refresh answers from a script (then a fresh 120 s session), logout 204. */
function fakeApi() {
  const answers: Answer[] = [];
  const api = {
    sessionBaseUrl: undefined,
    longSession: () => undefined,
    refresh: vi.fn(async () => {
      const answer = answers.shift() ?? { shortSession: session(120) };
      if (answer instanceof Error) throw answer;
      return typeof answer === 'function' ? answer() : answer;
    }),
    logout: vi.fn(async () => undefined),
    /** GET /v2/me/sessions/current: live (204) unless `alive` says otherwise */
    sessions: vi.fn(async (): Promise<unknown> => {
      if (alive instanceof Error) throw alive;
      return undefined;
    }),
  };
  let alive: Error | undefined;
  return { api, answers, client: api as unknown as ApiClient, endedElsewhere: (error: Error | undefined) => (alive = error) };
}

let started: Session[] = [];
function start(options: { config?: SessionConfig; cookie?: boolean } = {}) {
  const fake = fakeApi();
  const config = Promise.resolve(options.config ?? { shortSessionCookieConfig: cookieConfig, frontendApiUrl: 'http://api.test' } as SessionConfig);
  const sessionUnderTest = new Session(fake.client, config, options.cookie ?? false, window);
  const ended = vi.fn();
  sessionUnderTest.onEnded(ended);
  sessionUnderTest.start();
  started.push(sessionUnderTest);
  return { ...fake, session: sessionUnderTest, ended };
}

function signedIn(seconds: number) {
  localStorage.setItem(storageKeys.shortSession, session(seconds));
  localStorage.setItem(storageKeys.longSession, 'long-1');
}

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

/** what another tab of the site does to the shared storage, as this tab hears it */
function otherTabWrites(key: string, value: string | undefined) {
  if (value === undefined) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
  window.dispatchEvent(new StorageEvent('storage', { key, newValue: value ?? null }));
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(T0 * 1000);
  localStorage.clear();
  document.cookie = 'cbo_short_session=; max-age=0; path=/';
});

afterEach(() => {
  for (const s of started) s.stop();
  started = [];
  vi.useRealTimers();
});

describe('Session: the clock', () => {
  it('[spec 9.session-check-interval] [spec 9.refresh-threshold] [spec 4.session-check] [spec 4.session-refresh-threshold] [spec 4.session-startup] checks every 10 s and refreshes once fewer than 60 s are left', async () => {
    signedIn(125);
    const { api, session: s } = start();
    expect(s.$authState.get()).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000); // 65 s left at the 60 s check
    expect(api.refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(api.refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1); // 55 s left at the 70 s check
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(decodeShortSession(s.$shortSession.get())!.exp).toBe(now() + 120);
    expect(decodeShortSession(localStorage.getItem(storageKeys.shortSession)!)!.exp).toBe(now() + 120);
    // the next check that finds fewer than 60 s left is 70 s later (60 s left at the one before it), not sooner
    await vi.advanceTimersByTimeAsync(69_999);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.refresh).toHaveBeenCalledTimes(2);
  });

  it('[spec 4.session-check] checks when the page becomes visible again, between two ticks', async () => {
    signedIn(65);
    const { api } = start();
    await vi.advanceTimersByTimeAsync(6_000);
    setVisibility('hidden');
    expect(api.refresh).not.toHaveBeenCalled();
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(api.refresh).toHaveBeenCalledTimes(1);
  });

  it('[spec 4.session-refresh-threshold] does not refresh a visitor who is not signed in', async () => {
    const { api, session: s } = start();
    await vi.advanceTimersByTimeAsync(120_000);
    setVisibility('visible');
    expect(api.refresh).not.toHaveBeenCalled();
    expect(s.$authState.get()).toBe(0);
  });
});

describe('Session: rotation and sessions ended elsewhere', () => {
  it('keeps the long session a refresh rotated to (dev projects), and keeps the stored one when the answer has none', async () => {
    signedIn(30);
    const { api, answers, session: s } = start();
    answers.push({ shortSession: session(120), longSession: 'long-2' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(storageKeys.longSession)).toBe('long-2');
    answers.push({ shortSession: session(180) });
    await s.refresh();
    expect(api.refresh).toHaveBeenCalledTimes(2);
    expect(localStorage.getItem(storageKeys.longSession)).toBe('long-2');
  });

  it("asks every 10 s whether a visible page's session still lives, and signs out within one check once it was ended elsewhere", async () => {
    setVisibility('visible');
    signedIn(300);
    const { api, session: s, ended, endedElsewhere } = start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.sessions).toHaveBeenCalledWith('get', 'current');
    expect(api.sessions).toHaveBeenCalledTimes(1);
    expect(api.refresh).not.toHaveBeenCalled();
    // trouble says nothing about the session
    endedElsewhere(failure(503));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(s.$authState.get()).toBe(1);
    // ended on another device: the next check refuses it
    endedElsewhere(failure(401));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.sessions).toHaveBeenCalledTimes(3);
    expect(s.$authState.get()).toBe(0);
    expect(ended).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(storageKeys.shortSession)).toBeNull();
    expect(localStorage.getItem(storageKeys.longSession)).toBeNull();
    // signed out: no more checks
    await vi.advanceTimersByTimeAsync(30_000);
    expect(api.sessions).toHaveBeenCalledTimes(3);
  });

  it('a hidden page asks nothing, and asks as soon as it is visible again', async () => {
    signedIn(300);
    setVisibility('hidden');
    const { api } = start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.sessions).not.toHaveBeenCalled();
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(api.sessions).toHaveBeenCalledTimes(1);
  });
});

describe('Session: log-out', () => {
  it('[spec 4.logout] [spec 4.auth-state] [spec 6.two-states] calls the server, clears both stored sessions and says logged out: auth state 1, then 0', async () => {
    const { api, session: s } = start();
    expect(s.$authState.get()).toBe(0);
    s.setSession(session(300), 'long-1');
    expect(s.$authState.get()).toBe(1);
    expect(s.$user.get()).toBeDefined();
    const states: number[] = [];
    s.$authState.listen((state) => states.push(state));
    await s.logout();
    expect(api.logout).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(storageKeys.shortSession)).toBeNull();
    expect(localStorage.getItem(storageKeys.longSession)).toBeNull();
    expect(states).toEqual([0]);
    expect(s.$user.get()).toBeUndefined();
  });
});

describe('Session: the server answers', () => {
  it('[spec 7.me-refresh-failure] keeps the session through 500s, retrying with backoff, and is refreshed once the server is back', async () => {
    signedIn(50);
    const { api, answers, session: s, ended } = start();
    answers.push(failure(500), failure(503), failure(429), new Error('network'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(s.$authState.get()).toBe(1);
    // 1 s, 2 s, 4 s, 8 s after each failure
    await vi.advanceTimersByTimeAsync(1_000);
    expect(api.refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(api.refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.refresh).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(api.refresh).toHaveBeenCalledTimes(4);
    expect(s.$authState.get()).toBe(1);
    expect(localStorage.getItem(storageKeys.longSession)).toBe('long-1');
    await vi.advanceTimersByTimeAsync(8_000);
    expect(api.refresh).toHaveBeenCalledTimes(5);
    expect(decodeShortSession(s.$shortSession.get())!.exp).toBe(now() + 120);
    expect(ended).not.toHaveBeenCalled();
  });

  it('never waits longer than half the remaining life of the short session', async () => {
    signedIn(20);
    const { api, answers } = start();
    answers.push(...Array.from({ length: 6 }, () => failure(500)));
    await vi.advanceTimersByTimeAsync(10_000); // 10 s left: 1 s, 2 s, then at most 3.5 s, 1.75 s, ...
    await vi.advanceTimersByTimeAsync(9_000);
    expect(api.refresh.mock.calls.length).toBeGreaterThanOrEqual(5);
  });

  it('[spec 4.session-refresh-failure] signs out on 401 and on 403, clearing what is stored', async () => {
    for (const status of [401, 403]) {
      localStorage.clear();
      signedIn(50);
      const { answers, session: s, ended } = start();
      answers.push(failure(status));
      await vi.advanceTimersByTimeAsync(10_000);
      expect(s.$authState.get()).toBe(0);
      expect(localStorage.getItem(storageKeys.shortSession)).toBeNull();
      expect(localStorage.getItem(storageKeys.longSession)).toBeNull();
      expect(ended).toHaveBeenCalledTimes(1);
    }
  });

  it('signs out once the short session has truly expired, and back in when the server recovers', async () => {
    signedIn(15);
    const { api, answers, session: s } = start();
    answers.push(...Array.from({ length: 12 }, () => failure(503)));
    await vi.advanceTimersByTimeAsync(14_000);
    expect(s.$authState.get()).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(s.$authState.get()).toBe(0);
    // the expired session stays stored: the hint that the next try may bring the visitor back
    expect(localStorage.getItem(storageKeys.longSession)).toBe('long-1');
    const calls = api.refresh.mock.calls.length;
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(api.refresh.mock.calls.length).toBeGreaterThan(calls);
    expect(s.$authState.get()).toBe(1);
  });

  it('[spec 7.me-refresh-failure] only logs an answer without a short session', async () => {
    signedIn(50);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { answers, session: s } = start();
    answers.push({});
    await vi.advanceTimersByTimeAsync(10_000);
    expect(warn).toHaveBeenCalledWith('[corbado] refresh answered without a short session');
    expect(s.$authState.get()).toBe(1);
    warn.mockRestore();
  });
});

describe('Session: start-up', () => {
  it('[spec 4.session-startup] refreshes a returning visitor whose short session expired, before saying who is signed in', async () => {
    localStorage.setItem(storageKeys.shortSession, session(-3600));
    let answer!: (value: { shortSession: string }) => void;
    const fake = fakeApi();
    fake.answers.push(() => new Promise((resolve) => (answer = resolve)));
    const s = new Session(fake.client, Promise.resolve(undefined), false, window);
    started.push(s);
    s.start();
    expect(s.$restoring.get()).toBe(true);
    expect(s.$authState.get()).toBe(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.api.refresh).toHaveBeenCalledTimes(1);
    answer({ shortSession: session(300) });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.$restoring.get()).toBe(false);
    expect(s.$authState.get()).toBe(1);
  });

  it('refreshes when only a long session is stored', async () => {
    localStorage.setItem(storageKeys.longSession, 'long-1');
    const { api, session: s } = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(s.$authState.get()).toBe(1);
  });

  it('costs a never-signed-in visitor no request', async () => {
    const { api, session: s } = start();
    expect(s.$restoring.get()).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(api.refresh).not.toHaveBeenCalled();
  });

  it('forgets the hint when the server refuses the long session', async () => {
    localStorage.setItem(storageKeys.shortSession, session(-60));
    const { answers, session: s } = start();
    answers.push(failure(401));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.$restoring.get()).toBe(false);
    expect(localStorage.getItem(storageKeys.shortSession)).toBeNull();
  });
});

describe('Session: the cookie', () => {
  it('writes the short session into the cookie, reads it back at start-up and clears it at log-out', async () => {
    const first = start({ cookie: true });
    const token1 = session(300);
    first.session.setSession(token1, 'long-1');
    await vi.advanceTimersByTimeAsync(0);
    expect(document.cookie).toContain(`cbo_short_session=${token1}`);

    localStorage.removeItem(storageKeys.shortSession); // storage lost, the cookie kept
    const second = start({ cookie: true });
    expect(second.session.$shortSession.get()).toBe(token1);
    await second.session.logout();
    expect(second.api.logout).toHaveBeenCalledTimes(1);
    expect(document.cookie).not.toContain(token1);
    expect(second.session.$authState.get()).toBe(0);
  });

  it('[spec 3.short-session-cookie] takes domain, secure, sameSite, path and lifetimeSeconds from the session configuration', async () => {
    const writes: string[] = [];
    const page = { document: { get cookie() { return ''; }, set cookie(value: string) { writes.push(value); } } } as unknown as Window & typeof globalThis;
    const config = { domain: 'example.test', secure: true, sameSite: 'strict' as const, path: '/app', lifetimeSeconds: 777 };
    const s = new Session(fakeApi().client, Promise.resolve({ useSessionManagement: true, shortSessionCookieConfig: config }), true, page);
    await s.ready();
    const token1 = session(300);
    s.setSession(token1, 'long-1');
    expect(writes.at(-1)!.split('; ').sort()).toEqual([`cbo_short_session=${token1}`, 'SameSite=strict', 'domain=example.test', 'max-age=777', 'path=/app', 'secure'].sort());
  });

  it('[spec 3.short-session-cookie] is neither read nor written when it is off (the default)', async () => {
    document.cookie = `cbo_short_session=${session(300)}; path=/`;
    const { session: s } = start();
    expect(s.$authState.get()).toBe(0);
    s.setSession(session(300, 'usr-2'));
    await vi.advanceTimersByTimeAsync(0);
    expect(document.cookie).not.toContain(session(300, 'usr-2'));
  });
});

describe('Session: every tab follows', () => {
  it('signs out when another tab signs out, and in when another tab signs in', () => {
    signedIn(300);
    const { session: s, ended } = start();
    const users: (string | undefined)[] = [];
    s.$user.listen((user) => users.push(user?.sub));
    otherTabWrites(storageKeys.longSession, undefined);
    otherTabWrites(storageKeys.shortSession, undefined);
    expect(s.$authState.get()).toBe(0);
    expect(ended).toHaveBeenCalledTimes(1);
    otherTabWrites(storageKeys.shortSession, session(300, 'usr-2'));
    expect(s.$user.get()?.sub).toBe('usr-2');
    expect(users).toEqual([undefined, 'usr-2']);
  });

  it('follows a storage cleared as a whole', () => {
    signedIn(300);
    const { session: s } = start();
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(s.$authState.get()).toBe(0);
  });

  it('adopts what another tab refreshed meanwhile instead of asking again', async () => {
    signedIn(50);
    const { api, session: s } = start();
    // the other tab's refresh lands while this one is between checks, without an event reaching it
    localStorage.setItem(storageKeys.shortSession, session(200, 'usr-1'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.refresh).not.toHaveBeenCalled();
    expect(decodeShortSession(s.$shortSession.get())!.exp).toBe(now() + 190);
  });

  it('keeps a session another tab signed into while its own refresh was refused', async () => {
    signedIn(50);
    const { answers, session: s } = start();
    const fresh = session(300, 'usr-2');
    answers.push(async () => {
      localStorage.setItem(storageKeys.shortSession, fresh);
      localStorage.setItem(storageKeys.longSession, 'long-2');
      throw failure(401);
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(s.$shortSession.get()).toBe(fresh);
    expect(localStorage.getItem(storageKeys.longSession)).toBe('long-2');
  });

  it('stops retrying when another tab signs out', async () => {
    signedIn(50);
    const { api, answers } = start();
    answers.push(failure(500));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    otherTabWrites(storageKeys.shortSession, undefined);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.refresh).toHaveBeenCalledTimes(1);
  });
});

describe('Session: a page on another site than the Frontend API', () => {
  const crossSite = (sessions: 'storage' | 'short-only', url: string) =>
    ({ shortSessionCookieConfig: cookieConfig, frontendApiUrl: url, crossSite: { sessions } }) as SessionConfig;

  it('a browser that refused the cookie: short-only, told once; no refresh and no check sign the visitor out early; the end comes with the short session, and says why', async () => {
    setVisibility('visible');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { api, session: s, ended, endedElsewhere } = start({ config: crossSite('short-only', 'https://authsite.test') });
    await s.ready();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/authsite\.test is on another site.*crossSiteSessions is "short-only"/);
    // the cookie-only question after the sign-in is refused: the browser kept no cookie of the API
    endedElsewhere(failure(401));
    await s.signedIn(session(150));
    expect(api.sessions).toHaveBeenCalledTimes(1);
    expect(s.$persistence.get()).toBe('short-only');
    expect(localStorage.getItem(storageKeys.sessionPersistence)).toBe('short-only');
    expect(warn).toHaveBeenCalledTimes(2);
    // 140 s: the checks neither refresh (nothing to refresh with) nor ask (the answer would be a refusal)
    await vi.advanceTimersByTimeAsync(140_000);
    expect(api.refresh).not.toHaveBeenCalled();
    expect(api.sessions).toHaveBeenCalledTimes(1);
    expect(s.$authState.get()).toBe(1);
    expect(ended).not.toHaveBeenCalled();
    // expired: the session ends as any end is told, and sessionPersistence still says why
    await vi.advanceTimersByTimeAsync(20_000);
    expect(s.$authState.get()).toBe(0);
    expect(ended).toHaveBeenCalledTimes(1);
    expect(s.$persistence.get()).toBe('short-only');
    warn.mockRestore();
  });

  it('a browser that kept the Partitioned cookie: cookie, and the refresh keeps the visitor signed in', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { api, session: s } = start({ config: crossSite('short-only', 'https://authsite-kept.test') });
    await s.signedIn(session(65));
    expect(s.$persistence.get()).toBe('cookie');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(s.$authState.get()).toBe(1);
    warn.mockRestore();
  });

  it('crossSiteSessions "storage": the long session of the answer is kept in storage; one warning per page, whatever the loads', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { api, session: s } = start({ config: crossSite('storage', 'https://authsite-storage.test') });
    const second = start({ config: crossSite('storage', 'https://authsite-storage.test') });
    await Promise.all([s.ready(), second.session.ready()]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/crossSiteSessions is "storage".*script on the page can read it/);
    await s.signedIn(session(300), 'long-9');
    expect(api.sessions).not.toHaveBeenCalled();
    expect(s.$persistence.get()).toBe('storage');
    expect(localStorage.getItem(storageKeys.longSession)).toBe('long-9');
    warn.mockRestore();
  });

  it('a session signed in before the widget knew: the first refresh by cookie says cookie, one with a stored long session says storage', async () => {
    localStorage.setItem(storageKeys.shortSession, session(30));
    const { session: s } = start();
    expect(s.$persistence.get()).toBeUndefined();
    await s.refresh();
    expect(s.$persistence.get()).toBe('cookie');
    localStorage.clear();
    signedIn(30);
    const second = start();
    await second.session.refresh();
    expect(second.session.$persistence.get()).toBe('storage');
  });

  it("the API on the page's site: no warning; the cookie is asked after too (WebKitGTK refuses a sibling's), and kept: cookie", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { api, session: s, endedElsewhere } = start();
    await s.signedIn(session(300));
    expect(api.sessions).toHaveBeenCalledTimes(1);
    expect(s.$persistence.get()).toBe('cookie');
    expect(warn).not.toHaveBeenCalled();
    // a browser that refuses it on the same site: short-only, told
    endedElsewhere(failure(401));
    await s.signedIn(session(300));
    expect(s.$persistence.get()).toBe('short-only');
    endedElsewhere(undefined);
    // log-out forgets it
    await s.logout();
    expect(s.$persistence.get()).toBeUndefined();
    warn.mockRestore();
  });
});
