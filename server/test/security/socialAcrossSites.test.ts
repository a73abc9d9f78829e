// Social sign-in from a page on another site than the API (flow/social.ts, "across sites"): the API is
// https://authsite.example (this test's "browser" maps the name to the test server, as a browser's host
// resolver would), the page http://localhost:5173. The binding cookie a cross-site fetch sets is
// partitioned by the page's site and never reaches the callback, so the round trip starts with a
// top-level navigation to the API (GO_PATH), which sets it first-party; the callback returns to the page
// with a result secret that finish requires. SECURITY.md 39 across sites: a callback carried to another
// browser is refused, and a start URL carried to another browser gets nobody in. And an e-mail link
// across sites: the link's page, in the browser that asked, continues by the Partitioned browser cookie.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consent, get, SocialBrowser, WITHOUT_PASSKEYS } from '../helpers/socialBrowser.ts';
import { askForLink } from '../helpers/emailLink.ts';
import { Client, createProject, startTestServer, uniqueEmail, type TestServer } from '../helpers/testServer.ts';

const API = 'https://authsite.example';
let server: TestServer;

/** A free port for the server, known before it starts (the provider settings name it). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  const sim = `http://127.0.0.1:${port}/_dev/oauth/github`;
  server = await startTestServer({
    api: {
      port,
      publicUrl: API,
      socialProviders: {
        github: { authorizeUrl: `${sim}/login/oauth/authorize`, tokenUrl: `${sim}/login/oauth/access_token`, userinfoUrl: `${sim}/api/user`, emailsUrl: `${sim}/api/user/emails` },
      },
    },
  });
});
afterAll(() => server.stop());

/** What the browser's host resolver does: the API's name reaches the test server. */
const resolved = (url: string) => url.replace(API, server.url);

/** One browser: the widget's fetches (the partitioned jar of SocialBrowser) and its first-party cookies of the API. */
class CrossSiteBrowser extends SocialBrowser {
  firstParty = new Map<string, string>();
  constructor() {
    super(server.url, 'pro-1');
  }
  /** a top-level navigation to the API: its cookies are the API's own */
  async navigate(url: string): Promise<{ status: number; text: string; headers: Headers }> {
    const cookie = [...this.firstParty].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await get(resolved(url), cookie || undefined);
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      this.firstParty.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
    }
    return res;
  }
}

async function started(browser: CrossSiteBrowser): Promise<string> {
  await browser.init(WITHOUT_PASSKEYS, 'signup-init');
  const block = await browser.startSocial('github', 'signup');
  return block.data.socialData.oauthUrl;
}

describe('a provider sign-in begun on another site', () => {
  it('starts with a top-level navigation to the API, which sets the binding cookie first-party and goes on to the provider; the page finishes with the result secret', async () => {
    const browser = new CrossSiteBrowser();
    const go = await started(browser);
    expect(go.startsWith(`${API}/v2/auth/social/verify/go?`)).toBe(true);
    const first = await browser.navigate(go);
    expect(first.status).toBe(302);
    expect(first.headers.getSetCookie().find((l) => l.startsWith('cbo_social_browser='))).toMatch(/HttpOnly; Secure; SameSite=Lax$/);
    const provider = first.headers.get('location')!;
    expect(provider).toContain('/_dev/oauth/github/login/oauth/authorize');
    // the start is spent
    expect((await new CrossSiteBrowser().navigate(go)).status).toBe(400);
    const email = uniqueEmail('cross-site-social');
    const back = await browser.navigate((await consent(provider, { email, vouched: true })).toString());
    expect(back.status, back.text.slice(0, 300)).toBe(302);
    const page = new URL(back.headers.get('location')!);
    expect(page.origin + page.pathname).toBe('http://localhost:5173/');
    const result = page.searchParams.get('cbo_social_result')!;
    expect(result).toMatch(/^[\w-]{43}$/);
    // the process holder without the result secret (or with another) finishes nothing; the secret then does
    for (const body of [{}, { result: 'x'.repeat(43) }]) {
      const refused = await browser.request('POST', '/v2/auth/social/verify/finish', body);
      expect(refused.status).toBe(403);
      expect(refused.body.error.type).toBe('social_result_mismatch');
    }
    const finished = await browser.step('/v2/auth/social/verify/finish', { result });
    expect(finished.block).toBe('completed');
    expect(browser.longSession).toBeDefined();
  });

  it('SECURITY.md 39 across sites: a callback carried to another browser is refused, and the starting page gets nobody in', async () => {
    const browser = new CrossSiteBrowser();
    const first = await browser.navigate(await started(browser));
    const callback = (await consent(first.headers.get('location')!, { email: uniqueEmail('cross-site-carried'), vouched: true })).toString();
    const elsewhere = await new CrossSiteBrowser().navigate(callback);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.text).toContain('This sign-in was started in another browser.');
    const resumed = await browser.getStep('/v2/auth/process');
    expect(resumed.data.error.code).toBe('social_login_failed');
    expect((await browser.step('/v2/auth/social/verify/finish', {})).data.error.code).toBe('unexpected_step');
    expect(browser.longSession).toBeUndefined();
  });

  it("a start URL sent to someone else gets nobody in: the victim's page holds no process, the attacker's page never sees the result secret", async () => {
    const attacker = new CrossSiteBrowser();
    const go = await started(attacker);
    const victim = new CrossSiteBrowser();
    const first = await victim.navigate(go);
    const back = await victim.navigate((await consent(first.headers.get('location')!, { email: uniqueEmail('cross-site-victim'), vouched: true })).toString());
    expect(back.status).toBe(302);
    // the attacker's process says finished, but finish needs the secret that went to the victim's address bar
    const refused = await attacker.request('POST', '/v2/auth/social/verify/finish', {});
    expect(refused.status).toBe(403);
    expect(attacker.longSession).toBeUndefined();
    expect(victim.longSession).toBeUndefined();
  });
});

describe('an e-mail link opened on the page of another site', () => {
  it("continues by itself in the browser that asked: its Partitioned browser cookie comes back with the link page's calls", async () => {
    const project = await createProject(server.url, { identifiers: { email: { verification: 'email-link' } }, passkeys: false });
    const asked = await askForLink(server.url, project, 'signup', uniqueEmail('cross-site-link'));
    const line = asked.init.headers.getSetCookie().find((l) => l.startsWith('__Host-cbo_browser='))!;
    expect(line).toMatch(/; SameSite=None; Partitioned$/);
    // the link opens the shop's page in the same browser: a tab of its own, no process token, the same partition's cookie
    const linkTab = new Client(server.url, project);
    const opened = await linkTab.request('POST', '/v2/auth/email-link/open', { process: asked.process, token: asked.token }, { Cookie: line.split(';')[0]! });
    expect(opened.body.blockBody.continueOnOtherDevice).toEqual({ reason: 'email-link-verified' });
    expect((await asked.asker.getStep('/v2/auth/identifier/verify/status')).block).toBe('completed');
  });
});
