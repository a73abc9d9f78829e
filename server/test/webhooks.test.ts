/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Webhooks (issue 25): endpoints registered with the admin command receive every event of their project,
// signed per the Standard Webhooks specification, and a receiver verifies them with the
// `standardwebhooks` package. Real flows over real HTTP (sign-up by code, passkeys of a software
// authenticator, log-ins by passkey, code, link, SMS and provider, the account page), a real receiver on
// loopback that can be down or hang, a real database (SQLite, or PostgreSQL with TEST_DATABASE_URL).
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runAdmin } from '../admin.ts';
import type { AddedEndpoint } from '../events/webhookEndpoints.ts';
import type { StartOptions } from '../app.ts';
import type { DeliveryEvent } from '../senders/DeliveryWorker.ts';
import { startOptionsFromEnv } from '../settings.ts';
import { backendCall, corbadoSdk, newSecret } from './helpers/backendApiClient.ts';
import { userWithPasskey } from './helpers/passkeyUser.ts';
import { consent, SocialBrowser, socialSignIn } from './helpers/socialBrowser.ts';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import {
  Client,
  createProject,
  databaseEnv,
  latestCode,
  latestLink,
  PASSKEY_DEVICE,
  startTestServer,
  uniqueEmail,
  uniquePhone,
  uniqueUsername,
  type TestClock,
  type TestServer,
} from './helpers/testServer.ts';
import { startWebhookReceiver, type ReceiverMode, type WebhookReceiver } from './helpers/webhookReceiver.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The server's clock is the wall clock: the receiver checks webhook-timestamp against its own. */
const WALL_CLOCK: TestClock = {
  get now() {
    return Date.now();
  },
  advance() {
    throw new Error('the wall clock cannot be moved');
  },
};

async function server(api: Partial<StartOptions> = {}, clock: TestClock = WALL_CLOCK): Promise<TestServer> {
  const started = await startTestServer({ clock, api: { ...api, webhooks: { pollMs: 50, ...api.webhooks } } });
  cleanups.push(() => started.stop());
  return started;
}

async function receiver(options: { port?: number; mode?: ReceiverMode } = {}): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(options);
  cleanups.push(() => started.close());
  return started;
}

/** `npm run admin -- webhooks add <projectId> <url> [...]` on the server's database; the receiver learns the secret. */
async function addEndpoint(s: TestServer, to: WebhookReceiver, projectId: string, path = `/${projectId}`, ...extra: string[]): Promise<AddedEndpoint> {
  const added = (await runAdmin(['webhooks', 'add', projectId, to.url + path, ...extra], databaseEnv(s.dir))) as AddedEndpoint;
  to.secrets.set(path, added.secret);
  return added;
}

function codeFinish(client: Client, code: string, type: 'email' | 'phone' = 'email'): Promise<any> {
  return client.step('/v2/auth/identifier/verify/finish', { code, identifierType: type, verificationType: `${type}-otp`, isNewDevice: false });
}

/** Logs in with a passkey: login/init, passkey-verify, the assertion. */
async function passkeyLogin(baseUrl: string, email: string, authenticator: SoftAuthenticator): Promise<void> {
  const client = new Client(baseUrl, 'pro-1');
  await client.init(PASSKEY_DEVICE, 'login-init');
  expect((await client.step('/v2/auth/login/init', { isPhone: false, identifierValue: email })).block).toBe('passkey-verify');
  const started = await client.step('/v2/auth/passkey/login/start', {});
  expect((await client.step('/v2/auth/passkey/login/finish', { signedChallenge: authenticator.get(started.data.challenge) })).block).toBe('completed');
}

/** Logs in with an e-mail code, past the passkey the user has. */
async function emailCodeLogin(baseUrl: string, email: string): Promise<void> {
  const client = new Client(baseUrl, 'pro-1');
  await client.init({}, 'login-init');
  expect((await client.step('/v2/auth/login/init', { isPhone: false, identifierValue: email })).block).toBe('passkey-verify');
  expect((await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' })).block).toBe('email-verify');
  expect((await codeFinish(client, await latestCode(baseUrl, email))).block).toBe('completed');
}

/**
 * A pro-1 user's life, every event of it: sign-up by e-mail code with a passkey, log-ins by passkey,
 * e-mail code and Google, a second passkey and a second address added on the account page, the address
 * verified and removed, the passkey removed, the account deleted. Answers the user's id and e-mail.
 */
async function pro1Story(baseUrl: string): Promise<{ email: string; second: string }> {
  const authenticator = new SoftAuthenticator();
  const { email, client } = await userWithPasskey(baseUrl, authenticator);
  await passkeyLogin(baseUrl, email, authenticator);
  await emailCodeLogin(baseUrl, email);
  expect((await socialSignIn(baseUrl, 'pro-1', { email }, { authType: 'login' })).finished.block).toBe('completed');

  const start = await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable: true } });
  const attestation = new SoftAuthenticator('http://localhost:5173', '00000000-0000-0000-0000-000000000001').create(start.body.attestationOptions);
  expect((await client.request('POST', '/v2/me/passkeys/append/finish', { attestationResponse: attestation, clientInformation: {} })).status).toBe(200);

  const second = uniqueEmail('second');
  expect((await client.request('POST', '/v2/me/identifier', { identifierType: 'email', value: second })).status).toBe(200);
  const added = (await client.request('GET', '/v2/me')).body.identifiers.find((i: any) => i.value === second);
  expect((await client.request('POST', '/v2/me/identifier/verify/start', { identifierID: added.id })).status).toBe(200);
  const code = await latestCode(baseUrl, second);
  expect((await client.request('POST', '/v2/me/identifier/verify/finish', { identifierID: added.id, code })).status).toBe(200);
  expect((await client.request('DELETE', '/v2/me/identifier', { identifierID: added.id })).status).toBe(200);

  const passkeys = (await client.request('GET', '/v2/me/passkeys')).body.passkeys;
  expect((await client.request('DELETE', `/v2/me/passkeys/${passkeys[1].id}`)).status).toBe(200);
  expect((await client.request('DELETE', '/v2/me')).status).toBe(200);
  return { email, second };
}

