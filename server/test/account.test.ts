// The account calls of a logged-in user: PATCH and DELETE /v2/me, and /v2/me/identifier* (add, verify
// with a code, make primary, change a username, remove), with their limits and refusals.
import { describe, expect, it } from 'vitest';
import { signUpByEmailCode } from './helpers/passkeyUser.ts';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import {
  Client,
  createProject,
  jwtPayload,
  latestCode,
  outbox,
  serverForThisFile,
  uniqueEmail,
  uniqueUsername,
  type ApiResponse,
} from './helpers/testServer.ts';

const server = serverForThisFile();

/** A pro-1 user signed up by e-mail code (optionally with a passkey); the client holds the long session. */
function signUp(options: { email?: string; passkey?: SoftAuthenticator } = {}): Promise<{ client: Client; email: string }> {
  return signUpByEmailCode(server.url, 'pro-1', { email: options.email ?? uniqueEmail('acct'), ...(options.passkey ? { passkey: options.passkey } : {}) });
}

async function me(client: Client) {
  const res = await client.request('GET', '/v2/me');
  expect(res.status).toBe(200);
  return res.body as { id: string; fullName: string; identifiers: { id: string; value: string; type: string; status: string; primary: boolean }[] };
}

function expectError(res: ApiResponse, status: number, type: string) {
  expect({ status: res.status, type: res.body?.error?.type }).toEqual({ status, type });
}

function expectOk(res: ApiResponse) {
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ httpStatusCode: 200, message: 'OK' });
}

async function addEmail(client: Client, value: string): Promise<string> {
  expectOk(await client.request('POST', '/v2/me/identifier', { identifierType: 'email', value }));
  return (await me(client)).identifiers.find((i) => i.value === value)!.id;
}

async function verify(client: Client, identifierID: string, to: string) {
  expectOk(await client.request('POST', '/v2/me/identifier/verify/start', { identifierID, clientInformation: {} }));
  expectOk(await client.request('POST', '/v2/me/identifier/verify/finish', { identifierID, code: await latestCode(server.url, to) }));
}

function refreshedClaims(client: Client) {
  return client.request('POST', '/v2/me/refresh').then((res) => jwtPayload(res.body.shortSession));
}

describe('PATCH /v2/me: the full name', () => {
  it('changes the name, which the next short session carries', async () => {
    const { client } = await signUp();
    expectOk(await client.request('PATCH', '/v2/me', { fullName: '  Grace Hopper ' }));
    expect((await me(client)).fullName).toBe('Grace Hopper');
    expect((await refreshedClaims(client)).name).toBe('Grace Hopper');
  });

  it('refuses an empty name where sign-up requires one, and one over 100 characters, keeping the old one', async () => {
    const { client } = await signUp();
    expectError(await client.request('PATCH', '/v2/me', { fullName: '   ' }), 400, 'missing_full_name');
    expectError(await client.request('PATCH', '/v2/me', { fullName: 'x'.repeat(101) }), 400, 'missing_full_name');
    expectError(await client.request('PATCH', '/v2/me', { name: 'wrong field' }), 400, 'invalid_request');
    expect((await me(client)).fullName).toBe('Ann Account');
  });

  it('needs a session', async () => {
    expectError(await new Client(server.url, 'pro-1').request('PATCH', '/v2/me', { fullName: 'Nobody' }), 401, 'unauthorized');
  });
});

