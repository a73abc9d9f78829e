// A pro-1 user signed up by e-mail code with a passkey of a software authenticator (whose AAGUID the
// caller chooses): the registration the server verifies like any other.
import { expect } from 'vitest';
import type { SoftAuthenticator } from './softAuthenticator.ts';
import { Client, latestCode, PASSKEY_DEVICE, uniqueEmail } from './testServer.ts';

/** Signs up a new pro-1 user with a passkey on `authenticator`; the client holds the user's long session. */
export async function userWithPasskey(baseUrl: string, authenticator: SoftAuthenticator): Promise<{ email: string; client: Client }> {
  const client = new Client(baseUrl, 'pro-1');
  await client.init(PASSKEY_DEVICE, 'signup-init');
  const email = uniqueEmail('pk');
  await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Pat Passkey' });
  await client.step('/v2/auth/identifier/verify/finish', {
    code: await latestCode(baseUrl, email),
    identifierType: 'email',
    verificationType: 'email-otp',
    isNewDevice: false,
  });
  const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
  expect((await client.step('/v2/auth/passkey/append/finish', { signedChallenge: authenticator.create(started.data.challenge) })).block).toBe(
    'passkey-appended',
  );
  expect((await client.step('/v2/auth/block/skip')).block).toBe('completed');
  return { email, client };
}

/**
 * Signs a new user up by e-mail code (optionally with a passkey on `passkey`) in a project that asks for
 * an e-mail address; the client holds the user's long session.
 */
export async function signUpByEmailCode(
  baseUrl: string,
  projectId: string,
  options: { email?: string; passkey?: SoftAuthenticator; fullName?: string } = {},
): Promise<{ client: Client; email: string }> {
  const email = options.email ?? uniqueEmail('user');
  const client = new Client(baseUrl, projectId);
  await client.init(options.passkey ? PASSKEY_DEVICE : {}, 'signup-init');
  await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: options.fullName ?? 'Ann Account' });
  let block = await client.step('/v2/auth/identifier/verify/finish', {
    code: await latestCode(baseUrl, email),
    identifierType: 'email',
    verificationType: 'email-otp',
  });
  if (options.passkey) {
    const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    await client.step('/v2/auth/passkey/append/finish', { signedChallenge: options.passkey.create(started.data.challenge) });
    block = await client.step('/v2/auth/block/skip');
  }
  expect(block.block).toBe('completed');
  return { client, email };
}
