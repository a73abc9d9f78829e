// Issue 24, "long sessions rotate": each refresh hands out a new long session and retires the old one;
// a retired value presented again (a stolen copy) ends the whole chain of that device, while the tabs
// of one browser that refresh at once (they all present the same value) do not trip it. Over real
// HTTP, with the long session as the HttpOnly cookie (prod projects) and as the bearer a dev project's
// client keeps in local storage.
import { beforeAll, describe, expect, it } from 'vitest';
import { ROTATION_GRACE_MS } from '../../session/Sessions.ts';
import { Client, createProject, jwtPayload, latestCode, serverForThisFile, uniqueEmail } from '../helpers/testServer.ts';

const server = serverForThisFile();

/** The value of the long-session cookie an answer sets ('' when it clears it), or undefined. */
function cookieOf(res: { headers: Headers }): string | undefined {
  return /^cbo_long_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
}

/** A browser that signs up by code; its long session is what the completing answer set as the cookie. */
async function signUp(projectId: string): Promise<{ client: Client; cookie: string; email: string }> {
  const client = new Client(server.url, projectId);
  const email = uniqueEmail('rot');
  await client.init({}, 'signup-init');
  await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Rosa Rotation' });
  const done = await client.request('POST', '/v2/auth/identifier/verify/finish', {
    code: await latestCode(server.url, email),
    identifierType: 'email',
    verificationType: 'email-otp',
  });
  expect(done.body.blockBody.block).toBe('completed');
  client.longSession = done.body.blockBody.data.longSession; // dev projects only
  return { client, cookie: cookieOf(done)!, email };
}

/** A call of a browser whose long session is the cookie (no bearer, as in prod projects). */
function withCookie(client: Client, cookie: string, method: string, path: string, body?: unknown) {
  return client.request(method, path, body, { Cookie: `cbo_long_session=${cookie}`, Authorization: 'Bearer ' });
}

