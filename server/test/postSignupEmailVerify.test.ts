/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// post-signup-email-verify (pro-8: e-mail verifyAt 'after-signup'): the account is created before its
// address is verified, the code comes after, and it may be put off ("Verify later").
import { describe, expect, it } from 'vitest';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { Client, jwtPayload, latestCode, outbox, postProject, serverForThisFile, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile();

const DEVICE = { isUserVerifyingPlatformAuthenticatorAvailable: true };

async function signupInit(email: string, client: Record<string, boolean> = DEVICE): Promise<{ client: Client; block: any }> {
  const tab = new Client(server.url, 'pro-8');
  await tab.init(client, 'signup-init');
  return { client: tab, block: await tab.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] }) };
}

async function accountExists(email: string): Promise<boolean> {
  const probe = new Client(server.url, 'pro-8');
  await probe.init({}, 'login-init');
  const block = await probe.step('/v2/auth/login/init', { identifierValue: email, isPhone: false });
  return !block.data.fieldError;
}

function finish(client: Client, code: string) {
  return client.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp' });
}

describe('pro-8: e-mail verified after sign-up', () => {
  it('signup-init -> passkey-append -> passkey-appended -> post-signup-email-verify (account created) -> completed', async () => {
    const email = uniqueEmail('post');
    const { client, block: append } = await signupInit(email);
    expect(append.block).toBe('passkey-append');
    expect(append.alternatives.map((a: any) => a.block)).toEqual(['completed']); // "Maybe later": the address comes next
    expect(await outbox(server.url, email)).toEqual([]);
    expect(await accountExists(email)).toBe(false);

    const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    expect((await client.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(started.data.challenge) })).block).toBe(
      'passkey-appended',
    );
    const verify = await client.step('/v2/auth/block/skip');
    expect(verify.block).toBe('post-signup-email-verify');
    expect(verify.authType).toBe('signup');
    expect(verify.data).toMatchObject({
      blockType: 'post-signup-email-verify',
      verificationMethod: 'email-otp',
      identifier: email,
      retryNotBefore: expect.any(Number),
      isPostLoginVerification: false,
    });
    expect(verify.alternatives.map((a: any) => a.block)).toEqual(['completed']);
    expect(await accountExists(email)).toBe(true);

    const code = await latestCode(server.url, email);
    const wrong = await finish(client, String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
    expect(wrong.block).toBe('post-signup-email-verify');
    expect(wrong.data.error.code).toBe('invalid_challenge_solution_email-otp');
    const completed = await finish(client, code);
    expect(completed.block).toBe('completed');
    expect(completed.data.passkeyOperation.operationType).toBe('append');
    expect(jwtPayload(completed.data.sessionToken).email).toBe(email);
    const me = await client.request('GET', '/v2/me');
    expect(me.body.identifiers).toEqual([{ id: expect.any(String), value: email, type: 'email', status: 'verified', primary: true }]);
    expect((await client.request('GET', '/v2/me/passkeys')).body.passkeys).toHaveLength(1);
  });

  it('without a passkey the account is created at once; "Verify later" completes with the address pending', async () => {
    const email = uniqueEmail('later');
    const { client, block: verify } = await signupInit(email, {});
    expect(verify.block).toBe('post-signup-email-verify');
    expect(await accountExists(email)).toBe(true);
    const completed = await client.step('/v2/auth/process/complete');
    expect(completed.block).toBe('completed');
    expect((await client.request('GET', '/v2/me')).body.identifiers[0].status).toBe('pending');

    // a log-in by code proves the address afterwards
    const login = new Client(server.url, 'pro-8');
    await login.init({}, 'login-init');
    expect((await login.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })).block).toBe('email-verify');
    expect((await finish(login, await latestCode(server.url, email))).block).toBe('completed');
    expect((await login.request('GET', '/v2/me')).body.identifiers[0].status).toBe('verified');
  });

  it('block/skip puts the verification off the same way', async () => {
    const email = uniqueEmail('skip');
    const { client } = await signupInit(email, {});
    expect((await client.step('/v2/auth/block/skip')).block).toBe('completed');
    expect((await client.request('GET', '/v2/me')).body.identifiers).toEqual([expect.objectContaining({ value: email, type: 'email', status: 'pending' })]);
  });

  it('an edited address replaces the account’s one, and the code goes there', async () => {
    const first = uniqueEmail('typo');
    const { client } = await signupInit(first, {});
    const corrected = uniqueEmail('corrected');
    const updated = await client.step('/v2/auth/identifier/update', { identifierType: 'email', value: corrected });
    expect(updated.block).toBe('post-signup-email-verify');
    expect(updated.data.identifier).toBe(corrected);
    expect(await accountExists(first)).toBe(false);
    expect(await accountExists(corrected)).toBe(true);
    await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
    const completed = await finish(client, await latestCode(server.url, corrected));
    expect(completed.block).toBe('completed');
    expect(jwtPayload(completed.data.sessionToken)).toMatchObject({ email: corrected, orig: corrected });
  });

  it('is refused for anything but a verified e-mail address', async () => {
    const res = await postProject(server.url, { identifiers: { phone: { verifyAt: 'after-signup' }, email: { verification: 'none', verifyAt: 'after-signup' } } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { validation: { field: string }[] } };
    expect(body.error.validation.map((v) => v.field)).toEqual(['identifiers.email.verifyAt', 'identifiers.phone.verifyAt']);
  });
});
