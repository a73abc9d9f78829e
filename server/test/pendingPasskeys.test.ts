/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// A passkey created while the account's e-mail address is still unverified after sign-up (pro-8,
// "Verify later") is pending: listed as such, good for passkey-verify, refused by conditional UI with
// conditionalUiUnconfirmedCredential until an e-mail log-in (or the account's verification of the
// address) confirms the account. An e-mail log-in confirms it only if the same process presented it;
// otherwise the log-in takes the account over and removes it (issue 13, pre-hijacking).
import { describe, expect, it } from 'vitest';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { Client, latestCode, PASSKEY_DEVICE, serverForThisFile, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile();

/** pro-8 sign-up with a passkey on `authenticator`; the address is verified now or put off ("Verify later"). */
async function signUpWithPasskey(authenticator: SoftAuthenticator, verify: 'now' | 'later'): Promise<{ client: Client; email: string }> {
  const client = new Client(server.url, 'pro-8');
  await client.init(PASSKEY_DEVICE, 'signup-init');
  const email = uniqueEmail('pending');
  expect((await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] })).block).toBe('passkey-append');
  const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
  await client.step('/v2/auth/passkey/append/finish', { signedChallenge: authenticator.create(started.data.challenge) });
  expect((await client.step('/v2/auth/block/skip')).block).toBe('post-signup-email-verify');
  const completed =
    verify === 'now'
      ? await client.step('/v2/auth/identifier/verify/finish', {
          code: await latestCode(server.url, email),
          identifierType: 'email',
          verificationType: 'email-otp',
        })
      : await client.step('/v2/auth/process/complete');
  expect(completed.block).toBe('completed');
  return { client, email };
}

/** A conditional-UI log-in on a fresh login-init with the passkey on `authenticator`. */
async function mediation(authenticator: SoftAuthenticator): Promise<{ client: Client; block: any; challenge: string }> {
  const client = new Client(server.url, 'pro-8');
  const init = await client.init(PASSKEY_DEVICE);
  const challenge = init.body.processResponse.blockBody.data.conditionalUIChallenge;
  return { client, challenge, block: await client.step('/v2/auth/passkey/mediation/finish', { signedChallenge: authenticator.get(challenge) }) };
}

async function passkeyStatuses(client: Client): Promise<string[]> {
  return (await client.request('GET', '/v2/me/passkeys')).body.passkeys.map((p: any) => p.status);
}

describe('a passkey of an account whose e-mail address is not confirmed', () => {
  it('[spec 4.passkey-unconfirmed] is listed as pending and refused by conditional UI on login-init, with a fresh challenge', async () => {
    const authenticator = new SoftAuthenticator();
    const { client } = await signUpWithPasskey(authenticator, 'later');
    expect(await passkeyStatuses(client)).toEqual(['pending']);

    const { client: tab, block, challenge } = await mediation(authenticator);
    expect(block.block).toBe('login-init');
    expect(block.data.fieldError).toEqual({ code: 'conditionalUiUnconfirmedCredential', message: expect.stringContaining('not confirmed') });
    expect(block.data.conditionalUIChallenge).toEqual(expect.any(String));
    expect(block.data.conditionalUIChallenge).not.toBe(challenge);
    expect(tab.longSession).toBeUndefined();
  });

  it('logs in on passkey-verify, and stays pending', async () => {
    const authenticator = new SoftAuthenticator();
    const { email } = await signUpWithPasskey(authenticator, 'later');
    const client = new Client(server.url, 'pro-8');
    await client.init(PASSKEY_DEVICE, 'login-init');
    expect((await client.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })).block).toBe('passkey-verify');
    const started = await client.step('/v2/auth/passkey/login/start', {});
    const completed = await client.step('/v2/auth/passkey/login/finish', { signedChallenge: authenticator.get(started.data.challenge) });
    expect(completed.block).toBe('completed');
    expect(completed.data.passkeyOperation).toMatchObject({ operationType: 'verify', identifierValue: email });
    expect(await passkeyStatuses(client)).toEqual(['pending']);
    expect((await mediation(authenticator)).block.data.fieldError.code).toBe('conditionalUiUnconfirmedCredential');
  });

  it('is removed by a log-in by e-mail code that did not present it (the address may not be its maker\'s)', async () => {
    const authenticator = new SoftAuthenticator();
    const { email } = await signUpWithPasskey(authenticator, 'later');
    const client = new Client(server.url, 'pro-8');
    await client.init(PASSKEY_DEVICE, 'login-init');
    const verify = await client.step('/v2/auth/login/init', { identifierValue: email, isPhone: false });
    expect(verify.alternatives.map((a: any) => a.block)).toEqual(['email-verify']);
    expect((await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' })).block).toBe('email-verify');
    const completed = await client.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
    });
    expect(completed.block).toBe('completed');
    expect((await client.request('GET', '/v2/me')).body.identifiers[0].status).toBe('verified');
    expect(await passkeyStatuses(client)).toEqual([]);
    expect((await mediation(authenticator)).block.data.fieldError.code).toBe('invalid_conditional_ui_login');
  });

  it('[spec 4.passkey-unconfirmed] becomes active when the autofill presented it and the e-mail log-in follows in the same process; conditional UI then logs in', async () => {
    const authenticator = new SoftAuthenticator();
    const { email } = await signUpWithPasskey(authenticator, 'later');
    // refused by the autofill ("log in once by e-mail to confirm it"), then that log-in in the same tab
    const { client, block: refused } = await mediation(authenticator);
    expect(refused.data.fieldError.code).toBe('conditionalUiUnconfirmedCredential');
    expect((await client.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })).block).toBe('passkey-verify');
    expect((await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' })).block).toBe('email-verify');
    const completed = await client.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
    });
    expect(completed.block).toBe('completed');
    expect(await passkeyStatuses(client)).toEqual(['active']);
    const { block } = await mediation(authenticator);
    expect(block.block).toBe('completed');
    expect(block.data.passkeyOperation).toMatchObject({ operationType: 'verify', identifierValue: email });
  });

  it('becomes active, with one added in the account meanwhile, when the account verifies the address', async () => {
    const first = new SoftAuthenticator();
    const { client, email } = await signUpWithPasskey(first, 'later');
    const second = new SoftAuthenticator();
    const started = await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable: true } });
    const finished = await client.request('POST', '/v2/me/passkeys/append/finish', { attestationResponse: second.create(started.body.attestationOptions) });
    expect(finished.status).toBe(200);
    expect(await passkeyStatuses(client)).toEqual(['pending', 'pending']);
    expect((await mediation(second)).block.data.fieldError.code).toBe('conditionalUiUnconfirmedCredential');

    const [identifier] = (await client.request('GET', '/v2/me')).body.identifiers;
    expect((await client.request('POST', '/v2/me/identifier/verify/start', { identifierID: identifier.id })).status).toBe(200);
    const verified = await client.request('POST', '/v2/me/identifier/verify/finish', { identifierID: identifier.id, code: await latestCode(server.url, email) });
    expect(verified.status).toBe(200);
    expect(await passkeyStatuses(client)).toEqual(['active', 'active']);
    expect((await mediation(first)).block.block).toBe('completed');
    expect((await mediation(second)).block.block).toBe('completed');
  });

  it('is active at once when the address is verified right after sign-up', async () => {
    const authenticator = new SoftAuthenticator();
    const { client } = await signUpWithPasskey(authenticator, 'now');
    expect(await passkeyStatuses(client)).toEqual(['active']);
    expect((await mediation(authenticator)).block.block).toBe('completed');
  });
});