describe('POST /v2/me/identifier and verification by code', () => {
  it('adds a pending e-mail address and verifies it with a code sent to it', async () => {
    const { client, email } = await signUp();
    const second = uniqueEmail('second');
    const id = await addEmail(client, second);
    expect((await me(client)).identifiers).toEqual([
      { id: expect.any(String), value: email, type: 'email', status: 'verified', primary: true },
      { id, value: second, type: 'email', status: 'pending', primary: false },
    ]);
    expect(await outbox(server.url, second)).toEqual([]); // nothing is sent before verify/start

    expectOk(await client.request('POST', '/v2/me/identifier/verify/start', { identifierID: id, clientInformation: {} }));
    const [message] = await outbox(server.url, second);
    expect(message!.text).toContain(message!.code);
    const wrong = String((Number(message!.code) + 1) % 1_000_000).padStart(6, '0');
    expectError(await client.request('POST', '/v2/me/identifier/verify/finish', { identifierID: id, code: wrong }), 400, 'invalid_challenge_solution_email-otp');
    expect((await me(client)).identifiers[1]!.status).toBe('pending');
    expectOk(await client.request('POST', '/v2/me/identifier/verify/finish', { identifierID: id, code: message!.code }));
    expect((await me(client)).identifiers[1]!.status).toBe('verified');
    // a finish repeated after success changes nothing
    expectOk(await client.request('POST', '/v2/me/identifier/verify/finish', { identifierID: id, code: message!.code }));
  });

  it('refuses a bad format, an address of another account, a type the project does not use and more than maxPerUser', async () => {
    const other = await signUp();
    const { client } = await signUp();
    const add = (identifierType: string, value: string) => client.request('POST', '/v2/me/identifier', { identifierType, value });
    expectError(await add('email', 'not-an-address'), 400, 'identifier_invalid_format');
    expectError(await add('email', other.email.toUpperCase()), 409, 'identifier_already_in_use');
    expectError(await add('phone', '+4915112345678'), 400, 'identifier_not_allowed');
    expectOk(await add('email', uniqueEmail('two')));
    expectError(await add('email', uniqueEmail('three')), 400, 'identifier_limit_reached');
    expect((await me(client)).identifiers).toHaveLength(2);
  });

  it('sends at most one code per 30 s and goes through the send limits per address', async () => {
    const { client } = await signUp();
    const added = uniqueEmail('limits');
    const id = await addEmail(client, added);
    const start = () => client.request('POST', '/v2/me/identifier/verify/start', { identifierID: id, clientInformation: {} });
    expectOk(await start());
    const early = await start();
    expectError(early, 429, 'too_many_requests');
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0);
    for (let sent = 1; sent < 5; sent += 1) {
      server.clock.advance(31_000);
      expectOk(await start());
    }
    server.clock.advance(31_000);
    expectError(await start(), 429, 'too_many_requests'); // emailSendsPerIdentifier: 5 per 15 minutes
    expect(await outbox(server.url, added)).toHaveLength(5);
    server.clock.advance(15 * 60_000);
  });

  it('lets a code die after five wrong tries', async () => {
    const { client } = await signUp();
    const added = uniqueEmail('tries');
    const id = await addEmail(client, added);
    expectOk(await client.request('POST', '/v2/me/identifier/verify/start', { identifierID: id, clientInformation: {} }));
    const code = await latestCode(server.url, added);
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i += 1) {
      expectError(await client.request('POST', '/v2/me/identifier/verify/finish', { identifierID: id, code: wrong }), 400, 'invalid_challenge_solution_email-otp');
    }
    expectError(await client.request('POST', '/v2/me/identifier/verify/finish', { identifierID: id, code }), 400, 'invalid_challenge_solution_email-otp');
  });

  it('answers 404 for another user’s identifier and refuses to verify what is verified', async () => {
    const a = await signUp();
    const b = await signUp();
    const [foreign] = (await me(b.client)).identifiers;
    expectError(await a.client.request('POST', '/v2/me/identifier/verify/start', { identifierID: foreign!.id, clientInformation: {} }), 404, 'not_found');
    expectError(await a.client.request('DELETE', '/v2/me/identifier', { identifierID: foreign!.id }), 404, 'not_found');
    const [own] = (await me(a.client)).identifiers;
    expectError(await a.client.request('POST', '/v2/me/identifier/verify/start', { identifierID: own!.id, clientInformation: {} }), 400, 'identifier_not_allowed');
  });
});

