/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Issue 24, "sessions a person can see and end": the account lists the user's live sessions (browser
// and OS, created, last used, this device) and ends one, or all but this one; an ended session
// refreshes no more and its liveness check fails at once. Only the owner, with a live session of their
// own, may list or end: another user's session id changes nothing.
import { describe, expect, it } from 'vitest';
import { Client, latestCode, serverForThisFile, uniqueEmail } from '../helpers/testServer.ts';

const server = serverForThisFile();

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A browser (its User-Agent) that signs up, or logs in when the address has an account. */
async function logIn(email: string, userAgent?: string, signUp = false): Promise<Client> {
  const client = new Client(server.url, 'pro-1');
  const ua: Record<string, string> = userAgent ? { 'User-Agent': userAgent } : {};
  const post = async (path: string, body: unknown) => {
    const res = await client.request('POST', path, body, ua);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.blockBody ?? res.body.processResponse?.blockBody;
  };
  const init = await client.request('POST', '/v2/auth/process/init', { clientInformation: {}, preferredBlock: signUp ? 'signup-init' : 'login-init' }, ua);
  client.processToken = init.body.token;
  if (signUp) await post('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Sam Sessions' });
  else await post('/v2/auth/login/init', { identifierValue: email, isPhone: false });
  const done = await post('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email), identifierType: 'email', verificationType: 'email-otp' });
  expect(done.block).toBe('completed');
  client.longSession = done.data.longSession;
  return client;
}

describe("a user's sessions", () => {
  it('lists each device with its browser and OS, created and last used, the calling one as this device', async () => {
    const email = uniqueEmail('sessions');
    const laptop = await logIn(email, undefined, true);
    server.clock.advance(60_000);
    const desktop = await logIn(email, FIREFOX_WINDOWS);
    server.clock.advance(60_000);
    const phone = await logIn(email, SAFARI_IPHONE);
    server.clock.advance(60_000);
    expect((await desktop.request('POST', '/v2/me/refresh')).status).toBe(200);

    const listed = await phone.request('GET', '/v2/me/sessions');
    expect(listed.status).toBe(200);
    const sessions = listed.body.sessions as any[];
    expect(sessions).toHaveLength(3);
    // the most recently used first: the desktop refreshed last
    expect(sessions.map((s) => `${s.browser} on ${s.os}${s.current ? ' (this device)' : ''}`)).toEqual([
      'Firefox 128 on Windows',
      'Safari 17 on iOS (this device)',
      'Chrome 131 on macOS',
    ]);
    const [desktopSession, phoneSession, laptopSession] = sessions;
    expect(desktopSession.lastUsedMs - desktopSession.createdMs).toBe(120_000);
    expect(phoneSession.lastUsedMs).toBe(phoneSession.createdMs);
    expect(laptopSession).toMatchObject({ id: expect.stringMatching(/^ses-\d+$/), created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/) });
    expect((await laptop.request('GET', '/v2/me/sessions')).body.sessions.find((s: any) => s.current).id).toBe(laptopSession.id);
  });

  it('ends another device of the user: its refresh and its check fail at once, this one goes on', async () => {
    const email = uniqueEmail('end-one');
    const mine = await logIn(email, undefined, true);
    const other = await logIn(email, FIREFOX_WINDOWS);
    expect((await other.request('GET', '/v2/me/sessions/current')).status).toBe(204);
    const target = (await mine.request('GET', '/v2/me/sessions')).body.sessions.find((s: any) => !s.current);
    const ended = await mine.request('DELETE', `/v2/me/sessions/${target.id}`);
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ id: target.id });

    expect((await other.request('GET', '/v2/me/sessions/current')).status).toBe(401);
    expect((await other.request('POST', '/v2/me/refresh')).status).toBe(401);
    expect((await mine.request('POST', '/v2/me/refresh')).status).toBe(200);
    expect((await mine.request('GET', '/v2/me/sessions')).body.sessions).toHaveLength(1);
    // ending it again: it is gone
    expect((await mine.request('DELETE', `/v2/me/sessions/${target.id}`)).status).toBe(404);
  });

  it('signs out everywhere else: every other session of the user ends, this one stays', async () => {
    const email = uniqueEmail('end-others');
    const mine = await logIn(email, undefined, true);
    const others = [await logIn(email, FIREFOX_WINDOWS), await logIn(email, SAFARI_IPHONE)];
    const stranger = await logIn(uniqueEmail('stranger'), undefined, true);
    const res = await mine.request('DELETE', '/v2/me/sessions');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ended: 2 });
    for (const other of others) expect((await other.request('POST', '/v2/me/refresh')).status).toBe(401);
    expect((await mine.request('GET', '/v2/me/sessions/current')).status).toBe(204);
    expect((await stranger.request('POST', '/v2/me/refresh')).status).toBe(200);
  });

  it("ending another user's session id does nothing: 404, and that session lives on", async () => {
    const victim = await logIn(uniqueEmail('victim'), FIREFOX_WINDOWS, true);
    const victimSession = (await victim.request('GET', '/v2/me/sessions')).body.sessions[0];
    const attacker = await logIn(uniqueEmail('attacker'), undefined, true);
    const tried = await attacker.request('DELETE', `/v2/me/sessions/${victimSession.id}`);
    expect(tried.status).toBe(404);
    expect(tried.body.error.type).toBe('not_found');
    // in another project too, with a live session of that project
    const elsewhere = new Client(server.url, 'pro-2');
    elsewhere.longSession = attacker.longSession;
    expect((await elsewhere.request('DELETE', `/v2/me/sessions/${victimSession.id}`)).status).toBe(401);
    expect((await victim.request('POST', '/v2/me/refresh')).status).toBe(200);
    expect((await victim.request('GET', '/v2/me/sessions')).body.sessions.map((s: any) => s.id)).toEqual([victimSession.id]);
    // nor does the attacker learn of it from its own list
    expect((await attacker.request('GET', '/v2/me/sessions')).body.sessions.map((s: any) => s.id)).not.toContain(victimSession.id);
  });

  it('needs a live session of its own: none, an ended one or garbage lists and ends nothing', async () => {
    const email = uniqueEmail('no-session');
    const mine = await logIn(email, undefined, true);
    const other = await logIn(email, FIREFOX_WINDOWS);
    const otherId = (await other.request('GET', '/v2/me/sessions')).body.sessions.find((s: any) => s.current).id;
    expect((await mine.request('POST', '/v2/me/logout')).status).toBe(204);
    const anonymous = new Client(server.url, 'pro-1');
    anonymous.longSession = 'garbage';
    for (const client of [mine, anonymous, new Client(server.url, 'pro-1')]) {
      expect((await client.request('GET', '/v2/me/sessions')).status).toBe(401);
      expect((await client.request('DELETE', `/v2/me/sessions/${otherId}`)).status).toBe(401);
      expect((await client.request('DELETE', '/v2/me/sessions')).status).toBe(401);
      expect((await client.request('GET', '/v2/me/sessions/current')).status).toBe(401);
    }
    expect((await other.request('GET', '/v2/me/sessions/current')).status).toBe(204);
  });
});
