// One-time codes: wrong, expired, dead after five attempts, replaced by a resend, resend rate limit;
// identifier edits.
import { describe, expect, it } from 'vitest';
import { Client, latestCode, outbox, serverForThisFile, uniqueEmail, uniquePhone } from './helpers/testServer.ts';

const server = serverForThisFile();

async function onEmailVerify(projectId = 'pro-1'): Promise<{ client: Client; email: string }> {
  const client = new Client(server.url, projectId);
  await client.init({ isUserVerifyingPlatformAuthenticatorAvailable: false }, 'signup-init');
  const email = uniqueEmail('otp');
  const verify = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Otp Tester' });
  expect(verify.block).toBe('email-verify');
  return { client, email };
}

function finish(client: Client, code: string, type: 'email' | 'phone' = 'email') {
  return client.step('/v2/auth/identifier/verify/finish', {
    code,
    identifierType: type,
    verificationType: type === 'email' ? 'email-otp' : 'phone-otp',
    isNewDevice: false,
  });
}

function wrongCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

describe('one-time codes', () => {
  it('answers a wrong code with the verify block and an error, then accepts the right one', async () => {
    const { client, email } = await onEmailVerify();
    const code = await latestCode(server.url, email);
    const wrong = await finish(client, wrongCode(code));
    expect(wrong.block).toBe('email-verify');
    expect(wrong.data.error).toEqual({ code: 'invalid_challenge_solution_email-otp', message: expect.any(String) });
    expect((await finish(client, 'abc')).data.error.code).toBe('invalid_challenge_solution_email-otp');
    expect((await finish(client, code)).block).toBe('completed');
  });

  it('kills a code after five wrong attempts', async () => {
    const { client, email } = await onEmailVerify();
    const code = await latestCode(server.url, email);
    for (let i = 0; i < 5; i++) expect((await finish(client, wrongCode(code))).data.error).toBeDefined();
    const dead = await finish(client, code);
    expect(dead.block).toBe('email-verify');
    expect(dead.data.error.code).toBe('invalid_challenge_solution_email-otp');
    // a new code works again
    server.clock.advance(31_000);
    await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
    expect((await finish(client, await latestCode(server.url, email))).block).toBe('completed');
  });

  it('accepts four wrong attempts and then the right code', async () => {
    const { client, email } = await onEmailVerify();
    const code = await latestCode(server.url, email);
    for (let i = 0; i < 4; i++) await finish(client, wrongCode(code));
    expect((await finish(client, code)).block).toBe('completed');
  });

  it('expires a code after ten minutes', async () => {
    const { client, email } = await onEmailVerify();
    const code = await latestCode(server.url, email);
    server.clock.advance(10 * 60_000);
    const expired = await finish(client, code);
    expect(expired.data.error.code).toBe('invalid_challenge_solution_email-otp');
  });

  it('accepts a code just before it expires', async () => {
    const { client, email } = await onEmailVerify();
    const code = await latestCode(server.url, email);
    server.clock.advance(10 * 60_000 - 1000);
    expect((await finish(client, code)).block).toBe('completed');
  });

  it('refuses a resend before retryNotBefore, and a new code replaces the old one', async () => {
    const { client, email } = await onEmailVerify();
    const first = await latestCode(server.url, email);
    const early = await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
    expect(early.block).toBe('email-verify');
    expect(early.data.error.code).toBe('verification_retry_too_early');
    expect(await outbox(server.url, email)).toHaveLength(1);

    server.clock.advance(30_000);
    const resent = await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
    expect(resent.data.error).toBeUndefined();
    expect(resent.data.retryNotBefore).toBe(Math.floor(server.clock.now / 1000) + 30);
    const second = await latestCode(server.url, email);
    if (second !== first) expect((await finish(client, first)).data.error.code).toBe('invalid_challenge_solution_email-otp');
    expect((await finish(client, second)).block).toBe('completed');
  });

  it('rejects mismatched identifier and verification types with 400', async () => {
    const { client } = await onEmailVerify();
    const res = await client.request('POST', '/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'phone-otp' });
    expect(res.status).toBe(400);
    const res2 = await client.request('POST', '/v2/auth/identifier/verify/finish', {
      code: '123456',
      identifierType: 'username',
      verificationType: 'email-otp',
      isNewDevice: false,
    });
    expect(res2.status).toBe(400);
    const res3 = await client.request('POST', '/v2/auth/identifier/verify/finish', {
      code: '123456',
      identifierType: 'email',
      verificationType: 'email-otp',
      isNewDevice: 'no',
    });
    expect(res3.status).toBe(400);
  });

  it('refuses a verification method the project does not use', async () => {
    const { client } = await onEmailVerify();
    const res = await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-link' });
    expect(res.block).toBe('email-verify');
    expect(res.error.code).toBe('identifier_not_allowed');
  });

  it('rate-limits SMS codes the same way and names the phone method in errors', async () => {
    const client = new Client(server.url, 'pro-3');
    await client.init({}, 'signup-init');
    const phone = uniquePhone();
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: phone }] });
    const code = await latestCode(server.url, phone);
    expect((await finish(client, wrongCode(code), 'phone')).data.error.code).toBe('invalid_challenge_solution_phone-otp');
    const early = await client.step('/v2/auth/identifier/verify/start', { identifierType: 'phone', verificationType: 'phone-otp' });
    expect(early.data.error.code).toBe('verification_retry_too_early');
    expect((await finish(client, code, 'phone')).block).toBe('completed');
  });
});

