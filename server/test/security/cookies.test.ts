// The cookies the API sets, attribute by attribute, as a browser reads them: the browser cookie
// (http/browserCookie.ts) that lets an e-mail link continue in the browser that asked for it, and the
// long session (session/Sessions.ts). Over https (a production server whose PUBLIC_URL is https) the
// browser cookie carries the __Host- prefix, so that no sibling subdomain can plant one, and only the
// prefixed one is read; both are HttpOnly (no script reads them), Secure, on Path=/ with no Domain
// (this host only) and SameSite=Lax. On a development server over http they are the same without
// Secure and without the prefix, which browsers would refuse there. From a page on another site than the
// API (http/crossSite.ts) a browser refuses SameSite=Lax cookies set on its fetches: there both are
// SameSite=None; Secure; Partitioned (CHIPS), so that the browser keeps them in the page's partition, and
// the social sign-in's binding cookie too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP, startProductionServer, type ProductionServer } from '../helpers/productionServer.ts';
import { Client, latestCode, serverForThisFile, uniqueEmail, type ApiResponse, type TestServer } from '../helpers/testServer.ts';

const TOKEN = '[A-Za-z0-9_-]{43}';

/** The one Set-Cookie line of an answer that sets `name`. */
function cookieLine(res: ApiResponse, name: string): string {
  const lines = res.headers.getSetCookie().filter((l) => l.startsWith(`${name}=`));
  expect(lines, res.headers.getSetCookie().join('\n')).toHaveLength(1);
  return lines[0]!;
}

/** The value of the cookie `name` an answer set. */
function cookieValue(res: ApiResponse, name: string): string {
  return cookieLine(res, name).split(';')[0]!.slice(name.length + 1);
}

/** Exactly these attributes, in Hono's order; anything else (Domain, Partitioned, another SameSite) fails. */
function expectExactly(line: string, name: string, value: string, maxAge: number | string, secure: boolean): void {
  expect(line).toMatch(new RegExp(`^${name}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly;${secure ? ' Secure;' : ''} SameSite=Lax$`));
  expect(line).not.toMatch(/domain=/i);
}

/** The cross-site attributes, exactly: HttpOnly, Secure, SameSite=None, Partitioned, no Domain. */
function expectPartitioned(line: string, name: string, path = '/'): void {
  expect(line).toMatch(new RegExp(`^${name}=${TOKEN}; Max-Age=\\d+; Path=${path}; HttpOnly; Secure; SameSite=None; Partitioned$`));
}

/** Signs a new user up by e-mail code; answers the completing response. */
async function signUp(client: Client, code: (email: string) => Promise<string>): Promise<ApiResponse> {
  const email = uniqueEmail('cookie');
  await client.init({}, 'signup-init');
  await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Cora Cookie' });
  const done = await client.request('POST', '/v2/auth/identifier/verify/finish', { code: await code(email), identifierType: 'email', verificationType: 'email-otp' });
  expect(done.body.blockBody.block).toBe('completed');
  return done;
}

/**
 * A production server at `publicUrl` for the describe this is called in: started before its tests,
 * stopped after them; `code()` reads the code of the next mail it sent (each sign-up sends one).
 */
function productionFor(publicUrl: string): { readonly server: TestServer; readonly projectId: string; code: () => Promise<string> } {
  let production: ProductionServer;
  let mails = 0;
  beforeAll(async () => {
    production = await startProductionServer(publicUrl);
  });
  afterAll(() => production.stop());
  return {
    get server() {
      return production.server;
    },
    get projectId() {
      return production.projectId;
    },
    code: () => production.code(++mails),
  };
}

