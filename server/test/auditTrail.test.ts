/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The audit trail (issue 32): a visitor's story told back exactly, in order, by the Backend API and by
// `npm run admin -- audit export`; what the trail never holds; who may read it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.ts';
import { sealPending } from '../audit/sealer.ts';
import { backendCall, newSecret } from './helpers/backendApiClient.ts';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { Client, databaseEnv, jwtPayload, latestCode, latestLink, PASSKEY_DEVICE, startTestServer, uniqueEmail, uniquePhone, type TestServer } from './helpers/testServer.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PROJECT = 'pro-3201';
/** a second project of the same server */
const OTHER = 'pro-3202';

/**
 * One project whose sign-up is proven by an SMS code and whose e-mail address (a login identifier) is
 * verified by link after sign-up: a visitor can sign up by code and later log in by e-mail link.
 */
function seedFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'audit-seed-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const file = join(folder, 'projects.json');
  const project = {
        appName: 'Audit story',
        allowedOrigins: ['${DEMO_ORIGIN}'],
        rpId: 'localhost',
        identifiers: {
          email: { enabled: true, required: true, collectAt: 'signup', verification: 'email-link', loginIdentifier: true, verifyAt: 'after-signup' },
          phone: { enabled: true, required: true, collectAt: 'signup', verification: 'phone-otp', loginIdentifier: true },
        },
        publicSignup: true,
        passkeys: true,
        passkeyAppend: 'after-verification',
        environment: 'dev',
  };
  writeFileSync(file, JSON.stringify([{ id: PROJECT, ...project }, { id: OTHER, ...project }]));
  return file;
}

async function server(): Promise<TestServer> {
  const started = await startTestServer({ api: { seedFile: seedFile(), backendApiPort: 0 } });
  cleanups.push(() => started.stop());
  return started;
}

/** `npm run admin -- audit export …` on the server's database: the lines it streams. */
async function adminExport(s: TestServer, ...args: string[]): Promise<string> {
  let out = '';
  await runAdmin(['audit', 'export', PROJECT, ...args], databaseEnv(s.dir), Date.now(), { progress: () => {}, warn: () => {}, write: (chunk) => void (out += chunk) });
  return out;
}

const ANDROID_FIREFOX = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0';

/** What the story leaves behind: everything a test later looks for in the stored records. */
interface Story {
  s: TestServer;
  secret: string;
  userId: string;
  sessions: { signup: string; phone: string; laptop: string };
  /** every code, token, link and session value the visitor was given */
  given: string[];
  email: string;
  phone: string;
  /** the laptop's live long session */
  laptopToken: string;
}

/**
 * Sign-up by SMS code (a wrong code first) with a passkey, log-out, a passkey log-in on the phone, a
 * log-in by e-mail link approved in another browser, and the laptop ending the phone's session.
 */
