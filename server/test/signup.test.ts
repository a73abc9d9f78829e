/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Every sign-up path of the seed projects pro-1 … pro-7, block by block.
import { describe, expect, it } from 'vitest';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import {
  Client,
  createProject,
  jwtPayload,
  latestCode,
  latestLink,
  outbox,
  PASSKEY_DEVICE, serverForThisFile,
  uniqueEmail,
  uniquePhone,
  uniqueUsername,
} from './helpers/testServer.ts';

const server = serverForThisFile();

const WITHOUT_PASSKEYS = { isUserVerifyingPlatformAuthenticatorAvailable: false, isConditionalMediationAvailable: false };

async function signupClient(projectId: string, passkeys: boolean): Promise<Client> {
  const client = new Client(server.url, projectId);
  const res = await client.init(passkeys ? PASSKEY_DEVICE : WITHOUT_PASSKEYS, 'signup-init');
  expect(res.body.processResponse.blockBody.block).toBe('signup-init');
  return client;
}

async function appendPasskey(client: Client, authenticator = new SoftAuthenticator()): Promise<any> {
  const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
  expect(started.block).toBe('passkey-append');
  return client.step('/v2/auth/passkey/append/finish', { signedChallenge: authenticator.create(started.data.challenge) });
}

async function finishOtp(client: Client, type: 'email' | 'phone', to: string): Promise<any> {
  return client.step('/v2/auth/identifier/verify/finish', {
    code: await latestCode(server.url, to),
    identifierType: type,
    verificationType: type === 'email' ? 'email-otp' : 'phone-otp',
    isNewDevice: false,
  });
}

async function me(client: Client): Promise<any> {
  const res = await client.request('GET', '/v2/me');
  expect(res.status).toBe(200);
  return res.body;
}