describe('over https (a production server)', () => {
  const https = productionFor('https://auth.shop.example');

  it('the browser cookie is __Host-cbo_browser, HttpOnly, Secure, Path=/, no Domain, SameSite=Lax; an unprefixed one is not read', async () => {
    const client = new Client(https.server.url, https.projectId, SHOP);
    const init = await client.init({}, 'signup-init');
    expect(init.headers.getSetCookie().filter((l) => l.startsWith('cbo_browser='))).toEqual([]);
    const line = cookieLine(init, '__Host-cbo_browser');
    expectExactly(line, '__Host-cbo_browser', TOKEN, '\\d+', true);
    const value = cookieValue(init, '__Host-cbo_browser');
    // the browser sends it back: the same value is kept
    const again = await new Client(https.server.url, https.projectId, SHOP).request('POST', '/v2/auth/process/init', { clientInformation: {} }, { Cookie: `__Host-cbo_browser=${value}` });
    expect(cookieValue(again, '__Host-cbo_browser')).toBe(value);
    // a value planted without the prefix (by a sibling subdomain, or over http) is ignored and replaced
    const planted = await new Client(https.server.url, https.projectId, SHOP).request('POST', '/v2/auth/process/init', { clientInformation: {} }, { Cookie: `cbo_browser=${value}` });
    expect(cookieValue(planted, '__Host-cbo_browser')).not.toBe(value);
  });

  it('the long session is cbo_long_session, HttpOnly, Secure, Path=/, no Domain, SameSite=Lax, at completion, refresh and logout', async () => {
    const client = new Client(https.server.url, https.projectId, SHOP);
    const done = await signUp(client, https.code);
    expectExactly(cookieLine(done, 'cbo_long_session'), 'cbo_long_session', TOKEN, '\\d+', true);
    const first = cookieValue(done, 'cbo_long_session');
    const refreshed = await client.request('POST', '/v2/me/refresh', undefined, { Cookie: `cbo_long_session=${first}` });
    expect(refreshed.status).toBe(200);
    expectExactly(cookieLine(refreshed, 'cbo_long_session'), 'cbo_long_session', TOKEN, '\\d+', true);
    const second = cookieValue(refreshed, 'cbo_long_session');
    const logout = await client.request('POST', '/v2/me/logout', undefined, { Cookie: `cbo_long_session=${second}` });
    expect(logout.status).toBe(204);
    expect(cookieLine(logout, 'cbo_long_session')).toMatch(/^cbo_long_session=; Max-Age=0; Path=\/; Secure$/);
  });
});

describe('over http (a development server)', () => {
  const server = serverForThisFile();

  it('the browser cookie is cbo_browser, HttpOnly, Path=/, no Domain, SameSite=Lax, not Secure', async () => {
    const client = new Client(server.url, 'pro-1');
    const init = await client.init({}, 'signup-init');
    expect(init.headers.getSetCookie().filter((l) => l.startsWith('__Host-'))).toEqual([]);
    expectExactly(cookieLine(init, 'cbo_browser'), 'cbo_browser', TOKEN, '\\d+', false);
  });

  it('the long session is cbo_long_session, HttpOnly, Path=/, no Domain, SameSite=Lax, not Secure', async () => {
    const done = await signUp(new Client(server.url, 'pro-1'), (email) => latestCode(server.url, email));
    expectExactly(cookieLine(done, 'cbo_long_session'), 'cbo_long_session', TOKEN, '\\d+', false);
  });
});

