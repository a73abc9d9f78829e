/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// WebAuthn with a software authenticator: registration during sign-up, replays, concurrency,
// passkey log-in, conditional UI, and the logged-in passkey list.
import { describe, expect, it } from 'vitest';
import { userWithPasskey as signUpWithPasskey } from './helpers/passkeyUser.ts';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { Client, jwtPayload, latestCode, PASSKEY_DEVICE, serverForThisFile, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile();

/** pro-2 before-verification up to passkey-append/start; returns the creation options. */
async function toAppendStart(): Promise<{ client: Client; email: string; options: string }> {
  const client = new Client(server.url, 'pro-3');
  await client.init(PASSKEY_DEVICE, 'signup-init');
  const phone = `+4915${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const append = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: phone }] });
  expect(append.block).toBe('passkey-append');
  const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
  return { client, email: phone, options: started.data.challenge };
}

/** A pro-1 user with a passkey on `authenticator`; returns the e-mail address. */
async function userWithPasskey(authenticator: SoftAuthenticator): Promise<string> {
  return (await signUpWithPasskey(server.url, authenticator)).email;
}

describe('registration during sign-up', () => {
  it('rejects a replayed registration response in the same process', async () => {
    const { client, options } = await toAppendStart();
    const response = new SoftAuthenticator().create(options);
    expect((await client.step('/v2/auth/passkey/append/finish', { signedChallenge: response })).block).toBe('phone-verify');
    const replay = await client.step('/v2/auth/passkey/append/finish', { signedChallenge: response });
    expect(replay.error.code).toBe('passkey_verification_failed');
  });

  it('rejects a response made for another challenge', async () => {
    const a = await toAppendStart();
    const b = await toAppendStart();
    const forA = new SoftAuthenticator().create(a.options);
    const res = await b.client.step('/v2/auth/passkey/append/finish', { signedChallenge: forA });
    expect(res.block).toBe('passkey-append');
    expect(res.error.code).toBe('passkey_verification_failed');
    // the challenge of b is spent now: even a correct response has to start over
    const again = await b.client.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(b.options) });
    expect(again.error.code).toBe('passkey_verification_failed');
  });

  it('rejects a wrong origin, a missing user verification and a finish without start', async () => {
    const wrongOrigin = await toAppendStart();
    const res = await wrongOrigin.client.step('/v2/auth/passkey/append/finish', {
      signedChallenge: new SoftAuthenticator().create(wrongOrigin.options, { origin: 'https://evil.example' }),
    });
    expect(res.error.code).toBe('passkey_verification_failed');

    const noUv = await toAppendStart();
    const res2 = await noUv.client.step('/v2/auth/passkey/append/finish', {
      signedChallenge: new SoftAuthenticator(undefined, undefined, { userVerified: false }).create(noUv.options),
    });
    expect(res2.error.code).toBe('passkey_verification_failed');

    const client = new Client(server.url, 'pro-3');
    await client.init(PASSKEY_DEVICE, 'signup-init');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: '+4915112340001' }] });
    const res3 = await client.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(noUv.options) });
    expect(res3.error.code).toBe('passkey_verification_failed');
  });

  it('lets only one of two concurrent finish calls succeed', async () => {
    const { client, options } = await toAppendStart();
    const response = new SoftAuthenticator().create(options);
    const [a, b] = await Promise.all([
      client.step('/v2/auth/passkey/append/finish', { signedChallenge: response }),
      client.step('/v2/auth/passkey/append/finish', { signedChallenge: response }),
    ]);
    const outcomes = [a, b].map((r) => (r.error ? r.error.code : r.block)).sort();
    expect(outcomes).toEqual(['passkey_verification_failed', 'phone-verify']);
  });

  it('answers append/start outside passkey-append with an in-band error', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init(PASSKEY_DEVICE);
    const res = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    expect(res.block).toBe('login-init');
    expect(res.error.code).toBe('unexpected_step');
  });
});

describe('log-in', () => {
  it('[spec 4.login-path] logs in with a passkey: login-init -> passkey-verify -> completed', async () => {
    const authenticator = new SoftAuthenticator();
    const email = await userWithPasskey(authenticator);
    const client = new Client(server.url, 'pro-1');
    await client.init(PASSKEY_DEVICE);
    const verify = await client.step('/v2/auth/login/init', { identifierValue: email.toUpperCase(), isPhone: false });
    expect(verify.block).toBe('passkey-verify');
    expect(verify.authType).toBe('login');
    expect(verify.data.identifierValue).toBe(email);
    expect(verify.alternatives.map((a: any) => [a.block, a.data.verificationMethod])).toEqual([['email-verify', 'email-otp']]);
    const started = await client.step('/v2/auth/passkey/login/start', {});
    const options = JSON.parse(started.data.challenge).publicKey;
    expect(options.allowCredentials).toHaveLength(1);
    expect(options.userVerification).toBe('required');
    const assertion = authenticator.get(started.data.challenge);
    const completed = await client.step('/v2/auth/passkey/login/finish', { signedChallenge: assertion });
    expect(completed.block).toBe('completed');
    expect(completed.authType).toBe('login');
    expect(completed.data.passkeyOperation).toEqual({ operationType: 'verify', identifierValue: email, identifierType: 'email', ceremonyType: 'local' });
    expect(jwtPayload(completed.data.shortSession).orig).toBe(email);

    // the same assertion cannot log in again
    const again = new Client(server.url, 'pro-1');
    await again.init(PASSKEY_DEVICE);
    await again.step('/v2/auth/login/init', { identifierValue: email, isPhone: false });
    await again.step('/v2/auth/passkey/login/start', {});
    const replay = await again.step('/v2/auth/passkey/login/finish', { signedChallenge: assertion });
    expect(replay.block).toBe('passkey-verify');
    expect(replay.error.code).toBe('passkey_verification_failed');
  });

  it('falls back from passkey-verify to an e-mail code', async () => {
    const email = await userWithPasskey(new SoftAuthenticator());
    const client = new Client(server.url, 'pro-1');
    await client.init(PASSKEY_DEVICE);
    await client.step('/v2/auth/login/init', { identifierValue: email, isPhone: false });
    expect((await client.request('POST', '/v2/auth/events', { eventType: 'login-explicit-abort' })).status).toBe(204);
    const verify = await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
    expect(verify.block).toBe('email-verify');
    expect(verify.authType).toBe('login');
    const completed = await client.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
      isNewDevice: false,
    });
    expect(completed.block).toBe('completed'); // the user already has a passkey: no append offer
  });

  it('logs in with a code and offers a skippable passkey to users without one', async () => {
    const signup = new Client(server.url, 'pro-1');
    await signup.init({}, 'signup-init');
    const email = uniqueEmail('nopk');
    await signup.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'No Key' });
    await signup.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
      isNewDevice: false,
    });

    const client = new Client(server.url, 'pro-1');
    await client.init(PASSKEY_DEVICE);
    const verify = await client.step('/v2/auth/login/init', { identifierValue: email, isPhone: false });
    expect(verify.block).toBe('email-verify');
    const append = await client.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
      isNewDevice: false,
    });
    expect(append.block).toBe('passkey-append');
    expect(append.authType).toBe('login');
    expect(append.alternatives.map((a: any) => a.block)).toEqual(['completed']);
    const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    const completed = await client.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(started.data.challenge) });
    expect(completed.block).toBe('completed');
    expect(completed.data.passkeyOperation.operationType).toBe('append');
    expect((await client.request('GET', '/v2/me/passkeys')).body.passkeys).toHaveLength(1);
  });

  it('answers an unknown user with a field error on login-init', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init(PASSKEY_DEVICE, 'signup-init');
    const res = await client.step('/v2/auth/login/init', { identifierValue: 'nobody@example.com', isPhone: false });
    expect(res.block).toBe('login-init');
    expect(res.data.identifierValue).toBe('nobody@example.com');
    expect(res.data.fieldError.code).toBe('login_identifier_unknown_user');
    expect((await client.request('POST', '/v2/auth/login/init', { identifierValue: 'x' })).status).toBe(400);
  });

  it('logs in by username with a code sent to the e-mail address (pro-4)', async () => {
    const signup = new Client(server.url, 'pro-4');
    await signup.init({}, 'signup-init');
    const email = uniqueEmail('un');
    const username = `user_${Date.now().toString(36)}`;
    await signup.step('/v2/auth/signup/init', {
      identifiers: [
        { type: 'email', identifier: email },
        { type: 'username', identifier: username },
      ],
    });
    await signup.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
      isNewDevice: false,
    });
    const client = new Client(server.url, 'pro-4');
    await client.init({});
    const verify = await client.step('/v2/auth/login/init', { identifierValue: username, isPhone: false });
    expect(verify.block).toBe('email-verify');
    expect(verify.data.identifier).toBe(email);
    const completed = await client.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
      isNewDevice: false,
    });
    expect(jwtPayload(completed.data.shortSession).orig).toBe(username);
  });

  it('logs in with conditional UI (mediation/finish) and rejects unknown passkeys', async () => {
    const authenticator = new SoftAuthenticator();
    const email = await userWithPasskey(authenticator);
    const client = new Client(server.url, 'pro-1');
    const init = await client.init(PASSKEY_DEVICE);
    const conditional = init.body.processResponse.blockBody.data.conditionalUIChallenge;
    const completed = await client.step('/v2/auth/passkey/mediation/finish', { signedChallenge: authenticator.get(conditional) });
    expect(completed.block).toBe('completed');
    expect(completed.data.passkeyOperation).toMatchObject({ operationType: 'verify', identifierValue: email });

    const stranger = new SoftAuthenticator();
    stranger.create(JSON.stringify({ publicKey: { challenge: 'x', rp: { id: 'localhost' }, user: { id: 'dXNlcg' } } }));
    const other = new Client(server.url, 'pro-1');
    const otherInit = await other.init(PASSKEY_DEVICE);
    const firstChallenge = otherInit.body.processResponse.blockBody.data.conditionalUIChallenge;
    const refused = await other.step('/v2/auth/passkey/mediation/finish', { signedChallenge: stranger.get(firstChallenge) });
    expect(refused.block).toBe('login-init');
    expect(refused.data.fieldError.code).toBe('invalid_conditional_ui_login');
    expect(refused.data.conditionalUIChallenge).not.toBe(firstChallenge); // a fresh challenge
    // the spent challenge cannot be used by the real passkey either
    const spent = await other.step('/v2/auth/passkey/mediation/finish', { signedChallenge: authenticator.get(firstChallenge) });
    expect(spent.data.fieldError.code).toBe('invalid_conditional_ui_login');
    const ok = await other.step('/v2/auth/passkey/mediation/finish', { signedChallenge: authenticator.get(spent.data.conditionalUIChallenge) });
    expect(ok.block).toBe('completed');
  });
});

describe('logged-in user', () => {
  async function loggedIn(): Promise<{ client: Client; authenticator: SoftAuthenticator; email: string }> {
    const authenticator = new SoftAuthenticator();
    const email = await userWithPasskey(authenticator);
    const client = new Client(server.url, 'pro-1');
    const init = await client.init(PASSKEY_DEVICE);
    await client.step('/v2/auth/passkey/mediation/finish', {
      signedChallenge: authenticator.get(init.body.processResponse.blockBody.data.conditionalUIChallenge),
    });
    expect(client.longSession).toBeDefined();
    return { client, authenticator, email };
  }

  it('[spec 6.user-details] [spec 6.own-passkeys] [spec 6.refresh-logout] needs a valid session for /v2/me*', async () => {
    const anonymous = new Client(server.url, 'pro-1');
    for (const [method, path] of [
      ['GET', '/v2/me'],
      ['GET', '/v2/me/passkeys'],
      ['POST', '/v2/me/refresh'],
      ['POST', '/v2/me/passkeys/append/start'],
      ['DELETE', '/v2/me/passkeys/cre-1'],
    ] as const) {
      const res = await anonymous.request(method, path, undefined, { Authorization: 'Bearer ' });
      expect(res.status, path).toBe(401);
      expect(res.body.error.type).toBe('unauthorized');
    }
    const forged = await anonymous.request('GET', '/v2/me', undefined, { Authorization: 'Bearer forged' });
    expect(forged.status).toBe(401);
  });

  it('[spec 6.own-passkeys] lists passkeys with authenticator details', async () => {
    const { client } = await loggedIn();
    const res = await client.request('GET', '/v2/me/passkeys');
    expect(res.body.paging).toEqual({ page: 1, totalPages: 1, totalItems: 1 });
    const [passkey] = res.body.passkeys;
    expect(passkey).toMatchObject({
      id: expect.stringMatching(/^cre-/),
      credentialID: expect.any(String),
      attestationType: 'none',
      transport: ['internal', 'hybrid'],
      backupEligible: true,
      backupState: true,
      authenticatorAAGUID: 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4',
      aaguidDetails: { name: 'Google Password Manager', iconLight: expect.stringMatching(/^data:image\/svg\+xml;base64,/), iconDark: expect.stringMatching(/^data:image\/svg\+xml;base64,/) },
      status: 'active',
    });
    expect(passkey.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(passkey.lastUsed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it('[spec 6.own-passkeys] adds a passkey, refuses a replay, deletes it', async () => {
    const { client } = await loggedIn();
    server.clock.advance(1000); // the list is in creation order
    const start = await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable: true } });
    expect(start.status).toBe(200);
    const options = JSON.parse(start.body.attestationOptions).publicKey;
    expect(options.excludeCredentials).toHaveLength(1);
    const attestation = new SoftAuthenticator('http://localhost:5173', '00000000-0000-0000-0000-000000000001').create(start.body.attestationOptions);
    const finish = await client.request('POST', '/v2/me/passkeys/append/finish', { attestationResponse: attestation, clientInformation: {} });
    expect(finish.status).toBe(200);
    const replay = await client.request('POST', '/v2/me/passkeys/append/finish', { attestationResponse: attestation, clientInformation: {} });
    expect(replay.status).toBe(400);
    expect(replay.body.error.type).toBe('passkey_verification_failed');

    const list = (await client.request('GET', '/v2/me/passkeys')).body.passkeys;
    expect(list).toHaveLength(2);
    expect(list[1].aaguidDetails.name).toBe('Passkey');
    const deleted = await client.request('DELETE', `/v2/me/passkeys/${encodeURIComponent(list[1].id)}`);
    expect(deleted.body).toEqual({ id: list[1].id });
    expect((await client.request('GET', '/v2/me/passkeys')).body.passkeys).toHaveLength(1);
    expect((await client.request('DELETE', `/v2/me/passkeys/${list[1].id}`)).status).toBe(404);
  });

  it('reports passkeys_not_supported as 200 with a reason', async () => {
    const { client } = await loggedIn();
    const res = await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable: false } });
    expect(res.status).toBe(200);
    expect(res.body.appendNotAllowedReason).toBe('passkeys_not_supported');
    expect((await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: 'x' })).status).toBe(400);
  });

  it('[spec 6.refresh-logout] refreshes the short session and logs out', async () => {
    const { client, email } = await loggedIn();
    server.clock.advance(60_000);
    const refreshed = await client.request('POST', '/v2/me/refresh');
    expect(refreshed.status).toBe(200);
    const claims = jwtPayload(refreshed.body.shortSession);
    expect(claims).toMatchObject({ email, orig: email });
    expect(claims.iat).toBe(Math.floor(server.clock.now / 1000));
    const logout = await client.request('POST', '/v2/me/logout');
    expect(logout.status).toBe(204);
    expect(logout.headers.get('set-cookie')).toMatch(/cbo_long_session=;.*Max-Age=0/i);
    expect((await client.request('POST', '/v2/me/refresh')).status).toBe(401);
    expect((await client.request('GET', '/v2/me')).status).toBe(401);
  });

  it('logs out the long session whether it comes as the cookie or as the bearer, and both when they differ', async () => {
    const byCookie = await loggedIn();
    const cookieToken = byCookie.client.longSession!;
    const anonymous = new Client(server.url, 'pro-1');
    const cookie = { Cookie: `cbo_long_session=${cookieToken}` };
    expect((await anonymous.request('POST', '/v2/me/logout', undefined, cookie)).status).toBe(204);
    expect((await byCookie.client.request('POST', '/v2/me/refresh')).status).toBe(401);

    const first = await loggedIn();
    const second = await loggedIn();
    const both = { Cookie: `cbo_long_session=${second.client.longSession}` };
    expect((await first.client.request('POST', '/v2/me/logout', undefined, both)).status).toBe(204);
    expect((await first.client.request('POST', '/v2/me/refresh')).status).toBe(401);
    expect((await second.client.request('POST', '/v2/me/refresh')).status).toBe(401);
  });

  it('expires long sessions', async () => {
    const { client } = await loggedIn();
    server.clock.advance(30 * 86_400_000 + 1000);
    expect((await client.request('POST', '/v2/me/refresh')).status).toBe(401);
  });
});

describe('a passkey log-in whose passkeys are gone', () => {
  it('[spec 8.no-passkey-available] names no passkey in its challenge once the account has none left, which the widget shows as "No passkey available"', async () => {
    const { email, client: owner } = await signUpWithPasskey(server.url, new SoftAuthenticator());
    const visitor = new Client(server.url, 'pro-1');
    await visitor.init(PASSKEY_DEVICE);
    expect((await visitor.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })).block).toBe('passkey-verify');
    // meanwhile, the passkey is removed in another tab
    const [passkey] = (await owner.request('GET', '/v2/me/passkeys')).body.passkeys;
    expect((await owner.request('DELETE', `/v2/me/passkeys/${encodeURIComponent(passkey.id)}`)).status).toBe(200);
    const started = await visitor.step('/v2/auth/passkey/login/start', {});
    expect(started.block).toBe('passkey-verify');
    expect(JSON.parse(started.data.challenge).publicKey.allowCredentials).toEqual([]);
  });
});