describe('pro-1: e-mail code, full name, passkey after verification', () => {
  it('signup-init -> email-verify -> passkey-append -> passkey-appended -> completed', async () => {
    const client = await signupClient('pro-1', true);
    const email = uniqueEmail('ada');
    const verify = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Ada Lovelace' });
    expect(verify.block).toBe('email-verify');
    expect(verify.authType).toBe('signup');
    expect(verify.data).toEqual({
      blockType: 'email-verify',
      verificationMethod: 'email-otp',
      identifier: email,
      retryNotBefore: Math.floor(server.clock.now / 1000) + 30,
      alternativeVerificationMethods: [],
      isPostLoginVerification: false,
    });
    const [mail] = await outbox(server.url, email);
    expect(mail!.code).toMatch(/^\d{6}$/);
    expect(mail!.subject).toBe(`Your Demo App code: ${mail!.code}`);
    expect(mail!.text).toContain(mail!.code);

    const append = await finishOtp(client, 'email', email);
    expect(append.block).toBe('passkey-append');
    expect(append.data).toMatchObject({ identifierValue: email, identifierType: 'email', variant: 'default', challenge: '' });
    expect(append.alternatives.map((a: any) => a.block)).toEqual(['completed']);

    const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    const options = JSON.parse(started.data.challenge).publicKey;
    expect(options.user).toMatchObject({ name: email, displayName: 'Ada Lovelace' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.attestation).toBe('none');
    expect(options.rp.id).toBe('localhost');
    const appended = await client.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(started.data.challenge) });
    expect(appended.block).toBe('passkey-appended');

    const completed = await client.step('/v2/auth/block/skip');
    expect(completed.block).toBe('completed');
    expect(completed.data.passkeyOperation).toEqual({ operationType: 'append', identifierValue: email, identifierType: 'email', ceremonyType: 'local' });
    expect(completed.data.longSession).toEqual(expect.any(String));
    const claims = jwtPayload(completed.data.shortSession);
    expect(claims).toMatchObject({
      sub: expect.stringMatching(/^usr-\d+$/),
      email,
      email_verified: true,
      name: 'Ada Lovelace',
      orig: email,
      iss: server.url,
      aud: 'pro-1',
    });
    expect(claims.exp - claims.iat).toBe(300);

    const user = await me(client);
    expect(user).toMatchObject({ id: claims.sub, fullName: 'Ada Lovelace', identifiers: [{ type: 'email', value: email, status: 'verified' }] });
    const passkeys = (await client.request('GET', '/v2/me/passkeys')).body.passkeys;
    expect(passkeys).toHaveLength(1);
    expect(passkeys[0]).toMatchObject({ aaguidDetails: { name: 'Google Password Manager' }, sourceBrowser: 'Chrome 131', sourceOS: 'macOS' });
  });

  it('"Maybe later" (process/complete) completes without a passkey', async () => {
    const client = await signupClient('pro-1', true);
    const email = uniqueEmail();
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Later Person' });
    expect((await finishOtp(client, 'email', email)).block).toBe('passkey-append');
    const completed = await client.step('/v2/auth/process/complete');
    expect(completed.block).toBe('completed');
    expect(completed.data.passkeyOperation).toBeUndefined();
    expect((await client.request('GET', '/v2/me/passkeys')).body.passkeys).toEqual([]);
  });

  it('goes straight from the code to completed without a platform authenticator', async () => {
    const client = await signupClient('pro-1', false);
    const email = uniqueEmail();
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'No Passkey' });
    const completed = await finishOtp(client, 'email', email);
    expect(completed.block).toBe('completed');
    expect(completed.data.passkeyOperation).toBeUndefined();
  });

  it('sets the HttpOnly long-session cookie on completion', async () => {
    const client = await signupClient('pro-1', false);
    const email = uniqueEmail();
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Cookie Monster' });
    const res = await client.request('POST', '/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
      isNewDevice: false,
    });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`cbo_long_session=${res.body.blockBody.data.longSession}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    // the cookie alone authenticates /v2/me
    const cookieOnly = new Client(server.url, 'pro-1');
    const meRes = await cookieOnly.request('GET', '/v2/me', undefined, { Cookie: cookie.split(';')[0]! });
    expect(meRes.status).toBe(200);
  });

  it('answers signup-init with field errors, keeping the values', async () => {
    const client = await signupClient('pro-1', true);
    const missing = await client.step('/v2/auth/signup/init', { identifiers: [] });
    expect(missing.block).toBe('signup-init');
    expect(missing.data.identifiers[0]).toMatchObject({ type: 'email', identifier: '', error: { code: 'missing_identifier_type' } });
    expect(missing.data.fullName.error.code).toBe('missing_full_name');

    const bad = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: 'not-an-email' }], fullName: 'Ok Name' });
    expect(bad.data.identifiers[0]).toMatchObject({ identifier: 'not-an-email', error: { code: 'identifier_invalid_format', message: expect.any(String) } });
    expect(bad.data.fullName).toEqual({ fullName: 'Ok Name' });

    const long = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail() }], fullName: 'x'.repeat(101) });
    expect(long.data.fullName.error.code).toBe('missing_full_name');

    const tooLongEmail = `${'a'.repeat(250)}@example.com`;
    const longEmail = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: tooLongEmail }], fullName: 'A' });
    expect(longEmail.data.identifiers[0].error.code).toBe('identifier_invalid_format');
  });

  it('refuses an e-mail address that is already taken (case-insensitively)', async () => {
    const first = await signupClient('pro-1', false);
    const email = uniqueEmail('Taken');
    await first.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'First' });
    expect((await finishOtp(first, 'email', email)).block).toBe('completed');
    const second = await signupClient('pro-1', false);
    const taken = await second.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email.toUpperCase() }], fullName: 'Second' });
    expect(taken.block).toBe('signup-init');
    expect(taken.data.identifiers[0].error.code).toBe('identifier_already_in_use');
  });

  it('rejects identifier types the project does not collect at sign-up with 400', async () => {
    const client = await signupClient('pro-1', false);
    const res = await client.request('POST', '/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: uniquePhone() }] });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('invalid_request');
    expect(res.body.error.validation[0].field).toBe('identifiers[0].type');
  });

  it('answers every call after delivery with process-already-completed', async () => {
    const client = await signupClient('pro-1', false);
    const email = uniqueEmail();
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Done' });
    expect((await finishOtp(client, 'email', email)).block).toBe('completed');
    for (const body of [
      await client.getStep('/v2/auth/process'),
      await client.getStep('/v2/auth/identifier/verify/status'),
      await client.step('/v2/auth/process/complete'),
      await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Again' }),
    ]) {
      expect(body.continueOnOtherDevice).toEqual({ reason: 'process-already-completed' });
    }
  });

  it('no longer offers a completed process once the session it handed out has ended: a tab that kept it starts afresh', async () => {
    const client = await signupClient('pro-1', false);
    const email = uniqueEmail('ended');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Ended' });
    expect((await finishOtp(client, 'email', email)).block).toBe('completed');
    expect((await client.getStep('/v2/auth/process')).continueOnOtherDevice).toEqual({ reason: 'process-already-completed' });
    expect((await client.request('POST', '/v2/me/logout')).status).toBe(204);
    for (const res of [await client.request('GET', '/v2/auth/process'), await client.request('GET', '/v2/auth/identifier/verify/status')]) {
      expect(res.status).toBe(404);
      expect(res.body.error.type).toBe('process_not_available');
    }
  });
});

describe('pro-2: e-mail link, passkey before verification', () => {
  it('signup-init -> passkey-append (fallback email-verify) -> email-verify (link) -> completed', async () => {
    const client = await signupClient('pro-2', true);
    const email = uniqueEmail('link');
    const append = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    expect(append.block).toBe('passkey-append');
    expect(append.alternatives.map((a: any) => [a.block, a.data.verificationMethod])).toEqual([['email-verify', 'email-link']]);
    expect(await outbox(server.url, email)).toEqual([]); // nothing sent before the verify block

    const verify = await appendPasskey(client);
    expect(verify.block).toBe('email-verify');
    expect(verify.data.verificationMethod).toBe('email-link');
    const link = await latestLink(server.url, email);
    expect(link.origin + link.pathname).toBe('http://localhost:5173/');

    const waiting = await client.getStep('/v2/auth/identifier/verify/status');
    expect(waiting.block).toBe('email-verify');
    expect(waiting.continueOnOtherDevice).toBeUndefined();

    const payload = JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString('latin1'));
    // the process by its id, never its token: the link does not let its holder act as this tab
    expect(payload).toEqual({
      process: { id: expect.stringMatching(/^pro-\d{19}$/), tempId: payload.process.id, projectId: 'pro-2', expires: expect.any(Number), frontendApiUrl: server.url },
      blockData: { identifier: email, retryNotBefore: expect.any(Number), verificationMethod: 'email-link', isPostLoginVerification: false },
      authType: 1,
    });
    expect(link.toString()).not.toMatch(/corbadoEmailLinkID=[^&]*[+/=]/); // percent-encoded

    const completed = await client.step('/v2/auth/identifier/verify/finish', {
      code: link.searchParams.get('corbadoToken'),
      identifierType: 'email',
      verificationType: 'email-link',
      isNewDevice: false,
    });
    expect(completed.block).toBe('completed');
    expect(completed.data.passkeyOperation.operationType).toBe('append');
  });

  it('a link opened on another device verifies there once the person approves, and completes in the original tab', async () => {
    const original = await signupClient('pro-2', false);
    const email = uniqueEmail('other');
    const verify = await original.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    expect(verify.block).toBe('email-verify');
    const link = await latestLink(server.url, email);
    const payload = JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString());

    const otherDevice = new Client(server.url, 'pro-2');
    const body = { process: payload.process.id, token: link.searchParams.get('corbadoToken') };
    expect((await otherDevice.request('POST', '/v2/auth/email-link/open', body)).body.linkRequest.authType).toBe('signup');
    expect((await original.getStep('/v2/auth/identifier/verify/status')).block).toBe('email-verify');
    const there = await otherDevice.step('/v2/auth/email-link/approve', body);
    expect(there.block).toBe('email-verify');
    expect(there.continueOnOtherDevice).toEqual({ reason: 'email-link-verified' });
    expect(there.data.shortSession).toBeUndefined();

    const here = await original.getStep('/v2/auth/identifier/verify/status');
    expect(here.block).toBe('completed');
    expect(here.data.shortSession).toEqual(expect.any(String));
    expect((await original.getStep('/v2/auth/identifier/verify/status')).continueOnOtherDevice).toEqual({ reason: 'process-already-completed' });
    expect((await otherDevice.step('/v2/auth/email-link/approve', body)).data.error.code).toBe('invalid_challenge_solution_email-link');
  });

  it('refuses a reused link before the process is delivered, and an expired one', async () => {
    const client = await signupClient('pro-2', false);
    const email = uniqueEmail('reuse');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    const link = await latestLink(server.url, email);
    const body = { code: link.searchParams.get('corbadoToken'), identifierType: 'email', verificationType: 'email-link', isNewDevice: true };
    expect((await client.step('/v2/auth/identifier/verify/finish', body)).continueOnOtherDevice.reason).toBe('email-link-verified');
    const reused = await client.step('/v2/auth/identifier/verify/finish', body);
    expect(reused.block).toBe('email-verify');
    expect(reused.continueOnOtherDevice).toBeUndefined();
    expect(reused.data.error.code).toBe('invalid_challenge_solution_email-link');

    const late = await signupClient('pro-2', false);
    const lateEmail = uniqueEmail('late');
    await late.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: lateEmail }] });
    const lateLink = await latestLink(server.url, lateEmail);
    server.clock.advance(10 * 60_000 + 1);
    const expired = await late.step('/v2/auth/identifier/verify/finish', {
      code: lateLink.searchParams.get('corbadoToken'),
      identifierType: 'email',
      verificationType: 'email-link',
      isNewDevice: false,
    });
    expect(expired.data.error.code).toBe('invalid_challenge_solution_email-link');
    const unknown = await late.step('/v2/auth/identifier/verify/finish', {
      code: 'made-up',
      identifierType: 'email',
      verificationType: 'email-link',
      isNewDevice: false,
    });
    expect(unknown.data.error.code).toBe('invalid_challenge_solution_email-link');
  });

  it('taking the fallback on passkey-append declines the passkey', async () => {
    const client = await signupClient('pro-2', true);
    const email = uniqueEmail('fallback');
    expect((await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] })).block).toBe('passkey-append');
    const verify = await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-link' });
    expect(verify.block).toBe('email-verify');
    const link = await latestLink(server.url, email);
    const completed = await client.step('/v2/auth/identifier/verify/finish', {
      code: link.searchParams.get('corbadoToken'),
      identifierType: 'email',
      verificationType: 'email-link',
      isNewDevice: false,
    });
    expect(completed.block).toBe('completed');
    expect(completed.data.passkeyOperation).toBeUndefined();
  });

  it('passkey-append before verification cannot be skipped with block/skip', async () => {
    const client = await signupClient('pro-2', true);
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail() }] });
    const skipped = await client.step('/v2/auth/block/skip');
    expect(skipped.block).toBe('passkey-append');
    expect(skipped.error.code).toBe('unexpected_step');
  });
});

describe('pro-3: phone code, passkey before verification', () => {
  it('signup-init -> passkey-append (fallback phone-verify) -> phone-verify -> completed', async () => {
    const client = await signupClient('pro-3', true);
    const phone = uniquePhone();
    const append = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: phone }] });
    expect(append.block).toBe('passkey-append');
    expect(append.data).toMatchObject({ identifierType: 'phone', identifierValue: phone });
    expect(append.alternatives.map((a: any) => [a.block, a.data.verificationMethod])).toEqual([['phone-verify', 'phone-otp']]);
    const verify = await appendPasskey(client);
    expect(verify.block).toBe('phone-verify');
    expect(verify.data).toMatchObject({ verificationMethod: 'phone-otp', identifier: phone });
    const [sms] = await outbox(server.url, phone);
    expect(sms).toMatchObject({ channel: 'sms', to: phone });
    expect(sms!.text).toContain(sms!.code);
    const completed = await finishOtp(client, 'phone', phone);
    expect(completed.block).toBe('completed');
    expect(jwtPayload(completed.data.shortSession)).toMatchObject({ phone_number: phone, orig: phone });
  });

  it('rejects invalid phone numbers in-band', async () => {
    const client = await signupClient('pro-3', true);
    for (const value of ['12345', '+1', '+4915', 'phone']) {
      const bad = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: value }] });
      expect(bad.data.identifiers[0].error.code, value).toBe('identifier_invalid_format');
    }
  });

  it('stores phone numbers in E.164', async () => {
    const client = await signupClient('pro-3', false);
    const verify = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: '+49 151 2345 6789' }] });
    expect(verify.data.identifier).toBe('+4915123456789');
  });
});

describe('pro-4: username and e-mail', () => {
  it('signup-init -> passkey-append -> email-verify -> completed', async () => {
    const client = await signupClient('pro-4', true);
    const email = uniqueEmail();
    const username = uniqueUsername('jdoe');
    const append = await client.step('/v2/auth/signup/init', {
      identifiers: [
        { type: 'username', identifier: username },
        { type: 'email', identifier: email },
      ],
    });
    expect(append.block).toBe('passkey-append');
    expect(append.alternatives.map((a: any) => a.block)).toEqual(['email-verify']);
    expect((await appendPasskey(client)).block).toBe('email-verify');
    const completed = await finishOtp(client, 'email', email);
    expect(completed.block).toBe('completed');
    const user = await me(client);
    expect(user.identifiers).toEqual([
      { id: expect.any(String), type: 'email', value: email, status: 'verified', primary: true },
      { id: expect.any(String), type: 'username', value: username, status: 'verified', primary: true },
    ]);
  });

  it('validates usernames', async () => {
    const client = await signupClient('pro-4', false);
    const email = uniqueEmail();
    for (const username of ['abc', 'has space', 'x'.repeat(33), 'ümlaut']) {
      const bad = await client.step('/v2/auth/signup/init', {
        identifiers: [
          { type: 'email', identifier: email },
          { type: 'username', identifier: username },
        ],
      });
      const entry = bad.data.identifiers.find((i: any) => i.type === 'username');
      expect(entry.error.code, username).toBe('identifier_invalid_format');
    }
    const missing = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    expect(missing.data.identifiers.find((i: any) => i.type === 'username').error.code).toBe('missing_identifier_type');
  });
});

describe('pro-5: no public sign-up', () => {
  it('[spec 6.signup-config] never offers sign-up and refuses signup/init', async () => {
    const client = new Client(server.url, 'pro-5');
    const init = await client.init(PASSKEY_DEVICE, 'signup-init');
    expect(init.body.processResponse.blockBody.block).toBe('login-init');
    expect((await client.getStep('/v2/auth/process?preferredBlock=signup-init')).block).toBe('login-init');
    const res = await client.request('POST', '/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail() }], fullName: 'X' });
    expect(res.status).toBe(400);
  });
});

describe('pro-6: e-mail and phone codes', () => {
  it('verifies the e-mail, then the phone, then offers a passkey', async () => {
    const client = await signupClient('pro-6', true);
    const email = uniqueEmail();
    const phone = uniquePhone();
    const first = await client.step('/v2/auth/signup/init', {
      identifiers: [
        { type: 'email', identifier: email },
        { type: 'phone', identifier: phone },
      ],
    });
    expect(first.block).toBe('email-verify');
    expect(await outbox(server.url, phone)).toEqual([]);
    const second = await finishOtp(client, 'email', email);
    expect(second.block).toBe('phone-verify');
    const append = await finishOtp(client, 'phone', phone);
    expect(append.block).toBe('passkey-append');
    expect(append.alternatives.map((a: any) => a.block)).toEqual(['completed']);
    const completed = await client.step('/v2/auth/block/skip');
    expect(completed.block).toBe('completed');
    const claims = jwtPayload(completed.data.shortSession);
    expect(claims).toMatchObject({ email, phone_number: phone });
    expect((await me(client)).identifiers.map((i: any) => i.status)).toEqual(['verified', 'verified']);
  });

  it('requires both identifiers', async () => {
    const client = await signupClient('pro-6', false);
    const res = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail() }] });
    expect(res.data.identifiers.map((i: any) => i.error?.code)).toEqual([undefined, 'missing_identifier_type']);
  });
});

describe('pro-7: missing fields collected after sign-up', () => {
  it('email-verify -> username-collect -> phone-collect -> passkey-append -> completed', async () => {
    const client = await signupClient('pro-7', true);
    const email = uniqueEmail();
    const init = (await client.getStep('/v2/auth/process')).data.identifiers;
    expect(init).toEqual([{ type: 'email', identifier: '' }]);
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    const usernameCollect = await finishOtp(client, 'email', email);
    expect(usernameCollect).toMatchObject({ block: 'username-collect', data: { blockType: 'username-collect', value: '' } });

    const badUsername = await client.step('/v2/auth/username/collect', { username: 'no' });
    expect(badUsername).toMatchObject({ block: 'username-collect', data: { value: 'no', error: { code: 'identifier_invalid_format' } } });
    const username = uniqueUsername('coll');
    const phoneCollect = await client.step('/v2/auth/username/collect', { username });
    expect(phoneCollect).toMatchObject({ block: 'phone-collect', data: { value: '' } });

    const badPhone = await client.step('/v2/auth/phone/collect', { phone: '+1' });
    expect(badPhone).toMatchObject({ block: 'phone-collect', data: { value: '+1', error: { code: 'identifier_invalid_format' } } });
    const emptyPhone = await client.step('/v2/auth/phone/collect', { phone: '' });
    expect(emptyPhone.data.error.code).toBe('missing_identifier_type');
    const phone = uniquePhone();
    const append = await client.step('/v2/auth/phone/collect', { phone });
    expect(append.block).toBe('passkey-append');
    const completed = await client.step('/v2/auth/process/complete');
    expect(completed.block).toBe('completed');
    const user = await me(client);
    expect(user.identifiers.map((i: any) => [i.type, i.value, i.status])).toEqual([
      ['email', email, 'verified'],
      ['phone', phone, 'pending'],
      ['username', username, 'verified'],
    ]);
  });

  it('refuses a collected username that is taken', async () => {
    const first = await signupClient('pro-7', false);
    const email = uniqueEmail();
    const username = uniqueUsername('dup');
    await first.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    await finishOtp(first, 'email', email);
    await first.step('/v2/auth/username/collect', { username });
    expect((await first.step('/v2/auth/phone/collect', { phone: uniquePhone() })).block).toBe('completed');

    const second = await signupClient('pro-7', false);
    const email2 = uniqueEmail();
    await second.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email2 }] });
    await finishOtp(second, 'email', email2);
    const taken = await second.step('/v2/auth/username/collect', { username: username.toUpperCase() });
    expect(taken.data.error.code).toBe('identifier_already_in_use');
  });

  it('rejects a collect call on the wrong block and wrong body types', async () => {
    const client = await signupClient('pro-7', false);
    const wrongBlock = await client.step('/v2/auth/username/collect', { username: 'someone' });
    expect(wrongBlock.block).toBe('signup-init');
    expect(wrongBlock.error.code).toBe('unexpected_step');
    expect((await client.request('POST', '/v2/auth/phone/collect', { phone: 4915 })).status).toBe(400);
    expect((await client.request('POST', '/v2/auth/username/collect', {})).status).toBe(400);
  });
});

describe('projects without a verification', () => {
  it('username only: passkey required, no_fallback_available without a platform authenticator', async () => {
    const id = await createProject(server.url, { identifiers: { username: {} }, passkeyAppend: 'after-verification' });
    const noPasskey = new Client(server.url, id);
    await noPasskey.init(WITHOUT_PASSKEYS, 'signup-init');
    const refused = await noPasskey.step('/v2/auth/signup/init', { identifiers: [{ type: 'username', identifier: uniqueUsername() }] });
    expect(refused.block).toBe('signup-init');
    expect(refused.data.error.code).toBe('no_fallback_available');

    const withPasskey = new Client(server.url, id);
    await withPasskey.init(PASSKEY_DEVICE, 'signup-init');
    const append = await withPasskey.step('/v2/auth/signup/init', { identifiers: [{ type: 'username', identifier: uniqueUsername() }] });
    expect(append.block).toBe('passkey-append');
    expect(append.alternatives).toEqual([]); // nothing to fall back to, not skippable
    expect((await withPasskey.step('/v2/auth/process/complete')).error.code).toBe('no_fallback_available');
    const appended = await appendPasskey(withPasskey);
    expect(appended.block).toBe('passkey-appended');
    expect((await withPasskey.step('/v2/auth/block/skip')).block).toBe('completed');
  });
});
