/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// passkey-append, variant after-hybrid (pro-9: passkeyAppendAfterHybrid): after a log-in with a passkey
// from another device (a phone over hybrid), the passkey for this device is offered, and may be skipped.
import { describe, expect, it } from 'vitest';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { Client, latestCode, serverForThisFile, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile();

const DEVICE = { isUserVerifyingPlatformAuthenticatorAvailable: true };
const phone = () => new SoftAuthenticator(undefined, undefined, { attachment: 'cross-platform', transports: ['hybrid'] });

/** A user whose only passkey is on `authenticator` (registered during sign-up). */
async function userWith(projectId: string, authenticator: SoftAuthenticator): Promise<string> {
  const email = uniqueEmail('hybrid');
  const client = new Client(server.url, projectId);
  await client.init(DEVICE, 'signup-init');
  await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], ...(projectId === 'pro-1' ? { fullName: 'Hy Brid' } : {}) });
  await client.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email), identifierType: 'email', verificationType: 'email-otp' });
  const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
  await client.step('/v2/auth/passkey/append/finish', { signedChallenge: authenticator.create(started.data.challenge) });
  expect((await client.step('/v2/auth/block/skip')).block).toBe('completed');
  return email;
}

/** Logs in with the passkey on `authenticator`; answers the block after login/finish. */
async function passkeyLogin(projectId: string, email: string, authenticator: SoftAuthenticator, init: Record<string, unknown> = {}) {
  const client = new Client(server.url, projectId);
  await client.request('POST', '/v2/auth/process/init', { clientInformation: DEVICE, ...init }).then((res) => (client.processToken = res.body.token));
  await client.step('/v2/auth/login/init', { identifierValue: email, isPhone: false });
  const started = await client.step('/v2/auth/passkey/login/start', {});
  return { client, block: await client.step('/v2/auth/passkey/login/finish', { signedChallenge: authenticator.get(started.data.challenge) }) };
}

describe('pro-9: a passkey for this device after a log-in with a phone', () => {
  it('offers passkey-append (after-hybrid) and creates a passkey of this device', async () => {
    const onPhone = phone();
    const email = await userWith('pro-9', onPhone);
    const { client, block } = await passkeyLogin('pro-9', email, onPhone);
    expect(block.block).toBe('passkey-append');
    expect(block.authType).toBe('login');
    expect(block.data).toMatchObject({ variant: 'after-hybrid', identifierValue: email, identifierType: 'email' });
    expect(block.alternatives.map((a: any) => a.block)).toEqual(['completed']);

    const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    const excluded = JSON.parse(started.data.challenge).publicKey.excludeCredentials;
    expect(excluded).toHaveLength(1); // the phone's passkey
    const completed = await client.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(started.data.challenge) });
    expect(completed.block).toBe('completed');
    expect(completed.data.passkeyOperation).toMatchObject({ operationType: 'append', ceremonyType: 'local' });
    const passkeys = (await client.request('GET', '/v2/me/passkeys')).body.passkeys;
    expect(passkeys).toHaveLength(2);
  });

  it('"Maybe later" completes the log-in, named a cross-device one', async () => {
    const onPhone = phone();
    const email = await userWith('pro-9', onPhone);
    const { client } = await passkeyLogin('pro-9', email, onPhone);
    const completed = await client.step('/v2/auth/process/complete');
    expect(completed.block).toBe('completed');
    expect(completed.data.passkeyOperation).toEqual({ operationType: 'verify', identifierValue: email, identifierType: 'email', ceremonyType: 'cda' });
    expect((await client.request('GET', '/v2/me/passkeys')).body.passkeys).toHaveLength(1);
  });

  it('is not offered to a client that opted out, nor after a local passkey or a security key, nor where the project does not ask', async () => {
    const onPhone = phone();
    const email = await userWith('pro-9', onPhone);
    const optedOut = await passkeyLogin('pro-9', email, onPhone, { optOutOfPasskeyAppendAfterHybrid: true });
    expect(optedOut.block.block).toBe('completed');
    expect(optedOut.block.data.passkeyOperation.ceremonyType).toBe('cda');

    const local = new SoftAuthenticator();
    const localEmail = await userWith('pro-9', local);
    expect((await passkeyLogin('pro-9', localEmail, local)).block.data.passkeyOperation.ceremonyType).toBe('local');

    const key = new SoftAuthenticator(undefined, undefined, { attachment: 'cross-platform', transports: ['usb'] });
    const keyEmail = await userWith('pro-9', key);
    const withKey = (await passkeyLogin('pro-9', keyEmail, key)).block;
    expect(withKey.block).toBe('completed');
    expect(withKey.data.passkeyOperation.ceremonyType).toBe('security-key');

    const elsewhere = phone();
    const pro1Email = await userWith('pro-1', elsewhere);
    const pro1 = (await passkeyLogin('pro-1', pro1Email, elsewhere)).block;
    expect(pro1.block).toBe('completed');
    expect(pro1.data.passkeyOperation.ceremonyType).toBe('cda');
  });
});