/** The events of pro1Story, in order. */
const PRO1_STORY = [
  'user.created',
  'user.logged_in',
  'user.logged_in',
  'user.logged_in',
  // the log-in by Google links the provider account to the user
  'social_account.linked',
  'passkey.added',
  'identifier.added',
  'identifier.verified',
  'identifier.removed',
  'passkey.removed',
  'user.deleted',
];

/** A pro-3 user signs up by SMS code and logs in by SMS code. */
async function phoneStory(baseUrl: string): Promise<string> {
  const phone = uniquePhone();
  const signup = new Client(baseUrl, 'pro-3');
  await signup.init({}, 'signup-init');
  expect((await signup.step('/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: phone }] })).block).toBe('phone-verify');
  expect((await codeFinish(signup, await latestCode(baseUrl, phone), 'phone')).block).toBe('completed');
  const login = new Client(baseUrl, 'pro-3');
  await login.init({}, 'login-init');
  expect((await login.step('/v2/auth/login/init', { isPhone: true, identifierValue: phone })).block).toBe('phone-verify');
  expect((await codeFinish(login, await latestCode(baseUrl, phone), 'phone')).block).toBe('completed');
  return phone;
}

/** A pro-2 user signs up by e-mail link and logs in by e-mail link. */
async function linkStory(baseUrl: string): Promise<string> {
  const email = uniqueEmail('link');
  const follow = async (client: Client) => {
    const token = (await latestLink(baseUrl, email)).searchParams.get('corbadoToken');
    return client.step('/v2/auth/identifier/verify/finish', { code: token, identifierType: 'email', verificationType: 'email-link', isNewDevice: false });
  };
  const signup = new Client(baseUrl, 'pro-2');
  await signup.init({}, 'signup-init');
  expect((await signup.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] })).block).toBe('email-verify');
  expect((await follow(signup)).block).toBe('completed');
  const login = new Client(baseUrl, 'pro-2');
  await login.init({}, 'login-init');
  expect((await login.step('/v2/auth/login/init', { isPhone: false, identifierValue: email })).block).toBe('email-verify');
  expect((await follow(login)).block).toBe('completed');
  return email;
}

/** The signature as the specification defines it, computed here without the package. */
function specSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Every delivery verified, by the package and by the specification's formula, and every webhook-id once. */
function expectVerifiedOnce(to: WebhookReceiver): void {
  for (const r of to.received) {
    expect(r.refused, r.body).toBeUndefined();
    const id = r.headers['webhook-id'] as string;
    const timestamp = r.headers['webhook-timestamp'] as string;
    expect(r.headers['webhook-signature']).toBe(specSignature(to.secrets.get(r.path)!, id, timestamp, r.body));
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(120);
    expect(r.headers['content-type']).toBe('application/json');
  }
  const ids = to.received.map((r) => r.headers['webhook-id']);
  expect(new Set(ids).size).toBe(ids.length);
}

/** The events one project's endpoint received, by type in arrival order, waiting until `count` are in. */
async function eventsAt(to: WebhookReceiver, path: string, count: number, timeout = 15_000): Promise<any[]> {
  let events: any[] = [];
  await vi.waitFor(
    () => {
      events = to.received.filter((r) => r.path === path && r.event).map((r) => r.event);
      expect(events.length).toBeGreaterThanOrEqual(count);
    },
    { timeout, interval: 50 },
  );
  return events;
}

/** The types of the events, sorted: delivery order is not promised, and two events may share a millisecond. */
function types(events: any[]): string[] {
  return events.map((e) => e.type).sort();
}

