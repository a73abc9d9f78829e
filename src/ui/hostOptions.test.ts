// The host's options of Corbado.load() as SPEC.md sections 1 and 9 state them: their defaults and what
// each one changes, seen from the page (the body class, the requests the widget makes).
import { afterEach, describe, expect, it, vi } from 'vitest';
import Corbado from '../Corbado';
import { $language, t } from '../core/i18n/i18n';

const projectId = 'pro-1';
const frontendApiUrl = 'http://api.example.invalid';

/** Requests the widget makes, answered by `answer` (503 by default, so it settles on its failure states). */
function recordRequests(answer: (request: Request) => Promise<Response> = async () => new Response('{}', { status: 503 })) {
  const requests: Request[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request);
    return answer(request);
  });
  return requests;
}

/** A system colour scheme the test switches, in place of the browser's (prefers-color-scheme). */
function systemScheme(dark: boolean) {
  const listeners = new Set<(event: { matches: boolean }) => void>();
  const query = {
    matches: dark,
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_: string, listener: (event: { matches: boolean }) => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: (event: { matches: boolean }) => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', (media: string) => (media === query.media ? query : { matches: false, addEventListener() {}, removeEventListener() {} }));
  return {
    switchTo(next: boolean) {
      query.matches = next;
      for (const listener of [...listeners]) listener({ matches: next });
    },
    listening: () => listeners.size,
  };
}

const darkBody = () => document.body.classList.contains('cb-dark');

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
  document.cookie = 'cbo_short_session=; max-age=0; path=/';
  vi.unstubAllGlobals();
  document.body.classList.remove('cb-dark');
});

describe('darkMode', () => {
  it('[spec 1.option-dark-mode] [spec 1.dark-mode] [spec 9.dark-mode] is auto by default: the cb-dark body class follows the system colour scheme', async () => {
    recordRequests();
    const scheme = systemScheme(true);
    await Corbado.load({ projectId, frontendApiUrl });
    expect(darkBody()).toBe(true);
    scheme.switchTo(false);
    expect(darkBody()).toBe(false);
    scheme.switchTo(true);
    expect(darkBody()).toBe(true);
  });

  it('[spec 1.dark-mode] [spec 9.dark-mode] on and off set the cb-dark body class whatever the system says, and stop following it', async () => {
    recordRequests();
    const scheme = systemScheme(false);
    await Corbado.load({ projectId, frontendApiUrl, darkMode: 'on' });
    expect(darkBody()).toBe(true);
    expect(scheme.listening()).toBe(0);
    scheme.switchTo(false);
    expect(darkBody()).toBe(true);

    scheme.switchTo(true);
    await Corbado.load({ projectId, frontendApiUrl, darkMode: 'off' });
    expect(darkBody()).toBe(false);
    expect(scheme.listening()).toBe(0);

    await Corbado.load({ projectId, frontendApiUrl, darkMode: 'auto' });
    expect(darkBody()).toBe(true);
    expect(scheme.listening()).toBe(1);
  });
});

describe('isDevMode', () => {
  it('[spec 1.option-dev-mode] sends the preview flag on every request, and no flag without it', async () => {
    systemScheme(false);
    // a header, or on the first calls (simple requests, no preflight) a query parameter
    const flags = (r: Request) => r.headers.get('x-corbado-flags') ?? new URL(r.url).searchParams.get('flags') ?? '';
    let requests = recordRequests();
    await Corbado.load({ projectId, frontendApiUrl, isDevMode: true });
    await expect.poll(() => requests.length).toBeGreaterThan(0);
    expect(requests.map(flags)).toEqual(requests.map(() => 'preview'));

    requests = recordRequests();
    await Corbado.load({ projectId, frontendApiUrl });
    await expect.poll(() => requests.length).toBeGreaterThan(0);
    expect(requests.map(flags)).toEqual(requests.map(() => ''));
  });
});