describe('identifier/update', () => {
  it('changes the e-mail on the verify screen without sending; verify/start sends to the new one', async () => {
    const { client, email } = await onEmailVerify();
    const oldCode = await latestCode(server.url, email);
    const newEmail = uniqueEmail('changed');
    const updated = await client.step('/v2/auth/identifier/update', { identifierType: 'email', value: newEmail });
    expect(updated.block).toBe('email-verify');
    expect(updated.data.identifier).toBe(newEmail);
    expect(updated.error).toBeUndefined();
    expect(await outbox(server.url, newEmail)).toEqual([]);
    const sent = await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
    expect(sent.data.error).toBeUndefined();
    expect((await finish(client, oldCode)).data.error.code).toBe('invalid_challenge_solution_email-otp');
    const completed = await finish(client, await latestCode(server.url, newEmail));
    expect(completed.block).toBe('completed');
    expect(completed.data.shortSession).toBeDefined();
  });

  it('reports bad or taken values in blockBody.error and keeps the block', async () => {
    const taken = await onEmailVerify();
    await finish(taken.client, await latestCode(server.url, taken.email));
    const { client, email } = await onEmailVerify();
    const bad = await client.step('/v2/auth/identifier/update', { identifierType: 'email', value: 'nope' });
    expect(bad.block).toBe('email-verify');
    expect(bad.data.identifier).toBe(email);
    expect(bad.error.code).toBe('identifier_invalid_format');
    const dup = await client.step('/v2/auth/identifier/update', { identifierType: 'email', value: taken.email });
    expect(dup.error.code).toBe('identifier_already_in_use');
    expect((await client.request('POST', '/v2/auth/identifier/update', { identifierType: 'phone', value: uniquePhone() })).status).toBe(400);
    expect((await client.request('POST', '/v2/auth/identifier/update', { identifierType: 'email' })).status).toBe(400);
  });

  it('updates identifierValue on passkey-append', async () => {
    const client = new Client(server.url, 'pro-2');
    await client.init({ isUserVerifyingPlatformAuthenticatorAvailable: true }, 'signup-init');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail() }] });
    const newEmail = uniqueEmail('append');
    const updated = await client.step('/v2/auth/identifier/update', { identifierType: 'email', value: newEmail });
    expect(updated.block).toBe('passkey-append');
    expect(updated.data.identifierValue).toBe(newEmail);
    expect(updated.alternatives[0].data.identifier).toBe(newEmail);
  });
});
