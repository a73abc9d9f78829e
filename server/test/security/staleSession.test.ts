// Attack class: a stale or stolen long session. Whoever holds a long session whose log-in is older than
// the project's recentLoginSeconds (300 by default) cannot delete the account, remove an identifier
// the user logs in with, move the primary address or delete the last passkey: the API answers 403
// recent_login_required until a fresh proof of THIS user (/v2/me/reauth*) renews THIS long session. A
// refresh is no proof; a code is single-use, expiring, bound to the long session that asked for it and
// sent only to an address the user held at their last proof (a thief's freshly added one does not count).
import { describe, expect, it } from 'vitest';
import { SoftAuthenticator } from '../helpers/softAuthenticator.ts';
import {
  Client,
  createProject,
  latestCode,
  outbox,
  PASSKEY_DEVICE,
  serverForThisFile,
  uniqueEmail,
  type ApiResponse,
} from '../helpers/testServer.ts';

const server = serverForThisFile();
const WINDOW_MS = 300_000;

interface User {
  client: Client;
  email: string;
  projectId: string;
}

/** A user signed up by e-mail code (optionally with a passkey); the client holds the long session. */
async function signUp(options: { passkey?: SoftAuthenticator; projectId?: string } = {}): Promise<User> {
  const projectId = options.projectId ?? 'pro-1';
  const email = uniqueEmail('stale');
  const client = new Client(server.url, projectId);
  await client.init(options.passkey ? PASSKEY_DEVICE : {}, 'signup-init');
  await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Sam Stale' });
  let block = await client.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email), identifierType: 'email', verificationType: 'email-otp' });
  if (options.passkey) {
    const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    await client.step('/v2/auth/passkey/append/finish', { signedChallenge: options.passkey.create(started.data.challenge) });
    block = await client.step('/v2/auth/block/skip');
  }
  expect(block.block).toBe('completed');
  return { client, email, projectId };
}

/** A second log-in of the same user (a second long session) by e-mail code. */
async function logIn(user: User): Promise<Client> {
  const client = new Client(server.url, user.projectId);
  await client.init({}, 'login-init');
  await client.step('/v2/auth/login/init', { identifierValue: user.email, isPhone: false });
  const done = await client.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, user.email), identifierType: 'email', verificationType: 'email-otp' });
  expect(done.block).toBe('completed');
  return client;
}

function expectError(res: ApiResponse, status: number, type: string) {
  expect({ status: res.status, type: res.body?.error?.type }).toEqual({ status, type });
  expect(res.body).toMatchObject({ httpStatusCode: status, error: { type } });
}

function expectStale(res: ApiResponse) {
  expectError(res, 403, 'recent_login_required');
}

function expectOk(res: ApiResponse) {
  expect(res.status).toBe(200);
}

async function identifiers(client: Client) {
  const res = await client.request('GET', '/v2/me');
  expect(res.status).toBe(200);
  return res.body.identifiers as { id: string; value: string; status: string; primary: boolean }[];
}

/** Adds a second address and verifies it by code (nothing here needs a recent log-in). */
async function addVerifiedEmail(client: Client): Promise<string> {
  const value = uniqueEmail('second');
  expectOk(await client.request('POST', '/v2/me/identifier', { identifierType: 'email', value }));
  const id = (await identifiers(client)).find((i) => i.value === value)!.id;
  expectOk(await client.request('POST', '/v2/me/identifier/verify/start', { identifierID: id, clientInformation: {} }));
  expectOk(await client.request('POST', '/v2/me/identifier/verify/finish', { identifierID: id, code: await latestCode(server.url, value) }));
  return id;
}

function staleNow() {
  server.clock.advance(WINDOW_MS + 1000);
}

async function reauthByCode(client: Client, to: string): Promise<ApiResponse> {
  const options = (await client.request('GET', '/v2/me/reauth')).body;
  expect(options.code.value).toBe(to);
  expectOk(await client.request('POST', '/v2/me/reauth/code/start', { identifierID: options.code.identifierID }));
  return client.request('POST', '/v2/me/reauth/code/finish', { identifierID: options.code.identifierID, code: await latestCode(server.url, to) });
}