describe('apiTimeout', () => {
  it('[spec 9.api-timeout] is 30000 ms by default: a request still unanswered then is given up', async () => {
    systemScheme(false);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // a Frontend API that never answers: the request ends only when the widget aborts it
    const requests = recordRequests((request) => new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason))));
    await Corbado.load({ projectId, frontendApiUrl });
    const sessionConfig = requests.find((r) => new URL(r.url).pathname.endsWith('/v2/session-config'))!;
    expect(sessionConfig).toBeDefined();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(sessionConfig.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sessionConfig.signal.aborted).toBe(true);
  });
});

describe('the language options', () => {
  it('[spec 1.option-languages] defaultLanguage, autoDetectLanguage and customTranslations choose and change the texts', async () => {
    recordRequests();
    systemScheme(false);
    vi.stubGlobal('navigator', { ...navigator, language: 'de-DE' });
    await Corbado.load({ projectId, frontendApiUrl, defaultLanguage: 'en', autoDetectLanguage: true });
    expect($language.get()).toBe('de');
    await Corbado.load({ projectId, frontendApiUrl, defaultLanguage: 'en', autoDetectLanguage: false });
    expect($language.get()).toBe('en');
    await Corbado.load({ projectId, frontendApiUrl, defaultLanguage: 'de', autoDetectLanguage: false, customTranslations: { de: { loginInit: { header: 'Servus' } } } });
    expect($language.get()).toBe('de');
    expect(t('loginInit.header')).toBe('Servus');
  });
});

/** A short session as the Frontend API issues it (only its claims are read here). */
function shortSession(claims: Record<string, unknown>): string {
  const payload = btoa(JSON.stringify({ sub: 'usr-1', exp: Math.floor(Date.now() / 1000) + 3600, ...claims })).replace(/=+$/, '');
  return `eyJhbGciOiJFUzI1NiJ9.${payload}.c2ln`;
}

describe('what the host sees', () => {
  it('[spec 1.host-state] [spec 1.logout] the current user, the short session and the authenticated flag, each with its change subscription, until logout', async () => {
    recordRequests();
    systemScheme(false);
    const seen = { user: [] as unknown[], shortSession: [] as unknown[], authState: [] as unknown[] };
    const subscriptions = [
      Corbado.userChanges.subscribe((user) => seen.user.push(user?.sub)),
      Corbado.shortSessionChanges.subscribe((token) => seen.shortSession.push(token)),
      Corbado.authStateChanges.subscribe((state) => seen.authState.push(state)),
    ];
    await Corbado.load({ projectId, frontendApiUrl });
    expect(Corbado.isAuthenticated).toBe(false);
    const token = shortSession({ sub: 'usr-7', name: 'Ada' });
    localStorage.setItem('cbo_short_session', token);
    await Corbado.load({ projectId, frontendApiUrl });
    expect(Corbado.shortSession).toBe(token);
    expect(Corbado.user).toMatchObject({ sub: 'usr-7', name: 'Ada' });
    expect(Corbado.isAuthenticated).toBe(true);
    await Corbado.logout();
    expect(Corbado.shortSession).toBeUndefined();
    expect(Corbado.user).toBeUndefined();
    expect(Corbado.isAuthenticated).toBe(false);
    expect(localStorage.getItem('cbo_short_session')).toBeNull();
    expect(seen).toEqual({ user: [undefined, 'usr-7', undefined], shortSession: [undefined, token, undefined], authState: [0, 1, 0] });
    for (const subscription of subscriptions) subscription.unsubscribe();
  });
});

describe('setShortSessionCookie', () => {
  it('[spec 9.short-session-cookie] is off by default: a short session in the cookie is not read', async () => {
    recordRequests();
    systemScheme(false);
    const token = shortSession({});
    document.cookie = `cbo_short_session=${token}; path=/`;
    await Corbado.load({ projectId, frontendApiUrl });
    expect(Corbado.shortSession).toBeUndefined();
    expect(Corbado.isAuthenticated).toBe(false);
    await Corbado.load({ projectId, frontendApiUrl, setShortSessionCookie: true });
    expect(Corbado.shortSession).toBe(token);
  });
});