describe('the long session as the HttpOnly cookie (prod projects)', () => {
  let prod: string;
  beforeAll(async () => {
    prod = await createProject(server.url, { appName: 'Prod shop', environment: 'prod', passkeys: false });
  });

  it('each refresh sets a new value and retires the one presented; the answer never carries it', async () => {
    const { client, cookie: first } = await signUp(prod);
    expect(client.longSession).toBeUndefined();
    const refreshed = await withCookie(client, first, 'POST', '/v2/me/refresh');
    expect(refreshed.status).toBe(200);
    const second = cookieOf(refreshed)!;
    expect(second).toMatch(/^[\w-]{43}$/);
    expect(second).not.toBe(first);
    expect(refreshed.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(refreshed.body.longSession).toBeUndefined();
    expect(jwtPayload(refreshed.body.shortSession)).toMatchObject({ aud: prod });
    const third = cookieOf(await withCookie(client, second, 'POST', '/v2/me/refresh'))!;
    expect(new Set([first, second, third]).size).toBe(3);
    expect((await withCookie(client, third, 'GET', '/v2/me')).status).toBe(200);
  });

  it('a retired value presented again after the grace ends the whole chain: the current value refreshes no more either', async () => {
    const { client, cookie: stolen } = await signUp(prod);
    const current = cookieOf(await withCookie(client, stolen, 'POST', '/v2/me/refresh'))!;
    server.clock.advance(ROTATION_GRACE_MS + 1_000);
    // the thief's copy, a value the device has moved on from
    const replay = await withCookie(client, stolen, 'POST', '/v2/me/refresh');
    expect(replay.status).toBe(401);
    expect(replay.body.shortSession).toBeUndefined();
    // and the device's own chain is over: both parties must log in again
    expect((await withCookie(client, current, 'POST', '/v2/me/refresh')).status).toBe(401);
    expect((await withCookie(client, current, 'GET', '/v2/me/sessions/current')).status).toBe(401);
  });

  it('a value retired two rotations ago ends the chain even within the grace', async () => {
    const { client, cookie: first } = await signUp(prod);
    const second = cookieOf(await withCookie(client, first, 'POST', '/v2/me/refresh'))!;
    const third = cookieOf(await withCookie(client, second, 'POST', '/v2/me/refresh'))!;
    expect((await withCookie(client, first, 'GET', '/v2/me')).status).toBe(401);
    expect((await withCookie(client, third, 'POST', '/v2/me/refresh')).status).toBe(401);
  });

  it('tabs that refresh at once present the same value: all get the same next one, and the chain lives on', async () => {
    const { client, cookie } = await signUp(prod);
    const answers = await Promise.all([1, 2, 3, 4].map(() => withCookie(client, cookie, 'POST', '/v2/me/refresh')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const next = new Set(answers.map(cookieOf));
    expect(next.size).toBe(1);
    // a tab whose answer came late (or was lost) and tries again within the grace converges too
    server.clock.advance(ROTATION_GRACE_MS - 5_000);
    const late = await withCookie(client, cookie, 'POST', '/v2/me/refresh');
    expect(late.status).toBe(200);
    expect(cookieOf(late)).toBe([...next][0]);
    // long after, the value they all hold rotates as usual
    server.clock.advance(10 * ROTATION_GRACE_MS);
    const later = await withCookie(client, [...next][0]!, 'POST', '/v2/me/refresh');
    expect(later.status).toBe(200);
    expect(cookieOf(later)).not.toBe([...next][0]);
  });

  it("a retired value of this project presented to another, an unknown value or another project's value changes nothing", async () => {
    const { client, cookie: first } = await signUp(prod);
    const second = cookieOf(await withCookie(client, first, 'POST', '/v2/me/refresh'))!;
    server.clock.advance(ROTATION_GRACE_MS + 1_000);
    const elsewhere = new Client(server.url, 'pro-1');
    expect((await withCookie(elsewhere, first, 'POST', '/v2/me/refresh')).status).toBe(401);
    expect((await withCookie(client, 'x'.repeat(43), 'POST', '/v2/me/refresh')).status).toBe(401);
    expect((await withCookie(client, second, 'POST', '/v2/me/refresh')).status).toBe(200);
  });
});

describe('the long session as a bearer the client keeps (dev projects)', () => {
  it('rotates when the client asks with {rotate: true}: the next value in the body and the cookie; the old one is retired', async () => {
    const { client } = await signUp('pro-1');
    const first = client.longSession!;
    const refreshed = await client.request('POST', '/v2/me/refresh', { rotate: true });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.longSession).toMatch(/^[\w-]{43}$/);
    expect(refreshed.body.longSession).not.toBe(first);
    expect(cookieOf(refreshed)).toBe(refreshed.body.longSession);
    server.clock.advance(ROTATION_GRACE_MS + 1_000);
    // the copy a thief took from local storage before the refresh
    expect((await client.request('GET', '/v2/me', undefined, { Authorization: `Bearer ${first}` })).status).toBe(401);
    expect((await client.request('POST', '/v2/me/refresh', { rotate: true }, { Authorization: `Bearer ${refreshed.body.longSession}` })).status).toBe(401);
  });

  it('keeps the value of a client that does not ask (web-js 3.5 keeps the first value for good)', async () => {
    const { client } = await signUp('pro-1');
    const first = client.longSession!;
    for (let i = 0; i < 3; i++) {
      const refreshed = await client.request('POST', '/v2/me/refresh');
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.longSession).toBeUndefined();
      expect(refreshed.headers.get('set-cookie')).toBeNull();
      server.clock.advance(ROTATION_GRACE_MS + 1_000);
    }
    expect(client.longSession).toBe(first);
    expect((await client.request('GET', '/v2/me')).status).toBe(200);
  });

  it("refuses a body that is not {rotate?: boolean} before it touches the session", async () => {
    const { client } = await signUp('pro-1');
    const refused = await client.request('POST', '/v2/me/refresh', { rotate: 'yes' });
    expect(refused.status).toBe(400);
    expect((await client.request('POST', '/v2/me/refresh', { rotate: true })).status).toBe(200);
  });
});