describe('a long session older than the window', () => {
  it('cannot delete the account; the account stays', async () => {
    const { client } = await signUp();
    staleNow();
    expectStale(await client.request('DELETE', '/v2/me'));
    expect((await client.request('GET', '/v2/me')).status).toBe(200);
  });

  it('cannot remove a verified identifier the user logs in with', async () => {
    const { client, email } = await signUp();
    const second = await addVerifiedEmail(client);
    const original = (await identifiers(client)).find((i) => i.value === email)!.id;
    staleNow();
    expectStale(await client.request('DELETE', '/v2/me/identifier', { identifierID: second }));
    expectStale(await client.request('DELETE', '/v2/me/identifier', { identifierID: original }));
    expect(await identifiers(client)).toHaveLength(2);
  });

  it('may remove a pending address (it opens nothing)', async () => {
    const { client } = await signUp();
    const pending = uniqueEmail('pending');
    expectOk(await client.request('POST', '/v2/me/identifier', { identifierType: 'email', value: pending }));
    staleNow();
    const id = (await identifiers(client)).find((i) => i.value === pending)!.id;
    expectOk(await client.request('DELETE', '/v2/me/identifier', { identifierID: id }));
    expect(await identifiers(client)).toHaveLength(1);
  });

  it('cannot change the primary address', async () => {
    const { client, email } = await signUp();
    const second = await addVerifiedEmail(client);
    staleNow();
    const { value } = (await identifiers(client)).find((i) => i.id === second)!;
    expectStale(await client.request('PATCH', '/v2/me/identifier', { identifierID: second, identifierType: 'email', value, primary: true }));
    expect((await identifiers(client)).find((i) => i.primary)!.value).toBe(email);
  });

  it('cannot delete the last passkey; one of two it may', async () => {
    const authenticator = new SoftAuthenticator();
    const { client } = await signUp({ passkey: authenticator });
    const start = await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable: true } });
    const attestation = new SoftAuthenticator().create(start.body.attestationOptions);
    expectOk(await client.request('POST', '/v2/me/passkeys/append/finish', { attestationResponse: attestation, clientInformation: {} }));
    staleNow();
    const [first, second] = (await client.request('GET', '/v2/me/passkeys')).body.passkeys as { id: string }[];
    expectOk(await client.request('DELETE', `/v2/me/passkeys/${second!.id}`));
    expectStale(await client.request('DELETE', `/v2/me/passkeys/${first!.id}`));
    expect((await client.request('GET', '/v2/me/passkeys')).body.passkeys).toHaveLength(1);
  });

  it('is not renewed by a refresh: a refresh is no log-in', async () => {
    const { client } = await signUp();
    staleNow();
    const refreshed = await client.request('POST', '/v2/me/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.shortSession).toEqual(expect.any(String));
    expectStale(await client.request('DELETE', '/v2/me'));
  });

  it('can act within the window of its log-in, and of a second log-in of the same user', async () => {
    const user = await signUp();
    const second = await addVerifiedEmail(user.client);
    server.clock.advance(WINDOW_MS - 1000);
    expectOk(await user.client.request('DELETE', '/v2/me/identifier', { identifierID: second }));
    staleNow();
    const again = await logIn(user);
    expectStale(await user.client.request('DELETE', '/v2/me'));
    expectOk(await again.request('DELETE', '/v2/me'));
  });

  it('follows the project window (recentLoginSeconds)', async () => {
    const projectId = await createProject(server.url, { recentLoginSeconds: 2, passkeys: false });
    const { client } = await signUp({ projectId });
    server.clock.advance(2001);
    expectStale(await client.request('DELETE', '/v2/me'));
    const refused = await fetch(`${server.url}/_dev/projects`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ recentLoginSeconds: 0 }) });
    expect(refused.status).toBe(400);
  });
});