describe('PATCH /v2/me/identifier: primary and username', () => {
  it('makes a verified address primary: it comes first, sessions name it, and it logs in', async () => {
    const { client, email } = await signUp();
    const second = uniqueEmail('primary');
    const id = await addEmail(client, second);
    const makePrimary = () => client.request('PATCH', '/v2/me/identifier', { identifierID: id, identifierType: 'email', value: second, primary: true });
    expectError(await makePrimary(), 400, 'identifier_not_allowed'); // pending
    await verify(client, id, second);
    expectOk(await makePrimary());
    expect((await me(client)).identifiers.map((i) => [i.value, i.primary])).toEqual([
      [second, true],
      [email, false],
    ]);
    expect((await refreshedClaims(client)).email).toBe(second);

    const login = new Client(server.url, 'pro-1');
    await login.init({}, 'login-init');
    const code = await login.step('/v2/auth/login/init', { identifierValue: second, isPhone: false });
    expect(code.block).toBe('email-verify');
    expect(code.data.identifier).toBe(second);
  });

  it('has no primary to choose where the project allows one address per user', async () => {
    const project = await createProject(server.url, { identifiers: { email: { maxPerUser: 1 }, username: {} }, passkeys: false });
    const client = new Client(server.url, project);
    await client.init({}, 'signup-init');
    const email = uniqueEmail('single');
    await client.step('/v2/auth/signup/init', {
      identifiers: [
        { type: 'email', identifier: email },
        { type: 'username', identifier: uniqueUsername('single') },
      ],
    });
    await client.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email), identifierType: 'email', verificationType: 'email-otp' });
    const [only] = (await me(client)).identifiers;
    expectError(await client.request('POST', '/v2/me/identifier', { identifierType: 'email', value: uniqueEmail('more') }), 400, 'identifier_limit_reached');
    expectOk(await client.request('PATCH', '/v2/me/identifier', { identifierID: only!.id, identifierType: 'email', value: email, primary: true }));
    const config = await client.request('GET', '/v2/user-details-config');
    expect(config.body.identifiers).toEqual([
      { type: 'email', loginIdentifier: true, maxPerUser: 1 },
      { type: 'username', loginIdentifier: true, maxPerUser: 1 },
    ]);
  });

  it('changes a username (a new identifierID), frees the old one, and refuses to change an address in place', async () => {
    const client = new Client(server.url, 'pro-4');
    await client.init({}, 'signup-init');
    const email = uniqueEmail('user');
    const username = uniqueUsername('old');
    await client.step('/v2/auth/signup/init', {
      identifiers: [
        { type: 'email', identifier: email },
        { type: 'username', identifier: username },
      ],
    });
    await client.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email), identifierType: 'email', verificationType: 'email-otp' });
    const before = await me(client);
    const old = before.identifiers.find((i) => i.type === 'username')!;
    const renamed = uniqueUsername('new');
    const change = (value: string) => client.request('PATCH', '/v2/me/identifier', { identifierID: old.id, identifierType: 'username', value });
    expectError(await change('no'), 400, 'identifier_invalid_format');
    expectOk(await change(renamed));
    const after = (await me(client)).identifiers.find((i) => i.type === 'username')!;
    expect(after).toEqual({ id: expect.not.stringMatching(old.id), value: renamed, type: 'username', status: 'verified', primary: true });
    expectError(await change(uniqueUsername('gone')), 404, 'not_found'); // the old id is gone

    const other = new Client(server.url, 'pro-4');
    await other.init({}, 'signup-init');
    const taken = await other.step('/v2/auth/signup/init', {
      identifiers: [
        { type: 'email', identifier: uniqueEmail('other') },
        { type: 'username', identifier: renamed },
      ],
    });
    expect(taken.data.identifiers.find((i: { type: string }) => i.type === 'username').error.code).toBe('identifier_already_in_use');
    const free = await other.step('/v2/auth/signup/init', {
      identifiers: [
        { type: 'email', identifier: uniqueEmail('other') },
        { type: 'username', identifier: username },
      ],
    });
    expect(free.block).toBe('email-verify');

    const address = before.identifiers.find((i) => i.type === 'email')!;
    expectError(
      await client.request('PATCH', '/v2/me/identifier', { identifierID: address.id, identifierType: 'email', value: uniqueEmail('moved') }),
      400,
      'identifier_not_allowed',
    );
  });
});