/** The events of one type, oldest first. */
function ofType(events: any[], type: string): any[] {
  return events.filter((e) => e.type === type).sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

describe('webhook events', () => {
  it('every event of the flows arrives once per id, verified with standardwebhooks, with its documented data', { timeout: 60_000 }, async () => {
    const api = await server();
    const to = await receiver();
    const endpoint = await addEndpoint(api, to, 'pro-1');
    expect(endpoint).toMatchObject({ projectId: 'pro-1', url: `${to.url}/pro-1`, events: null, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    // a second endpoint of the project that wants two types only
    await addEndpoint(api, to, 'pro-1', '/pro-1-lifecycle', '--events', 'user.created,user.deleted');
    await addEndpoint(api, to, 'pro-2');
    await addEndpoint(api, to, 'pro-3');

    const { email, second } = await pro1Story(api.url);
    const phone = await phoneStory(api.url);
    const linkEmail = await linkStory(api.url);

    const pro1 = await eventsAt(to, '/pro-1', PRO1_STORY.length);
    expect(types(pro1)).toEqual(types(PRO1_STORY.map((type) => ({ type }))));
    const userId = pro1[0].data.userId;
    expect(userId).toMatch(/^usr-\d+$/);
    for (const event of pro1) {
      expect(event.data).toMatchObject({ projectId: 'pro-1', userId });
      expect(Date.parse(event.timestamp)).toBeGreaterThan(Date.now() - 120_000);
    }
    const [created] = ofType(pro1, 'user.created');
    const [byPasskey, byCode, byGoogle] = ofType(pro1, 'user.logged_in');
    const [passkeyAdded] = ofType(pro1, 'passkey.added');
    const [passkeyRemoved] = ofType(pro1, 'passkey.removed');
    const [idAdded] = ofType(pro1, 'identifier.added');
    const [idVerified] = ofType(pro1, 'identifier.verified');
    const [idRemoved] = ofType(pro1, 'identifier.removed');
    const [deleted] = ofType(pro1, 'user.deleted');
    for (const event of pro1) expect(created.timestamp <= event.timestamp && event.timestamp <= deleted.timestamp).toBe(true);
    expect(created.data).toEqual({
      projectId: 'pro-1',
      userId,
      fullName: 'Pat Passkey',
      identifiers: [{ id: expect.stringMatching(/^ide-/), type: 'email', value: email, status: 'verified' }],
      passkeys: [{ id: expect.stringMatching(/^cre-/), credentialId: expect.any(String), aaguid: 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4', status: 'active' }],
      socialProviders: [],
      source: 'signup',
    });
    expect(byPasskey.data).toEqual({ projectId: 'pro-1', userId, method: 'passkey', identifier: { type: 'email', value: email }, passkeyId: created.data.passkeys[0].id });
    expect(byCode.data).toEqual({ projectId: 'pro-1', userId, method: 'email-otp', identifier: { type: 'email', value: email } });
    expect(byGoogle.data).toMatchObject({ method: 'social:google', identifier: { type: 'email', value: email } });
    expect(passkeyAdded.data.passkey).toMatchObject({ id: expect.stringMatching(/^cre-/), aaguid: '00000000-0000-0000-0000-000000000001', status: 'active' });
    expect(idAdded.data.identifier).toEqual({ id: expect.stringMatching(/^ide-/), type: 'email', value: second, status: 'pending' });
    expect(idVerified.data.identifier).toEqual({ ...idAdded.data.identifier, status: 'verified' });
    expect(idRemoved.data.identifier).toEqual(idVerified.data.identifier);
    expect(passkeyRemoved.data.passkey).toEqual(passkeyAdded.data.passkey);
    expect(deleted.data).toEqual({ projectId: 'pro-1', userId });

    expect(types(await eventsAt(to, '/pro-1-lifecycle', 2))).toEqual(['user.created', 'user.deleted']);
    const pro3 = await eventsAt(to, '/pro-3', 2);
    expect(types(pro3)).toEqual(['user.created', 'user.logged_in']);
    expect(ofType(pro3, 'user.created')[0].data.identifiers).toEqual([expect.objectContaining({ type: 'phone', value: phone, status: 'verified' })]);
    expect(ofType(pro3, 'user.logged_in')[0].data).toMatchObject({ method: 'phone-otp', identifier: { type: 'phone', value: phone } });
    const pro2 = await eventsAt(to, '/pro-2', 2);
    expect(types(pro2)).toEqual(['user.created', 'user.logged_in']);
    expect(ofType(pro2, 'user.logged_in')[0].data).toMatchObject({ method: 'email-link', identifier: { type: 'email', value: linkEmail } });

    // nothing more comes (no second delivery of any event), and every one verified once
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(to.received).toHaveLength(PRO1_STORY.length + 2 + 2 + 2);
    expectVerifiedOnce(to);
    expect(await api.api.store.db.all('SELECT id FROM webhook_deliveries')).toEqual([]);
  });

  it('an account that loses a pending address to someone who proves it is told identifier.removed', { timeout: 60_000 }, async () => {
    const api = await server();
    const to = await receiver();
    await addEndpoint(api, to, 'pro-1');
    const { client: squatter } = await userWithPasskey(api.url, new SoftAuthenticator());
    const contested = uniqueEmail('contested');
    expect((await squatter.request('POST', '/v2/me/identifier', { identifierType: 'email', value: contested })).status).toBe(200);
    const owner = new Client(api.url, 'pro-1');
    await owner.init({}, 'signup-init');
    await owner.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: contested }], fullName: 'Olga Owner' });
    expect((await codeFinish(owner, await latestCode(api.url, contested))).block).toBe('completed');

    const events = await eventsAt(to, '/pro-1', 4);
    expect(types(events)).toEqual(['identifier.added', 'identifier.removed', 'user.created', 'user.created']);
    const [squatterCreated, ownerCreated] = ofType(events, 'user.created');
    const [pendingAdded] = ofType(events, 'identifier.added');
    const [lost] = ofType(events, 'identifier.removed');
    expect(pendingAdded.data).toMatchObject({ userId: squatterCreated.data.userId, identifier: { value: contested, status: 'pending' } });
    expect(lost.data).toEqual({ projectId: 'pro-1', userId: squatterCreated.data.userId, identifier: pendingAdded.data.identifier });
    expect(ownerCreated.data.identifiers).toEqual([expect.objectContaining({ value: contested, status: 'verified' })]);
    expectVerifiedOnce(to);
  });

  it("the host's own changes through the Backend API are told too: user, identifiers, a passkey", { timeout: 60_000 }, async () => {
    const api = await server({ backendApiPort: 0 });
    const to = await receiver();
    await addEndpoint(api, to, 'pro-1');
    const sdk = corbadoSdk(api, 'pro-1', await newSecret(api, 'pro-1'));
    const creds = { projectId: 'pro-1', secret: await newSecret(api, 'pro-1') };

    const user = await sdk.users().create({ fullName: 'Host Made', status: 'active' });
    const email = uniqueEmail('host-made');
    const verified = await sdk.identifiers().create(user.userID, { identifierType: 'email', identifierValue: email, status: 'verified' });
    const pending = await sdk.identifiers().create(user.userID, { identifierType: 'email', identifierValue: uniqueEmail('host-pending'), status: 'pending' });
    await sdk.identifiers().updateStatus(user.userID, pending.identifierID, 'verified');
    await sdk.identifiers().delete(user.userID, pending.identifierID);
    // a passkey the user made through the widget, removed by the host (a lost device)
    const authenticator = new SoftAuthenticator();
    const { email: passkeyEmail } = await userWithPasskey(api.url, authenticator);
    const owner = (await sdk.identifiers().listByValueAndType(passkeyEmail, 'email')).identifiers[0]!.userID;
    const [passkey] = (await backendCall(api, creds, 'GET', `/v2/users/${owner}/credentials`)).body.credentials;
    expect((await backendCall(api, creds, 'DELETE', `/v2/users/${owner}/credentials/${passkey.id}`)).status).toBe(200);
    await sdk.users().delete(user.userID);

    const events = await eventsAt(to, '/pro-1', 8);
    expectVerifiedOnce(to);
    const mine = events.filter((e) => e.data.userId === user.userID);
    expect(types(mine)).toEqual(['identifier.added', 'identifier.added', 'identifier.removed', 'identifier.verified', 'user.created', 'user.deleted']);
    expect(ofType(mine, 'user.created')[0].data).toEqual({
      projectId: 'pro-1',
      userId: user.userID,
      fullName: 'Host Made',
      identifiers: [],
      passkeys: [],
      socialProviders: [],
      source: 'backend-api',
    });
    expect(ofType(mine, 'identifier.added').map((e) => e.data.identifier)).toEqual([
      { id: verified.identifierID, type: 'email', value: email, status: 'verified' },
      { id: pending.identifierID, type: 'email', value: pending.value, status: 'pending' },
    ]);
    expect(ofType(mine, 'identifier.verified')[0].data.identifier).toEqual({ id: pending.identifierID, type: 'email', value: pending.value, status: 'verified' });
    expect(ofType(mine, 'identifier.removed')[0].data.identifier.id).toBe(pending.identifierID);
    const removed = events.filter((e) => e.type === 'passkey.removed');
    expect(removed.map((e) => [e.data.userId, e.data.passkey.id])).toEqual([[owner, passkey.id]]);
  });

  it('is recorded in the transaction of the change: a change refused half-way tells nothing', { timeout: 60_000 }, async () => {
    const api = await server();
    const to = await receiver();
    await addEndpoint(api, to, 'pro-4');
    const signUp = async (username: string) => {
      const client = new Client(api.url, 'pro-4');
      await client.init({}, 'signup-init');
      const email = uniqueEmail('pro4');
      const identifiers = [
        { type: 'email', identifier: email },
        { type: 'username', identifier: username },
      ];
      expect((await client.step('/v2/auth/signup/init', { identifiers })).block).toBe('email-verify');
      expect((await codeFinish(client, await latestCode(api.url, email))).block).toBe('completed');
      return client;
    };
    const taken = uniqueUsername('taken');
    await signUp(taken);
    const renaming = await signUp(uniqueUsername('renaming'));
    const own = (await renaming.request('GET', '/v2/me')).body.identifiers.find((i: any) => i.type === 'username');
    // a new username replaces the old one: the old one is deleted first, then the new one is refused
    const refused = await renaming.request('PATCH', '/v2/me/identifier', { identifierID: own.id, identifierType: 'username', value: taken });
    expect(refused.status).toBe(409);
    const renamed = await renaming.request('PATCH', '/v2/me/identifier', { identifierID: own.id, identifierType: 'username', value: uniqueUsername('renamed') });
    expect(renamed.status).toBe(200);
    const events = await eventsAt(to, '/pro-4', 4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(types(to.events())).toEqual(['identifier.added', 'identifier.removed', 'user.created', 'user.created']);
    expect(ofType(events, 'identifier.removed')[0].data.identifier).toMatchObject({ id: own.id, value: own.value });
    expectVerifiedOnce(to);
  });

  it("a forged or replayed delivery fails verification; one endpoint's secret does not verify another's", { timeout: 60_000 }, async () => {
    const api = await server();
    const to = await receiver();
    const first = await addEndpoint(api, to, 'pro-1');
    const other = await addEndpoint(api, to, 'pro-1', '/other');
    expect(other.secret).not.toBe(first.secret);
    await userWithPasskey(api.url, new SoftAuthenticator());
    await eventsAt(to, '/pro-1', 1);
    const genuine = to.received.find((r) => r.path === '/pro-1')!;
    const headers = genuine.headers as Record<string, string>;
    const hook = new Webhook(first.secret);
    expect(hook.verify(genuine.body, headers)).toMatchObject({ type: 'user.created' });

    // the body changed: another user id
    const forgedBody = genuine.body.replace(/usr-\d+/, 'usr-1234567890123456789');
    expect(() => hook.verify(forgedBody, headers)).toThrow(/No matching signature/);
    // signed with a secret that is not the endpoint's
    const wrongKey = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    const forged = { ...headers, 'webhook-signature': wrongKey.sign(headers['webhook-id']!, new Date(), genuine.body) };
    expect(() => hook.verify(genuine.body, forged)).toThrow(/No matching signature/);
    // the other endpoint's secret
    expect(() => new Webhook(other.secret).verify(genuine.body, headers)).toThrow(/No matching signature/);
    // another id under the same signature
    expect(() => hook.verify(genuine.body, { ...headers, 'webhook-id': 'evt-1' })).toThrow(/No matching signature/);
    // replayed ten minutes later: a valid signature, but too old
    const old = new Date(Date.now() - 10 * 60_000);
    const replay = { ...headers, 'webhook-timestamp': String(Math.floor(old.getTime() / 1000)), 'webhook-signature': hook.sign(headers['webhook-id']!, old, genuine.body) };
    expect(() => hook.verify(genuine.body, replay)).toThrow(/too old/);
    // and the receiver itself refuses a forged POST
    const posted = await fetch(`${to.url}/pro-1`, { method: 'POST', headers: { ...forged, 'content-type': 'application/json' }, body: genuine.body });
    expect(posted.status).toBe(400);
    expect(to.received.at(-1)!.refused).toMatch(/No matching signature/);
  });
});

describe('webhook delivery', () => {
  it('with the receiver down for 60 s, every event arrives once after it comes back; /metrics counts the attempts and the backlog', { timeout: 150_000 }, async () => {
    const outcomes: DeliveryEvent<string>[] = [];
    const api = await server({
      webhooks: { retryBaseMs: 1_000, retryMaxMs: 5_000, sendTimeoutMs: 2_000, pollMs: 100 },
      onWebhookDelivery: (event) => outcomes.push(event),
      metricsEnabled: true,
    });
    const first = await receiver();
    const port = first.port;
    await addEndpoint(api, first, 'pro-1');
    const secrets = new Map(first.secrets);
    await first.close();
    const downSince = Date.now();

    await pro1Story(api.url);
    const count = PRO1_STORY.length;
    // every event has been tried and has failed: it waits
    let waiting: string[] = [];
    await vi.waitFor(async () => {
      const rows = await api.api.store.db.all<{ id: string; attempts: number; status: string; last_error: string }>('SELECT id, attempts, status, last_error FROM webhook_deliveries');
      expect(rows).toHaveLength(count);
      for (const row of rows) expect(row).toMatchObject({ status: 'pending', last_error: expect.stringMatching(/ECONNREFUSED/) });
      waiting = rows.map((r) => r.id).sort();
    }, { timeout: 20_000, interval: 100 });
    expect(await metric(api, 'fapi_webhook_backlog')).toBe(count);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, downSince + 60_000 - Date.now())));
    const retried = outcomes.filter((o) => o.outcome === 'retry').length;
    expect(retried).toBeGreaterThan(count * 5); // every event was tried again and again meanwhile, within the cap
    const back = await receiver({ port });
    for (const [path, secret] of secrets) back.secrets.set(path, secret);
    const backAt = Date.now();
    const events = await eventsAt(back, '/pro-1', count, 20_000);
    const arrivedWithin = Date.now() - backAt;
    expect(arrivedWithin).toBeLessThan(5_000 + 5_000); // the capped wait, plus a margin for a loaded machine
    expect(types(events)).toEqual(types(PRO1_STORY.map((type) => ({ type }))));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(back.received).toHaveLength(count);
    expectVerifiedOnce(back);
    // each event kept its webhook-id through every attempt
    expect(back.received.map((r) => r.headers['webhook-id']).sort()).toEqual(waiting);
    expect(await metric(api, 'fapi_webhook_backlog')).toBe(0);
    expect(await metric(api, 'fapi_webhook_deliveries_total{outcome="sent"}')).toBe(count);
    expect(await metric(api, 'fapi_webhook_deliveries_total{outcome="retried"}')).toBeGreaterThanOrEqual(retried);
    expect(await metric(api, 'fapi_webhook_deliveries_total{outcome="given_up"}')).toBe(0);
    console.info(`receiver down ${Math.round((backAt - downSince) / 1000)} s; ${retried} failed attempts meanwhile; all ${count} events in ${arrivedWithin} ms after it came back`);
  });

  it('a receiver that never answers does not slow a sign-up: the call returns while the delivery hangs', { timeout: 60_000 }, async () => {
    const SEND_TIMEOUT_MS = 8_000;
    const outcomes: { event: DeliveryEvent<string>; at: number }[] = [];
    const api = await server({ webhooks: { sendTimeoutMs: SEND_TIMEOUT_MS }, onWebhookDelivery: (event) => outcomes.push({ event, at: Date.now() }) });
    const to = await receiver({ mode: 'hang' });
    await addEndpoint(api, to, 'pro-1');
    const client = new Client(api.url, 'pro-1');
    await client.init({}, 'signup-init');
    const email = uniqueEmail('slow-receiver');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Sam Slow' });
    const code = await latestCode(api.url, email);
    const started = Date.now();
    const completed = await codeFinish(client, code); // creates the user: user.created is recorded in this call
    const tookMs = Date.now() - started;
    expect(completed.block).toBe('completed');
    // the delivery of that very event reaches the receiver and hangs there, after the call has returned
    await vi.waitFor(() => expect(to.hanging).toBe(1), { timeout: 5_000, interval: 20 });
    expect(outcomes).toEqual([]);
    expect(tookMs).toBeLessThan(SEND_TIMEOUT_MS / 2);
    // the attempt ends at the send timeout and is tried again later
    await vi.waitFor(() => expect(outcomes.map((o) => o.event.outcome)).toEqual(['retry']), { timeout: SEND_TIMEOUT_MS + 5_000, interval: 50 });
    expect(outcomes[0]!.at - started).toBeGreaterThanOrEqual(SEND_TIMEOUT_MS - 100);
    const [row] = await api.api.store.db.all<{ last_error: string }>('SELECT last_error FROM webhook_deliveries');
    expect(row!.last_error).toBe(`no answer within ${SEND_TIMEOUT_MS} ms`);
    console.info(`sign-up completion answered in ${tookMs} ms while the receiver hung for ${SEND_TIMEOUT_MS} ms`);
  });

  it('an event still undelivered at the give-up horizon is given up and counted; its body is kept for a redelivery until the row is pruned', { timeout: 60_000 }, async () => {
    const clock: TestClock = {
      now: Date.now(),
      advance(ms) {
        this.now += ms;
      },
    };
    const outcomes: string[] = [];
    const api = await server({ webhooks: { retryBaseMs: 1_000, giveUpMs: 60_000 }, onWebhookDelivery: (e) => outcomes.push(e.outcome), metricsEnabled: true }, clock);
    const gone = await receiver();
    await addEndpoint(api, gone, 'pro-1');
    await gone.close();
    await userWithPasskey(api.url, new SoftAuthenticator());
    await vi.waitFor(() => expect(outcomes).toEqual(['retry']), { timeout: 10_000, interval: 50 });
    clock.advance(61_000);
    await vi.waitFor(() => expect(outcomes).toEqual(['retry', 'expired']), { timeout: 10_000, interval: 50 });
    const [row] = await api.api.store.db.all<{ status: string; payload: string | null }>('SELECT status, payload FROM webhook_deliveries');
    // kept (sealed where KEY_ENCRYPTION_SECRET is set) so that an operator can send it again (console)
    expect(row).toEqual({ status: 'expired', payload: expect.stringContaining('"type":"user.created"') });
    expect(await metric(api, 'fapi_webhook_deliveries_total{outcome="given_up"}')).toBe(1);
    expect(await metric(api, 'fapi_webhook_backlog')).toBe(0);
    expect(await runAdmin(['webhooks', 'list', 'pro-1'], databaseEnv(api.dir))).toEqual([expect.objectContaining({ pending: 0, givenUp: 1 })]);
  });
});