describe('a fresh proof by code', () => {
  it('renews this long session for the window: the account can then be deleted', async () => {
    const { client, email } = await signUp();
    const second = await addVerifiedEmail(client);
    staleNow();
    expectStale(await client.request('DELETE', '/v2/me/identifier', { identifierID: second }));
    expectOk(await reauthByCode(client, email));
    expectOk(await client.request('DELETE', '/v2/me/identifier', { identifierID: second }));
    staleNow();
    expectStale(await client.request('DELETE', '/v2/me'));
    expectOk(await reauthByCode(client, email));
    expectOk(await client.request('DELETE', '/v2/me'));
    expect((await client.request('GET', '/v2/me')).status).toBe(401);
  });

  it('needs a session', async () => {
    const anonymous = new Client(server.url, 'pro-1');
    expectError(await anonymous.request('GET', '/v2/me/reauth'), 401, 'unauthorized');
    expectError(await anonymous.request('POST', '/v2/me/reauth/code/start', { identifierID: 'ide-x' }), 401, 'unauthorized');
    expectError(await anonymous.request('POST', '/v2/me/reauth/code/finish', { identifierID: 'ide-x', code: '123456' }), 401, 'unauthorized');
    expectError(await anonymous.request('POST', '/v2/me/reauth/passkey/start', {}), 401, 'unauthorized');
  });

  it("does not accept another user's code, nor send one to another user's address", async () => {
    const victim = await signUp();
    const attacker = await signUp();
    staleNow();
    const victimAddress = (await identifiers(victim.client))[0]!.id;
    const attackerAddress = (await identifiers(attacker.client))[0]!.id;
    // the attacker's own code (sent to the attacker) tried on the victim's stale session
    expectOk(await attacker.client.request('POST', '/v2/me/reauth/code/start', { identifierID: attackerAddress }));
    const attackerCode = await latestCode(server.url, attacker.email);
    expectError(await victim.client.request('POST', '/v2/me/reauth/code/finish', { identifierID: attackerAddress, code: attackerCode }), 400, 'identifier_not_allowed');
    expectError(await victim.client.request('POST', '/v2/me/reauth/code/finish', { identifierID: victimAddress, code: attackerCode }), 400, 'invalid_challenge_solution_email-otp');
    // and the victim's address is not the attacker's to mail
    const mailsBefore = (await outbox(server.url, victim.email)).length;
    expectError(await attacker.client.request('POST', '/v2/me/reauth/code/start', { identifierID: victimAddress }), 400, 'identifier_not_allowed');
    expect(await outbox(server.url, victim.email)).toHaveLength(mailsBefore);
    expectStale(await victim.client.request('DELETE', '/v2/me'));
    // the attacker's code is still good for the attacker's own session
    expectOk(await attacker.client.request('POST', '/v2/me/reauth/code/finish', { identifierID: attackerAddress, code: attackerCode }));
  });

  it('renews only the long session that asked for the code', async () => {
    const user = await signUp();
    const other = await logIn(user);
    staleNow();
    const address = (await identifiers(user.client))[0]!.id;
    expectOk(await user.client.request('POST', '/v2/me/reauth/code/start', { identifierID: address }));
    const code = await latestCode(server.url, user.email);
    expectError(await other.request('POST', '/v2/me/reauth/code/finish', { identifierID: address, code }), 400, 'invalid_challenge_solution_email-otp');
    expectStale(await other.request('DELETE', '/v2/me'));
    expectOk(await user.client.request('POST', '/v2/me/reauth/code/finish', { identifierID: address, code }));
    expectStale(await other.request('DELETE', '/v2/me'));
  });

  it('refuses a used code and an expired one', async () => {
    const { client, email } = await signUp();
    staleNow();
    const address = (await identifiers(client))[0]!.id;
    expectOk(await client.request('POST', '/v2/me/reauth/code/start', { identifierID: address }));
    const used = await latestCode(server.url, email);
    expectOk(await client.request('POST', '/v2/me/reauth/code/finish', { identifierID: address, code: used }));
    staleNow();
    expectError(await client.request('POST', '/v2/me/reauth/code/finish', { identifierID: address, code: used }), 400, 'invalid_challenge_solution_email-otp');
    expectStale(await client.request('DELETE', '/v2/me'));

    expectOk(await client.request('POST', '/v2/me/reauth/code/start', { identifierID: address }));
    const expiring = await latestCode(server.url, email);
    server.clock.advance(10 * 60_000 + 1);
    expectError(await client.request('POST', '/v2/me/reauth/code/finish', { identifierID: address, code: expiring }), 400, 'invalid_challenge_solution_email-otp');
    expectStale(await client.request('DELETE', '/v2/me'));
  });

  it('counts wrong codes: after five misses the right code is dead too; resends wait and count', async () => {
    const { client, email } = await signUp();
    staleNow();
    const address = (await identifiers(client))[0]!.id;
    expectOk(await client.request('POST', '/v2/me/reauth/code/start', { identifierID: address }));
    expectError(await client.request('POST', '/v2/me/reauth/code/start', { identifierID: address }), 429, 'too_many_requests');
    const code = await latestCode(server.url, email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) {
      expectError(await client.request('POST', '/v2/me/reauth/code/finish', { identifierID: address, code: wrong }), 400, 'invalid_challenge_solution_email-otp');
    }
    expectError(await client.request('POST', '/v2/me/reauth/code/finish', { identifierID: address, code }), 400, 'invalid_challenge_solution_email-otp');
    expectStale(await client.request('DELETE', '/v2/me'));
  });

  it("does not go to an address added since the log-in (a thief's own)", async () => {
    const { client, email } = await signUp();
    staleNow();
    const thiefs = await addVerifiedEmail(client);
    const options = (await client.request('GET', '/v2/me/reauth')).body;
    expect(options).toEqual({ passkey: false, code: { identifierID: expect.any(String), identifierType: 'email', value: email } });
    expectError(await client.request('POST', '/v2/me/reauth/code/start', { identifierID: thiefs }), 400, 'identifier_not_allowed');
    expectError(await client.request('POST', '/v2/me/reauth/code/finish', { identifierID: thiefs, code: '000000' }), 400, 'identifier_not_allowed');
    expectStale(await client.request('DELETE', '/v2/me'));
  });

  it('refuses bad bodies with the error envelope', async () => {
    const { client } = await signUp();
    expectError(await client.request('POST', '/v2/me/reauth/code/start', {}), 400, 'invalid_request');
    expectError(await client.request('POST', '/v2/me/reauth/code/finish', { identifierID: 'x' }), 400, 'invalid_request');
    expectError(await client.request('POST', '/v2/me/reauth/passkey/finish', { assertionResponse: 'not json' }), 400, 'invalid_request');
    expectError(await client.request('POST', '/v2/me/reauth/code/start', { identifierID: 'ide-none' }), 400, 'identifier_not_allowed');
  });
});