describe('DELETE /v2/me/identifier', () => {
  it('never removes the last verified identifier the user logs in with', async () => {
    const { client, email } = await signUp();
    const [first] = (await me(client)).identifiers;
    const second = uniqueEmail('keep');
    const id = await addEmail(client, second);
    expectError(await client.request('DELETE', '/v2/me/identifier', { identifierID: first!.id }), 400, 'last_login_identifier'); // the other is pending
    expectOk(await client.request('DELETE', '/v2/me/identifier', { identifierID: id })); // a pending one can go
    expect((await me(client)).identifiers.map((i) => i.value)).toEqual([email]);
  });

  it('removes the primary address once another is verified, which becomes primary', async () => {
    const { client, email } = await signUp();
    const [first] = (await me(client)).identifiers;
    const second = uniqueEmail('successor');
    await verify(client, await addEmail(client, second), second);
    expectOk(await client.request('DELETE', '/v2/me/identifier', { identifierID: first!.id }));
    expect((await me(client)).identifiers.map((i) => [i.value, i.status, i.primary])).toEqual([[second, 'verified', true]]);
    const login = new Client(server.url, 'pro-1');
    await login.init({}, 'login-init');
    expect((await login.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })).data.fieldError.code).toBe('login_identifier_unknown_user');
  });
});

describe('DELETE /v2/me: the account', () => {
  it('removes the user with passkeys, sessions and provider accounts; nothing logs in any more', async () => {
    const authenticator = new SoftAuthenticator();
    const { client, email } = await signUp({ passkey: authenticator });
    const user = await me(client);
    const { store } = server.api;
    const now = server.clock.now;
    await store.socialAccounts.insert({
      id: `soc-${user.id}`,
      projectId: 'pro-1',
      userId: user.id,
      provider: 'github',
      subject: `gh-${user.id}`,
      email,
      fullName: 'Ann Account',
      avatarUrl: '',
      createdAt: now,
      lastUsedAt: now,
    });
    // a log-in of the same user that is under way while the account goes
    const running = new Client(server.url, 'pro-1');
    await running.init({}, 'login-init');
    expect((await running.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })).block).toBe('passkey-verify');

    const deleted = await client.request('DELETE', '/v2/me');
    expectOk(deleted);
    expect(deleted.headers.get('set-cookie')).toMatch(/cbo_long_session=;/);
    for (const table of ['users', 'identifiers', 'credentials', 'sessions', 'social_accounts']) {
      const column = table === 'users' ? 'id' : 'user_id';
      expect(await store.db.get(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`, [user.id]), table).toEqual({ n: 0 });
    }
    expectError(await client.request('GET', '/v2/me'), 401, 'unauthorized');
    expectError(await client.request('POST', '/v2/me/refresh'), 401, 'unauthorized');

    const started = await running.step('/v2/auth/passkey/login/start', {});
    const assertion = authenticator.get(started.data.challenge);
    expect((await running.step('/v2/auth/passkey/login/finish', { signedChallenge: assertion })).error.code).toBe('passkey_verification_failed');
    const fallback = await running.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
    expect(fallback.block).toBe('email-verify');
    const finish = await running.request('POST', '/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
    });
    expectError(finish, 404, 'process_not_available');

    // the address is free again: signing up with it starts a new account
    const again = new Client(server.url, 'pro-1');
    await again.init({}, 'signup-init');
    expect((await again.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'New Ann' })).block).toBe('email-verify');
  });
});