describe('from a page on another site than the API (https://shop.example calling https://authsite.example)', () => {
  const https = productionFor('https://authsite.example');

  it('the browser cookie is __Host-cbo_browser, HttpOnly, Secure, SameSite=None, Partitioned', async () => {
    const init = await new Client(https.server.url, https.projectId, SHOP).init({}, 'signup-init');
    expectPartitioned(cookieLine(init, '__Host-cbo_browser'), '__Host-cbo_browser');
  });

  it('the long session is HttpOnly, Secure, SameSite=None, Partitioned at completion and refresh, and removed in its partition at logout; not in the body', async () => {
    const client = new Client(https.server.url, https.projectId, SHOP);
    const done = await signUp(client, https.code);
    expectPartitioned(cookieLine(done, 'cbo_long_session'), 'cbo_long_session');
    // crossSiteSessions "short-only" (the default): the long session is never readable by the page
    expect(JSON.stringify(done.body)).not.toContain(cookieValue(done, 'cbo_long_session'));
    const refreshed = await client.request('POST', '/v2/me/refresh', undefined, { Cookie: `cbo_long_session=${cookieValue(done, 'cbo_long_session')}` });
    expect(refreshed.status).toBe(200);
    expectPartitioned(cookieLine(refreshed, 'cbo_long_session'), 'cbo_long_session');
    expect(refreshed.body.longSession).toBeUndefined();
    const logout = await client.request('POST', '/v2/me/logout', undefined, { Cookie: `cbo_long_session=${cookieValue(refreshed, 'cbo_long_session')}` });
    expect(logout.status).toBe(204);
    expect(cookieLine(logout, 'cbo_long_session')).toBe('cbo_long_session=; Max-Age=0; Path=/; Secure; SameSite=None; Partitioned');
  });

  it('the social binding cookie is HttpOnly, Secure, SameSite=None, Partitioned on its path', async () => {
    const social = await startProductionServer('https://authsite.example', {}, { socialProviders: ['github'] });
    try {
      const client = new Client(social.server.url, social.projectId, SHOP);
      await client.init({}, 'signup-init');
      const start = await client.request('POST', '/v2/auth/social/verify/start', { providerType: 'github', redirectUrl: `${SHOP}/login`, authType: 'signup' });
      expect(start.status, JSON.stringify(start.body)).toBe(200);
      expectPartitioned(cookieLine(start, 'cbo_social_browser'), 'cbo_social_browser', '/v2/auth/social/');
    } finally {
      await social.stop();
    }
  });

  it('the session configuration tells the widget that the page is on another site, and what the project keeps there', async () => {
    const config = await new Client(https.server.url, https.projectId, SHOP).request('GET', '/v2/session-config');
    expect(config.body.crossSite).toEqual({ sessions: 'short-only' });
    // the API's own site (a sibling subdomain of the page) is no other site
    const sameSite = await startProductionServer('https://auth.shop.example');
    try {
      const own = await new Client(sameSite.server.url, sameSite.projectId, SHOP).request('GET', '/v2/session-config');
      expect(own.body.crossSite).toBeUndefined();
    } finally {
      await sameSite.stop();
    }
  });
});

describe('crossSiteSessions: "storage" (a page on another site keeps the long session in its storage)', () => {
  let production: ProductionServer;
  beforeAll(async () => {
    production = await startProductionServer('https://authsite.example', {}, { crossSiteSessions: 'storage' });
  });
  afterAll(() => production.stop());

  it('the long session is in the body at completion and refresh (and the Partitioned cookie is set too); the session configuration says so', async () => {
    const client = new Client(production.server.url, production.projectId, SHOP);
    const done = await signUp(client, () => production.code(1));
    const token = cookieValue(done, 'cbo_long_session');
    expect(done.body.blockBody.data.longSession).toBe(token);
    expectPartitioned(cookieLine(done, 'cbo_long_session'), 'cbo_long_session');
    client.longSession = token;
    const refreshed = await client.request('POST', '/v2/me/refresh', { rotate: true });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.longSession).toMatch(new RegExp(`^${TOKEN}$`));
    expect((await client.request('GET', '/v2/session-config')).body.crossSite).toEqual({ sessions: 'storage' });
  });

  it("a page on the API's own site gets it only as the cookie", async () => {
    const sameSite = await startProductionServer('https://auth.shop.example', {}, { crossSiteSessions: 'storage' });
    try {
      const done = await signUp(new Client(sameSite.server.url, sameSite.projectId, SHOP), () => sameSite.code(1));
      expect(done.body.blockBody.data.longSession).toBeUndefined();
      expectExactly(cookieLine(done, 'cbo_long_session'), 'cbo_long_session', TOKEN, '\\d+', true);
    } finally {
      await sameSite.stop();
    }
  });
});