describe('a fresh proof by passkey', () => {
  async function assertion(client: Client, authenticator: SoftAuthenticator): Promise<string> {
    const start = await client.request('POST', '/v2/me/reauth/passkey/start', { clientInformation: {} });
    expect(start.status).toBe(200);
    return authenticator.get(start.body.assertionOptions);
  }

  it("renews the long session with the user's own passkey, once per challenge", async () => {
    const authenticator = new SoftAuthenticator();
    const { client } = await signUp({ passkey: authenticator });
    staleNow();
    expect((await client.request('GET', '/v2/me/reauth')).body.passkey).toBe(true);
    const [passkey] = (await client.request('GET', '/v2/me/passkeys')).body.passkeys as { id: string }[];
    expectStale(await client.request('DELETE', `/v2/me/passkeys/${passkey!.id}`));
    const signed = await assertion(client, authenticator);
    expectOk(await client.request('POST', '/v2/me/reauth/passkey/finish', { assertionResponse: signed }));
    expectError(await client.request('POST', '/v2/me/reauth/passkey/finish', { assertionResponse: signed }), 400, 'passkey_verification_failed');
    expectOk(await client.request('DELETE', `/v2/me/passkeys/${passkey!.id}`));
  });

  it("refuses another user's passkey, a wrong origin and an expired challenge", async () => {
    const victimKey = new SoftAuthenticator();
    const victim = await signUp({ passkey: victimKey });
    const attackerKey = new SoftAuthenticator();
    const attacker = await signUp({ passkey: attackerKey });
    staleNow();
    // the attacker signs the victim's challenge with his own (valid) passkey
    const start = await victim.client.request('POST', '/v2/me/reauth/passkey/start', {});
    const forged = attackerKey.get(start.body.assertionOptions, { credential: attackerKey.credentials[0]! });
    expectError(await victim.client.request('POST', '/v2/me/reauth/passkey/finish', { assertionResponse: forged }), 400, 'passkey_verification_failed');
    const wrongOrigin = await victim.client.request('POST', '/v2/me/reauth/passkey/start', {});
    const signedElsewhere = victimKey.get(wrongOrigin.body.assertionOptions, { origin: 'https://evil.example' });
    expectError(await victim.client.request('POST', '/v2/me/reauth/passkey/finish', { assertionResponse: signedElsewhere }), 400, 'passkey_verification_failed');
    const late = await assertion(victim.client, victimKey);
    server.clock.advance(5 * 60_000 + 1);
    expectError(await victim.client.request('POST', '/v2/me/reauth/passkey/finish', { assertionResponse: late }), 400, 'passkey_verification_failed');
    expectStale(await victim.client.request('DELETE', '/v2/me'));
    expectStale(await attacker.client.request('DELETE', '/v2/me'));
  });

  it("does not take a passkey added since the log-in (a thief's own)", async () => {
    const { client } = await signUp();
    staleNow();
    const thiefs = new SoftAuthenticator();
    const start = await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable: true } });
    expectOk(await client.request('POST', '/v2/me/passkeys/append/finish', { attestationResponse: thiefs.create(start.body.attestationOptions), clientInformation: {} }));
    expect((await client.request('GET', '/v2/me/reauth')).body.passkey).toBe(false);
    expectError(await client.request('POST', '/v2/me/reauth/passkey/start', {}), 400, 'passkey_verification_failed');
    expectStale(await client.request('DELETE', '/v2/me'));
  });
});
