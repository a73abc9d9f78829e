import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Corbado from './Corbado';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// a Frontend API that is down: every request answers 503 at once, so the views settle on their failure states
let down: Server;
const options = { projectId: 'pro-1', frontendApiUrl: '', darkMode: 'off' as const };
beforeAll(async () => {
  down = createServer((request, response) => {
    response.writeHead(503, { 'Access-Control-Allow-Origin': request.headers.origin ?? '*', 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ error: { type: 'unavailable', links: [] } }));
  });
  await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
  options.frontendApiUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
});
// left open (but unreferenced) so requests still in flight when the file ends get their 503, not a refusal
afterAll(() => {
  down.unref();
});

function host(): HTMLElement {
  const element = document.createElement('div');
  document.body.append(element);
  return element;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('Corbado facade', () => {
  it('[spec 1.load-first] refuses to mount before load() and names the call', async () => {
    expect(() => Corbado.mountAuthUI(host())).toThrow('Please call load() before mountAuthUI');
    expect(() => Corbado.mountUserUI(host())).toThrow('Please call load() before mountUserUI');
    await expect(Corbado.logout()).rejects.toThrow('Please call load() before logout');
    expect(() => Corbado.getPasskeys()).toThrow('Please call load() before getPasskeys');
    expect(() => Corbado.getFullUser()).toThrow('Please call load() before getFullUser');
  });

  it('[spec 1.project-id] [spec 5.project-id] [spec 8.invalid-project-id] rejects a project id that is not pro- followed by digits', async () => {
    await expect(Corbado.load({ projectId: 'pro-x' })).rejects.toThrow('Invalid project ID');
    await expect(Corbado.load({ projectId: '' })).rejects.toThrow('Invalid project ID');
  });

  it('mounts into an open shadow root with its stylesheet adopted, and unmounts without a trace', async () => {
    await Corbado.load(options);
    const element = host();
    await act(async () => Corbado.mountPasskeyListUI(element));
    const shadow = element.shadowRoot!;
    expect(shadow.mode).toBe('open');
    expect(shadow.adoptedStyleSheets.length + shadow.querySelectorAll('style').length).toBe(1);
    expect(shadow.textContent).toContain('Please log in');
    expect(element.children.length).toBe(0);
    await act(async () => Corbado.unmountPasskeyListUI(element));
    expect(shadow.childNodes.length).toBe(0);
    expect(shadow.adoptedStyleSheets.length).toBe(0);
  });

  it('replaces the view when mounting twice on one element', async () => {
    await Corbado.load(options);
    const element = host();
    await act(async () => Corbado.mountPasskeyListUI(element));
    await act(async () => Corbado.mountUserUI(element));
    expect(element.shadowRoot!.querySelectorAll('.cb-root').length).toBe(1);
    await act(async () => Corbado.unmountUserUI(element));
  });

  it('[spec 1.option-theme] applies a theme class or custom properties to the host element and removes them again', async () => {
    await Corbado.load({ ...options, theme: { '--cb-primary-color': 'rebeccapurple' } });
    const element = host();
    await act(async () => Corbado.mountUserUI(element));
    expect(element.style.getPropertyValue('--cb-primary-color')).toBe('rebeccapurple');
    await act(async () => Corbado.unmountUserUI(element));
    expect(element.style.getPropertyValue('--cb-primary-color')).toBe('');

    await Corbado.load({ ...options, theme: 'brand' });
    await act(async () => Corbado.mountUserUI(element));
    expect(element.classList.contains('brand')).toBe(true);
    await act(async () => Corbado.unmountUserUI(element));
    expect(element.classList.contains('brand')).toBe(false);
  });

  it('toggles the cb-dark body class by the darkMode option', async () => {
    await Corbado.load({ ...options, darkMode: 'on' });
    expect(document.body.classList.contains('cb-dark')).toBe(true);
    await Corbado.load({ ...options, darkMode: 'off' });
    expect(document.body.classList.contains('cb-dark')).toBe(false);
  });

  it('shows the component-unavailable page when the Frontend API cannot be reached', async () => {
    await Corbado.load(options);
    const element = host();
    await act(async () => Corbado.mountAuthUI(element));
    await expect.poll(() => element.shadowRoot!.textContent, { timeout: 5000 }).toContain('unavailable');
    await act(async () => Corbado.unmountAuthUI(element));
  });

  it('tells the host of an error it shows: onError and a corbado:error event that leaves the shadow root', async () => {
    await Corbado.load(options);
    const element = host();
    const heard: unknown[] = [];
    const events: CustomEvent[] = [];
    const listener = (event: Event) => events.push(event as CustomEvent);
    document.addEventListener('corbado:error', listener);
    try {
      await act(async () => Corbado.mountAuthUI(element, { onError: (error) => heard.push(error) }));
      await expect.poll(() => heard, { timeout: 5000 }).toHaveLength(1);
      // the start-up failed (SPEC's globalError): its code, and its description for the log
      const shown = Corbado.globalError!;
      expect(heard[0]).toEqual({ code: shown.type ?? shown.kind, message: shown.message });
      expect(events.map((event) => [event.target, event.detail, event.bubbles, event.composed])).toEqual([[element, heard[0], true, true]]);
    } finally {
      document.removeEventListener('corbado:error', listener);
      await act(async () => Corbado.unmountAuthUI(element));
    }
  });

  it('tells every mounted view that the session ended: onLogout and corbado:logout with the user that was logged in', async () => {
    const claims = { sub: 'usr-1', email: 'ada@example.com', exp: Math.floor(Date.now() / 1000) + 300 };
    localStorage.setItem('cbo_short_session', `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`);
    await Corbado.load(options);
    expect(Corbado.isAuthenticated).toBe(true);
    const element = host();
    const logouts: unknown[] = [];
    const events: CustomEvent[] = [];
    element.addEventListener('corbado:logout', (event) => events.push(event as CustomEvent));
    await act(async () => Corbado.mountPasskeyListUI(element, { onLogout: () => logouts.push('onLogout') }));
    // the server is down: the local session ends all the same
    await act(() => Corbado.logout());
    expect(logouts).toEqual(['onLogout']);
    expect(events.map((event) => event.detail)).toEqual([{ user: expect.objectContaining(claims) }]);
    await act(async () => Corbado.unmountPasskeyListUI(element));
  });

  describe('each DOM event once per occurrence (README, "Events")', () => {
    const claims = { sub: 'usr-2', email: 'grace@example.com', exp: Math.floor(Date.now() / 1000) + 300 };
    const logIn = () => localStorage.setItem('cbo_short_session', `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`);

    /** Records the events of a type that reach a target in the bubbling phase: [target, bubbles, detail]. */
    function hear(target: EventTarget, type: string): unknown[][] {
      const heard: unknown[][] = [];
      const listener = (event: Event) => heard.push([event.target, event.bubbles, (event as CustomEvent).detail]);
      target.addEventListener(type, listener);
      stops.push(() => target.removeEventListener(type, listener));
      return heard;
    }
    let stops: (() => void)[] = [];
    afterEach(() => {
      stops.forEach((stop) => stop());
      stops = [];
      localStorage.clear();
    });

    it('tells the document (and window) of a session that ends while no view is mounted', async () => {
      logIn();
      await Corbado.load(options);
      const onDocument = hear(document, 'corbado:logout');
      const onWindow = hear(window, 'corbado:logout');
      await act(() => Corbado.logout());
      const once = [[document, true, { user: expect.objectContaining(claims) }]];
      expect(onDocument).toEqual(once);
      expect(onWindow).toEqual(once);
    });

    it('with two views, each element hears the log-out and the document once, from the view mounted first', async () => {
      logIn();
      await Corbado.load(options);
      const [first, second] = [host(), host()];
      const logouts: string[] = [];
      await act(async () => Corbado.mountUserUI(first, { onLogout: () => logouts.push('first') }));
      await act(async () => Corbado.mountPasskeyListUI(second, { onLogout: () => logouts.push('second') }));
      const onDocument = hear(document, 'corbado:logout');
      const [onFirst, onSecond] = [hear(first, 'corbado:logout'), hear(second, 'corbado:logout')];
      await act(() => Corbado.logout());
      const detail = { user: expect.objectContaining(claims) };
      expect(onDocument).toEqual([[first, true, detail]]);
      expect(onFirst).toEqual([[first, true, detail]]);
      expect(onSecond).toEqual([[second, false, detail]]);
      expect(logouts).toEqual(['first', 'second']);
      await act(async () => Corbado.unmountUserUI(first));
      await act(async () => Corbado.unmountPasskeyListUI(second));
    });

    it('bubbles from the next view in the page when the first was taken out of the page without unmounting', async () => {
      logIn();
      await Corbado.load(options);
      const [first, second] = [host(), host()];
      await act(async () => Corbado.mountUserUI(first));
      await act(async () => Corbado.mountPasskeyListUI(second));
      first.remove();
      const onDocument = hear(document, 'corbado:logout');
      const onFirst = hear(first, 'corbado:logout');
      await act(() => Corbado.logout());
      expect(onDocument).toEqual([[second, true, { user: expect.objectContaining(claims) }]]);
      expect(onFirst).toEqual([[first, false, { user: expect.objectContaining(claims) }]]);
      await act(async () => Corbado.unmountUserUI(first));
      await act(async () => Corbado.unmountPasskeyListUI(second));
    });

    it('with two auth views, an error reaches each view and the document once', async () => {
      await Corbado.load(options);
      const [first, second] = [host(), host()];
      const onDocument = hear(document, 'corbado:error');
      const [onFirst, onSecond] = [hear(first, 'corbado:error'), hear(second, 'corbado:error')];
      const heard: string[] = [];
      await act(async () => Corbado.mountAuthUI(first, { onError: () => heard.push('first') }));
      await act(async () => Corbado.mountLoginUI(second, { onError: () => heard.push('second') }));
      await expect.poll(() => heard, { timeout: 5000 }).toEqual(['first', 'second']);
      expect(onDocument.map(([target, bubbles]) => [target, bubbles])).toEqual([[first, true]]);
      expect(onFirst.map(([target, bubbles]) => [target, bubbles])).toEqual([[first, true]]);
      expect(onSecond.map(([target, bubbles]) => [target, bubbles])).toEqual([[second, false]]);
      await act(async () => Corbado.unmountAuthUI(first));
      await act(async () => Corbado.unmountLoginUI(second));
    });
  });

  it('tells subscribers the current user at once and whenever it changes', async () => {
    const seen: unknown[] = [];
    const subscription = Corbado.userChanges.subscribe((user) => seen.push(user));
    expect(seen).toEqual([undefined]); // at once: nobody is logged in
    // a log-in in another tab left its short session in the storage this load() reads
    const claims = { sub: 'usr-7', email: 'ada@example.com', exp: Math.floor(Date.now() / 1000) + 300 };
    localStorage.setItem('cbo_short_session', `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`);
    try {
      await Corbado.load(options);
      expect(seen).toEqual([undefined, claims]);
      expect(Corbado.isAuthenticated).toBe(true);
      // that tab logs out: this one follows, and the subscriber hears it
      localStorage.removeItem('cbo_short_session');
      window.dispatchEvent(new StorageEvent('storage', { key: 'cbo_short_session', newValue: null }));
      expect(seen).toEqual([undefined, claims, undefined]);
      expect(Corbado.isAuthenticated).toBe(false);
    } finally {
      subscription.unsubscribe();
      localStorage.clear();
    }
  });

  describe('web-js 3 names', () => {
    it('mirrors the short session as sessionToken and sessionTokenChanges', async () => {
      const seen: unknown[] = [];
      const subscription = Corbado.sessionTokenChanges.subscribe((token) => seen.push(token));
      await Corbado.load(options, { disabled: true });
      expect(Corbado.sessionToken).toBe(Corbado.shortSession);
      expect(seen).toEqual([undefined]);
      subscription.unsubscribe();
    });

    it('[spec 8.global-error] keeps the error of the initial load as globalError', async () => {
      await Corbado.load(options);
      const element = host();
      await act(async () => Corbado.mountAuthUI(element));
      await expect.poll(() => Corbado.globalError, { timeout: 5000 }).toMatchObject({ name: 'CorbadoError', recoverable: false });
      await act(async () => Corbado.unmountAuthUI(element));
    });

    it('answers a failed account call as an error Result instead of throwing', async () => {
      await Corbado.load(options);
      const passkeys = await Corbado.getPasskeys(new AbortController());
      expect(passkeys).toMatchObject({ ok: false, err: true, val: { name: 'CorbadoError', recoverable: false } });
      const user = await Corbado.getFullUser();
      expect(user).toMatchObject({ ok: false, err: true, val: { name: 'CorbadoError' } });
    });

    it('[spec 7.per-project-address] derives the default address from frontendApiUrlSuffix', async () => {
      const requested: string[] = [];
      const fetch = globalThis.fetch;
      globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        requested.push(input instanceof Request ? input.url : String(input));
        return fetch(input, init);
      };
      try {
        await Corbado.load({ projectId: 'pro-7', frontendApiUrlSuffix: 'auth.example.invalid', darkMode: 'off' });
        await expect.poll(() => requested.find((url) => url.includes('/v2/session-config'))?.replace(/\?.*$/, '')).toBe('https://pro-7.auth.example.invalid/v2/session-config');
      } finally {
        globalThis.fetch = fetch;
      }
    });
  });
});