describe('settings', () => {
  it('reads WEBHOOK_* from the environment, refusing values out of range', () => {
    const env = {
      WEBHOOK_SEND_TIMEOUT_MS: '3000',
      WEBHOOK_RETRY_BASE_MS: '1000',
      WEBHOOK_RETRY_MAX_MS: '600000',
      WEBHOOK_GIVE_UP_SECONDS: '86400',
      WEBHOOK_BATCH_SIZE: '5',
      WEBHOOK_POLL_MS: '250',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'on',
    };
    expect(startOptionsFromEnv(env, []).webhooks).toEqual({
      sendTimeoutMs: 3000,
      retryBaseMs: 1000,
      retryMaxMs: 600_000,
      giveUpMs: 86_400_000,
      batchSize: 5,
      pollMs: 250,
      allowPrivateNetworks: true,
    });
    expect(startOptionsFromEnv({}, []).webhooks).toEqual({});
    for (const [name, value, problem] of [
      ['WEBHOOK_SEND_TIMEOUT_MS', '60001', 'must be a whole number from 1000 to 60000'],
      ['WEBHOOK_GIVE_UP_SECONDS', '30', 'must be a whole number from 60'],
      ['WEBHOOK_RETRY_BASE_MS', 'soon', 'must be a whole number'],
      ['WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'maybe', 'must be on or off'],
    ]) {
      expect(() => startOptionsFromEnv({ [name!]: value }, [])).toThrow(`${name} ${problem}`);
    }
  });
});

/** One figure of /metrics. */
async function metric(s: TestServer, name: string): Promise<number> {
  const text = await (await fetch(`${s.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no ${name} in /metrics`);
  return Number(line.slice(name.length + 1));
}

describe('webhook events of a name change, a provider linked or unlinked, a session ended, an import', () => {
  it('user.updated, social_account.linked / unlinked and session.ended with its reason', { timeout: 60_000 }, async () => {
    const api = await server({ backendApiPort: 0 });
    const to = await receiver();
    await addEndpoint(api, to, 'pro-1');
    const creds = { projectId: 'pro-1', secret: await newSecret(api, 'pro-1') };
    const authenticator = new SoftAuthenticator();
    const { email, client } = await userWithPasskey(api.url, authenticator);
    const me = async () => (await client.request('GET', '/v2/me')).body;
    const userId = (await me()).id as string;

    // the person renames themselves on the account page; the same name again changes nothing
    expect((await client.request('PATCH', '/v2/me', { fullName: 'Pat Renamed' })).status).toBe(200);
    expect((await client.request('PATCH', '/v2/me', { fullName: 'Pat Renamed' })).status).toBe(200);
    // a log-in by Google links the provider account; the person unlinks it
    expect((await socialSignIn(api.url, 'pro-1', { email }, { authType: 'login' })).finished.block).toBe('completed');
    const [google] = (await me()).socialAccounts;
    expect((await client.request('DELETE', '/v2/me/social-account', { socialAccountID: google.id })).status).toBe(200);

    // sessions: a second device ended from this one, a third logged out, a fourth revoked by the host
    const login = async () => {
      const other = new Client(api.url, 'pro-1');
      await other.init({}, 'login-init');
      await other.step('/v2/auth/login/init', { isPhone: false, identifierValue: email });
      await other.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
      expect((await codeFinish(other, await latestCode(api.url, email))).block).toBe('completed');
      return other;
    };
    const sessionOf = async (c: Client) => ((await c.request('GET', '/v2/me/sessions')).body.sessions as any[]).find((s) => s.current).id as string;
    const second = await login();
    const secondId = await sessionOf(second);
    expect((await client.request('DELETE', `/v2/me/sessions/${secondId}`)).status).toBe(200);
    const third = await login();
    const thirdId = await sessionOf(third);
    expect((await third.request('POST', '/v2/me/logout')).status).toBe(204);
    const fourth = await login();
    const fourthId = await sessionOf(fourth);
    expect((await backendCall(api, creds, 'PATCH', `/v2/users/${userId}/longSessions/${fourthId}`, { status: 'revoked' })).status).toBe(200);
    // a fifth rotates twice; its first value, presented again, ends it (a stolen copy)
    const fifth = await login();
    const fifthId = await sessionOf(fifth);
    const first = fifth.longSession!;
    const rotate = async (value: string) => {
      const res = await fifth.request('POST', '/v2/me/refresh', { rotate: true }, { Authorization: `Bearer ${value}` });
      expect(res.status).toBe(200);
      return /cbo_long_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
    };
    await rotate(await rotate(first));
    expect((await fifth.request('POST', '/v2/me/refresh', { rotate: true }, { Authorization: `Bearer ${first}` })).status).toBe(401);
    // the host disables the user: user.updated, and every live session ends
    // (this one and the Google log-in's are live still)
    const live = ((await client.request('GET', '/v2/me/sessions')).body.sessions as any[]).map((s) => s.id as string);
    expect(live).toHaveLength(2);
    expect((await backendCall(api, creds, 'PATCH', `/v2/users/${userId}`, { status: 'disabled' })).status).toBe(200);

    const events = (await eventsAt(to, '/pro-1', 16)).filter((e) => e.data.userId === userId);
    expectVerifiedOnce(to);
    // user.created, 5 user.logged_in, 2 user.updated, linked, unlinked, 6 session.ended: nothing else, nothing twice
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(to.received).toHaveLength(16);
    expect(ofType(events, 'user.updated').map((e) => e.data)).toEqual([
      { projectId: 'pro-1', userId, fullName: 'Pat Renamed', status: 'active' },
      { projectId: 'pro-1', userId, fullName: 'Pat Renamed', status: 'disabled' },
    ]);
    expect(ofType(events, 'social_account.linked').map((e) => e.data)).toEqual([{ projectId: 'pro-1', userId, provider: 'google' }]);
    expect(ofType(events, 'social_account.unlinked').map((e) => e.data)).toEqual([{ projectId: 'pro-1', userId, provider: 'google' }]);
    const ended = Object.fromEntries(ofType(events, 'session.ended').map((e) => [e.data.sessionId, e.data.reason]));
    expect(ended).toEqual({
      [secondId]: 'ended-by-user',
      [thirdId]: 'logout',
      [fourthId]: 'revoked-by-host',
      [fifthId]: 'reuse',
      ...Object.fromEntries(live.map((id) => [id, 'user-disabled'])),
    });
  });

  it('a take-over of an unverified account tells session.ended (takeover) and social_account.unlinked', { timeout: 60_000 }, async () => {
    const api = await server();
    const to = await receiver();
    const projectId = await createProject(api.url, {
      appName: 'Verify later, GitHub',
      identifiers: { email: { verification: 'email-otp', verifyAt: 'after-signup' } },
      socialProviders: ['github'],
    });
    await addEndpoint(api, to, projectId);
    // the attacker signs up with his GitHub account, puts the victim's address on it and verifies later
    const victim = uniqueEmail('victim');
    const attacker = new SocialBrowser(api.url, projectId);
    await attacker.init(PASSKEY_DEVICE, 'signup-init');
    const started = await attacker.startSocial('github', 'signup');
    expect((await attacker.callback(await consent(started.data.socialData.oauthUrl, { email: uniqueEmail('mallory'), name: 'Mallory' }))).status).toBe(302);
    expect((await attacker.step('/v2/auth/social/verify/finish', {})).block).toBe('passkey-append');
    expect((await attacker.step('/v2/auth/identifier/update', { identifierType: 'email', value: victim })).block).toBe('passkey-append');
    expect((await attacker.step('/v2/auth/block/skip')).block).toBe('post-signup-email-verify');
    expect((await attacker.step('/v2/auth/process/complete')).block).toBe('completed');
    const sessions = (await attacker.request('GET', '/v2/me/sessions')).body.sessions as any[];
    expect(sessions).toHaveLength(1);
    // the victim proves the address by logging in with a code
    const login = new Client(api.url, projectId);
    await login.init({}, 'login-init');
    expect((await login.step('/v2/auth/login/init', { identifierValue: victim, isPhone: false })).block).toBe('email-verify');
    expect((await codeFinish(login, await latestCode(api.url, victim))).block).toBe('completed');

    const events = await eventsAt(to, `/${projectId}`, 5);
    expect(types(events)).toEqual(['identifier.verified', 'session.ended', 'social_account.unlinked', 'user.created', 'user.logged_in']);
    const userId = ofType(events, 'user.created')[0].data.userId as string;
    expect(ofType(events, 'session.ended').map((e) => e.data)).toEqual([{ projectId, userId, sessionId: sessions[0].id, reason: 'takeover' }]);
    expect(ofType(events, 'social_account.unlinked').map((e) => e.data)).toEqual([{ projectId, userId, provider: 'github' }]);
    expectVerifiedOnce(to);
  });

  it('an import tells user.created with source import, a squatter its loss, and a rerun what it changed', { timeout: 60_000 }, async () => {
    const api = await server({ backendApiPort: 0 });
    const to = await receiver();
    await addEndpoint(api, to, 'pro-1');
    const creds = { projectId: 'pro-1', secret: await newSecret(api, 'pro-1') };
    const customer = uniqueEmail('imported');
    const later = uniqueEmail('imported-later');
    const squatter = (await backendCall(api, creds, 'POST', '/v2/users', { fullName: 'Squatter', status: 'active' })).body.userID as string;
    await backendCall(api, creds, 'POST', `/v2/users/${squatter}/identifiers`, { identifierType: 'email', identifierValue: customer, status: 'pending' });
    const file = join(api.dir, 'import-events.jsonl');
    const run = async (line: unknown) => {
      writeFileSync(file, `${JSON.stringify(line)}\n`);
      return runAdmin(['users', 'import', 'pro-1', file], databaseEnv(api.dir), Date.now(), { progress: () => {}, warn: () => {} });
    };
    const line = { externalID: `evt-${customer}`, fullName: 'Ingo Import', identifiers: [{ type: 'email', value: customer, status: 'verified' }, { type: 'email', value: later, status: 'pending' }] };
    expect(await run(line)).toMatchObject({ created: 1 });
    expect(await run(line)).toMatchObject({ unchanged: 1 });
    const third = uniqueEmail('imported-third');
    const changed = { ...line, fullName: 'Ingo Changed', identifiers: [{ type: 'email', value: later, status: 'verified' }, { type: 'email', value: third, status: 'pending' }] };
    expect(await run(changed)).toMatchObject({ updated: 1 });

    // squatter: user.created (backend-api), identifier.added, identifier.removed; customer: user.created, user.updated, identifier.verified, identifier.added
    const events = await eventsAt(to, '/pro-1', 7);
    expectVerifiedOnce(to);
    const [created] = ofType(events, 'user.created').filter((e) => e.data.source === 'import');
    const userId = created.data.userId as string;
    expect(created.data).toEqual({
      projectId: 'pro-1',
      userId,
      fullName: 'Ingo Import',
      identifiers: [
        { id: expect.stringMatching(/^ide-/), type: 'email', value: customer, status: 'verified' },
        { id: expect.stringMatching(/^ide-/), type: 'email', value: later, status: 'pending' },
      ],
      passkeys: [],
      socialProviders: [],
      source: 'import',
    });
    expect(ofType(events, 'identifier.removed').map((e) => [e.data.userId, e.data.identifier.value])).toEqual([[squatter, customer]]);
    expect(ofType(events, 'user.updated').map((e) => e.data)).toEqual([{ projectId: 'pro-1', userId, fullName: 'Ingo Changed', status: 'active' }]);
    expect(ofType(events, 'identifier.verified').map((e) => e.data.identifier)).toEqual([{ ...created.data.identifiers[1], status: 'verified' }]);
    const added = ofType(events, 'identifier.added').filter((e) => e.data.userId === userId);
    expect(added.map((e) => e.data.identifier)).toEqual([{ id: expect.stringMatching(/^ide-/), type: 'email', value: third, status: 'pending' }]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(to.received).toHaveLength(7);
  });
});