async function tellStory(): Promise<Story> {
  const s = await server();
  const authenticator = new SoftAuthenticator();
  const email = uniqueEmail('story');
  const phone = uniquePhone();
  const given: string[] = [];

  const tab = new Client(s.url, PROJECT);
  given.push((await tab.init(PASSKEY_DEVICE, 'signup-init')).body.token);
  expect((await tab.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }, { type: 'phone', identifier: phone }] })).block).toBe('phone-verify');
  const code = await latestCode(s.url, phone);
  const wrong = code === '000000' ? '111111' : '000000';
  given.push(code);
  expect((await tab.step('/v2/auth/identifier/verify/finish', { code: wrong, identifierType: 'phone', verificationType: 'phone-otp' })).block).toBe('phone-verify');
  expect((await tab.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'phone', verificationType: 'phone-otp' })).block).toBe('passkey-append');
  const started = await tab.step('/v2/auth/passkey/append/start', { clientInformation: {} });
  expect((await tab.step('/v2/auth/passkey/append/finish', { signedChallenge: authenticator.create(started.data.challenge) })).block).toBe('passkey-appended');
  expect((await tab.step('/v2/auth/block/skip')).block).toBe('post-signup-email-verify');
  // the address is to be verified after sign-up: put off (its link was sent all the same)
  given.push((await latestLink(s.url, email)).href);
  const signedUp = await tab.step('/v2/auth/block/skip');
  expect(signedUp.block).toBe('completed');
  given.push(tab.longSession!, signedUp.data.shortSession);

  expect((await tab.request('POST', '/v2/me/logout')).status).toBe(204);

  const phoneTab = new Client(s.url, PROJECT);
  given.push((await phoneTab.init(PASSKEY_DEVICE, 'login-init')).body.token);
  expect((await phoneTab.step('/v2/auth/login/init', { isPhone: true, identifierValue: phone })).block).toBe('passkey-verify');
  const challenge = await phoneTab.step('/v2/auth/passkey/login/start', {});
  const loggedIn = await phoneTab.step('/v2/auth/passkey/login/finish', { signedChallenge: authenticator.get(challenge.data.challenge) });
  expect(loggedIn.block).toBe('completed');
  given.push(phoneTab.longSession!, loggedIn.data.shortSession);

  // the laptop asks for an e-mail link; it is opened and approved on an Android phone
  const laptop = new Client(s.url, PROJECT);
  given.push((await laptop.init({}, 'login-init')).body.token);
  expect((await laptop.step('/v2/auth/login/init', { isPhone: true, identifierValue: phone })).block).toBe('passkey-verify');
  expect((await laptop.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-link' })).block).toBe('email-verify');
  const link = await latestLink(s.url, email);
  const call = { process: JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString()).process.id, token: link.searchParams.get('corbadoToken')! };
  given.push(link.href, call.token);
  const mailbox = new Client(s.url, PROJECT);
  expect((await mailbox.request('POST', '/v2/auth/email-link/open', call, { 'User-Agent': ANDROID_FIREFOX })).status).toBe(200);
  expect((await mailbox.request('POST', '/v2/auth/email-link/approve', call, { 'User-Agent': ANDROID_FIREFOX })).status).toBe(200);
  const polled = await laptop.getStep('/v2/auth/identifier/verify/status');
  expect(polled.block).toBe('completed');
  laptop.longSession = polled.data.longSession;
  given.push(polled.data.longSession, polled.data.shortSession);

  const listed = (await laptop.request('GET', '/v2/me/sessions')).body.sessions as { id: string; current: boolean }[];
  const phoneSession = listed.find((x) => !x.current)!.id;
  expect((await laptop.request('DELETE', `/v2/me/sessions/${phoneSession}`)).status).toBe(200);

  const userId = jwtPayload(loggedIn.data.shortSession).sub as string;
  const secret = await newSecret(s, PROJECT);
  return { s, secret, userId, sessions: { signup: '', phone: phoneSession, laptop: listed.find((x) => x.current)!.id }, given, email, phone, laptopToken: polled.data.longSession };
}

/** The story as the trail should tell it: event, outcome, reason, whose, what, from which browser. */
function expectedStory(story: Story): unknown[] {
  const u = story.userId;
  const chrome = 'Chrome 131 / macOS';
  const firefox = 'Firefox 128 / Android';
  return [
    ['code.sent', 'done', null, 'visitor', null, null, chrome],
    ['signup.failed', 'refused', 'wrong_code', 'visitor', null, null, chrome],
    ['passkey.offered', 'done', null, 'visitor', null, null, chrome],
    ['passkey.created', 'done', null, `user:${u}`, u, 'passkey', chrome],
    ['signup.succeeded', 'done', null, `user:${u}`, u, 'user', chrome],
    ['link.sent', 'done', null, `user:${u}`, u, null, chrome],
    ['session.created', 'done', null, `user:${u}`, u, 'session', chrome],
    ['session.ended', 'done', null, `user:${u}`, u, 'session', chrome],
    ['session.created', 'done', null, `user:${u}`, u, `session:${story.sessions.phone}`, chrome],
    ['login.succeeded', 'done', null, `user:${u}`, u, 'passkey', chrome],
    ['link.sent', 'done', null, `user:${u}`, u, null, chrome],
    ['link.opened_elsewhere', 'done', null, 'visitor', u, null, firefox],
    ['identifier.verified', 'done', null, `user:${u}`, u, 'identifier', firefox],
    ['link.approved', 'done', null, 'visitor', u, null, firefox],
    ['session.created', 'done', null, `user:${u}`, u, `session:${story.sessions.laptop}`, chrome],
    ['login.succeeded', 'done', null, `user:${u}`, u, null, chrome],
    ['session.ended', 'done', null, `user:${u}`, u, `session:${story.sessions.phone}`, chrome],
  ];
}

/** A record reduced to what the story checks (a target by its kind where its id is not known to the test). */
function told(e: any, story: Story): unknown[] {
  const known = [`session:${story.sessions.phone}`, `session:${story.sessions.laptop}`];
  const target = e.target === null || known.includes(e.target) ? e.target : e.target.split(':')[0];
  return [e.event, e.outcome, e.reason, e.actor, e.userId, target, `${e.browser} / ${e.os}`];
}

describe("the audit trail tells a visitor's story", () => {
  it('back from GET /v2/auditEvents and from audit export, exactly and in order, with nothing else', async () => {
    const story = await tellStory();
    const { s, secret } = story;
    const expected = expectedStory(story);

    const listed = await backendCall(s, { projectId: PROJECT, secret }, 'GET', '/v2/auditEvents?pageSize=100');
    expect(listed.status).toBe(200);
    expect(listed.body.paging).toEqual({ page: 1, totalPages: 1, totalItems: expected.length, nextCursor: null });
    expect(listed.body.auditEvents.map((e: any) => told(e, story))).toEqual(expected);
    // the details that tell the methods and the ends
    const events = listed.body.auditEvents;
    expect(events[3].details.process).toBe(events[0].details.process);
    expect(events[4].details.method).toBe('phone-otp');
    expect(events[7].details.reason).toBe('logout');
    expect(events[9].details.method).toBe('passkey');
    expect(events[15].details.method).toBe('email-link');
    expect(events[16].details).toEqual({ reason: 'ended-by-user', from: story.sessions.laptop });
    // from where, and which request: every record of a request carries its id, the address as the limits see it
    for (const e of events) {
      expect(e.ip).toBe('127.0.0.1');
      expect(e.requestId).toMatch(/^req-\d+$/);
    }
    expect(new Set(events.map((e: any) => e.requestId)).size).toBeLessThan(events.length);
    // seq in order, each record chained to the one before
    expect(events.map((e: any) => e.seq)).toEqual(expected.map((_, i) => i + 1));
    for (let i = 1; i < events.length; i++) expect(events[i].prevHash).toBe(events[i - 1].hash);

    // paged: two pages of 10, then filtered by user, by event
    const second = await backendCall(s, { projectId: PROJECT, secret }, 'GET', '/v2/auditEvents?pageSize=10&page=2');
    expect(second.body.auditEvents.map((e: any) => e.seq)).toEqual([11, 12, 13, 14, 15, 16, 17]);
    expect(second.body.paging).toEqual({ page: 2, totalPages: 2, totalItems: 17, nextCursor: null });
    const ofUser = await backendCall(s, { projectId: PROJECT, secret }, 'GET', `/v2/auditEvents?pageSize=100&filter[]=userID:eq:${story.userId}`);
    expect(ofUser.body.auditEvents.map((e: any) => e.seq)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    const ended = await backendCall(s, { projectId: PROJECT, secret }, 'GET', '/v2/auditEvents?filter[]=event:eq:session.ended');
    expect(ended.body.auditEvents.map((e: any) => e.seq)).toEqual([8, 17]);
    const bad = await backendCall(s, { projectId: PROJECT, secret }, 'GET', '/v2/auditEvents?filter[]=ip:eq:127.0.0.1&since=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.error.validation.map((v: any) => v.field).sort()).toEqual(['filter[]']);

    // the admin command: the same story, as JSON lines and as CSV
    const lines = (await adminExport(s)).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((e) => told(e, story))).toEqual(expected);
    expect(lines).toEqual(events);
    const csv = (await adminExport(s, '--format', 'csv')).trimEnd().split('\n');
    expect(csv[0]).toBe('seq,at,event,outcome,reason,actor,userId,target,ip,browser,os,requestId,details,hash,prevHash');
    expect(csv.slice(1).map((l) => l.split(',')[2])).toEqual(expected.map((e) => (e as string[])[0]));
    const sessionsOnly = (await adminExport(s, '--user', story.userId, '--event', 'session.created')).trimEnd().split('\n');
    expect(sessionsOnly.map((l) => JSON.parse(l).seq)).toEqual([7, 9, 15]);

    expect(await runAdmin(['audit', 'verify', PROJECT], databaseEnv(s.dir))).toEqual({ projectId: PROJECT, whole: true, records: 17 });
  });

  it('holds no code, token, link, session or full address; only the project\'s API secrets read it, never the Frontend API', async () => {
    const story = await tellStory();
    const { s } = story;
    await sealPending(s.api.store);
    const stored = JSON.stringify(await s.api.store.db.all('SELECT * FROM audit_events'));
    expect(stored).toContain('…@example.com');
    for (const value of [...story.given, story.email, story.phone, story.email.split('@')[0]!]) {
      expect(value.length).toBeGreaterThan(5);
      expect(stored, value).not.toContain(value);
    }
    // what a hand-written leak would look like is found by this check (the check can fail)
    expect(JSON.stringify([story.given[1]])).toContain(story.given[1]!);

    // the Frontend API, even with the user's own live session: no such route
    const laptop = new Client(s.url, PROJECT);
    laptop.longSession = story.laptopToken;
    expect((await laptop.request('GET', '/v2/me')).status).toBe(200);
    for (const path of ['/v2/auditEvents', '/v2/stats', '/v2/me/auditEvents']) {
      const res = await laptop.request('GET', path);
      expect(res.status, path).toBe(404);
      expect(JSON.stringify(res.body ?? '')).not.toContain(story.userId);
    }
    // the Backend API: no secret, a wrong one, another project's: nothing of this trail
    expect((await backendCall(s, undefined, 'GET', '/v2/auditEvents')).status).toBe(401);
    expect((await backendCall(s, { projectId: PROJECT, secret: 'corbado1_wrong' }, 'GET', '/v2/auditEvents')).status).toBe(401);
    const other = await newSecret(s, OTHER);
    const foreign = await backendCall(s, { projectId: OTHER, secret: other }, 'GET', '/v2/auditEvents?pageSize=100');
    expect(foreign.status).toBe(200);
    expect(JSON.stringify(foreign.body)).not.toContain(story.userId);
    expect((await backendCall(s, { projectId: OTHER, secret: story.secret }, 'GET', '/v2/auditEvents')).status).toBe(401);
  });

  it("records the host's Backend API writes as done by its secret, and a disabled user's refused log-in", async () => {
    const s = await server();
    const secret = await newSecret(s, PROJECT);
    const secretId = (await s.api.store.apiSecrets.listByProject(PROJECT))[0]!.id;
    const authenticator = new SoftAuthenticator();
    const phone = uniquePhone();
    // a user with a passkey (sign-up by code; the e-mail address put off)
    const tab = new Client(s.url, PROJECT);
    await tab.init(PASSKEY_DEVICE, 'signup-init');
    await tab.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail('host') }, { type: 'phone', identifier: phone }] });
    await tab.step('/v2/auth/identifier/verify/finish', { code: await latestCode(s.url, phone), identifierType: 'phone', verificationType: 'phone-otp' });
    const started = await tab.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    await tab.step('/v2/auth/passkey/append/finish', { signedChallenge: authenticator.create(started.data.challenge) });
    await tab.step('/v2/auth/block/skip');
    const done = await tab.step('/v2/auth/block/skip');
    const userId = jwtPayload(done.data.shortSession).sub as string;

    // a passkey log-in under way on the phone when the host disables the user
    const phoneTab = new Client(s.url, PROJECT);
    await phoneTab.init(PASSKEY_DEVICE, 'login-init');
    expect((await phoneTab.step('/v2/auth/login/init', { isPhone: true, identifierValue: phone })).block).toBe('passkey-verify');
    const challenge = await phoneTab.step('/v2/auth/passkey/login/start', {});
    await sealPending(s.api.store);
    const before = (await s.api.store.audit.head(PROJECT))!.seq;

    const host = { projectId: PROJECT, secret };
    expect((await backendCall(s, host, 'PATCH', `/v2/users/${userId}`, { status: 'disabled' })).status).toBe(200);
    const created = await backendCall(s, host, 'POST', '/v2/users', { fullName: 'Made By Host', status: 'active' });
    expect(created.status).toBe(200);

    // the log-in is refused, and the refusal is on the trail
    const finish = await phoneTab.request('POST', '/v2/auth/passkey/login/finish', { signedChallenge: authenticator.get(challenge.data.challenge) });
    expect(finish.status).toBe(403);
    // the host takes the phone number's verification back, then gives it again
    const phoneId = (await backendCall(s, host, 'GET', `/v2/identifiers?filter[]=userID:eq:${userId}&filter[]=identifierType:eq:phone`)).body.identifiers[0].identifierID;
    for (const status of ['pending', 'verified']) {
      expect((await backendCall(s, host, 'PATCH', `/v2/users/${userId}/identifiers/${phoneId}`, { status })).status).toBe(200);
    }

    const after = (await backendCall(s, host, 'GET', `/v2/auditEvents?pageSize=100`)).body.auditEvents.filter((e: any) => e.seq > before);
    expect(after.map((e: any) => [e.event, e.outcome, e.reason, e.actor, e.userId])).toEqual([
      ['session.ended', 'done', null, `secret:${secretId}`, userId],
      ['user.disabled', 'done', null, `secret:${secretId}`, userId],
      ['user.updated', 'done', null, `secret:${secretId}`, userId],
      ['user.created', 'done', null, `secret:${secretId}`, created.body.userID],
      ['request.refused', 'refused', 'user_disabled', 'visitor', null],
      ['identifier.unverified', 'done', null, `secret:${secretId}`, userId],
      ['identifier.verified', 'done', null, `secret:${secretId}`, userId],
    ]);
    expect(after[4].details).toEqual({ route: 'POST /v2/auth/passkey/login/finish' });
    expect(await runAdmin(['audit', 'verify', PROJECT], databaseEnv(s.dir))).toMatchObject({ whole: true });
  });
});
