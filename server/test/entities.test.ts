// SPEC §3, "Entities and their fields", as the local Frontend API answers them: the responses, block
// bodies and tokens the widget reads, and the enumerations it sends.
import { describe, expect, it } from 'vitest';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { Client, jwtPayload, latestCode, latestLink, PASSKEY_DEVICE, serverForThisFile, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile();

/** A pro-1 sign-up by e-mail code on a passkey device, up to the passkey offer. */
async function toPasskeyAppend() {
  const client = new Client(server.url, 'pro-1');
  await client.init(PASSKEY_DEVICE, 'signup-init');
  const email = uniqueEmail('entities');
  const verify = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Eve Entity' });
  const append = await client.step('/v2/auth/identifier/verify/finish', {
    code: await latestCode(server.url, email),
    identifierType: 'email',
    verificationType: 'email-otp',
    isNewDevice: false,
  });
  return { client, email, verify, append };
}

describe('process answers', () => {
  it('[spec 3.process-init-response] [spec 3.response-block-body] process init answers token, expiresAt, processResponse {blockBody, common.frontendApiUrl} and newClientEnvHandle', async () => {
    const client = new Client(server.url, 'pro-1');
    const { body } = await client.init(PASSKEY_DEVICE, 'login-init');
    expect(body).toMatchObject({ token: expect.any(String), expiresAt: expect.any(Number), newClientEnvHandle: expect.any(String) });
    expect(Number.isInteger(body.expiresAt) && body.expiresAt > Date.now() / 1000 && body.expiresAt < Date.now() / 1000 + 86_400).toBe(true);
    expect(Object.keys(body.processResponse).sort()).toEqual(['blockBody', 'common']);
    expect(body.processResponse.common.frontendApiUrl).toBe(server.url);
    const blockBody = body.processResponse.blockBody;
    expect(blockBody).toMatchObject({ block: 'login-init', authType: 'login', data: expect.any(Object), alternatives: [expect.objectContaining({ block: 'signup-init' })] });
    // an in-band error has a code
    const unknown = await client.step('/v2/auth/login/init', { identifierValue: uniqueEmail('nobody'), isPhone: false });
    expect(unknown.data.fieldError).toMatchObject({ code: 'login_identifier_unknown_user' });
  });

  it('[spec 3.block-data-fields] [spec 3.login-init-data] log-in data: the identifier and its error, which fields the project has, the autofill challenge and the social data', async () => {
    const client = new Client(server.url, 'pro-6');
    const blockBody = (await client.init(PASSKEY_DEVICE, 'login-init')).body.processResponse.blockBody;
    expect(blockBody.data).toMatchObject({
      identifierValue: '',
      isPhone: false,
      isEmailAvailable: true,
      isPhoneAvailable: true,
      isUsernameAvailable: false,
      conditionalUIChallenge: expect.stringContaining('"challenge"'),
      socialData: { providers: [], status: 'initial' },
    });
    const signup = blockBody.alternatives[0];
    expect(signup.data.identifiers).toEqual([
      { type: 'email', identifier: '' },
      { type: 'phone', identifier: '' },
    ]);
    const tried = await client.step('/v2/auth/login/init', { identifierValue: 'not an address', isPhone: false });
    expect(tried.data).toMatchObject({ identifierValue: 'not an address', fieldError: { code: expect.any(String) } });
  });

  it('[spec 3.verify-block-data] e-mail verification data: verificationMethod, identifier and retryNotBefore in unix seconds', async () => {
    const { verify, email } = await toPasskeyAppend();
    expect(verify.data).toMatchObject({ verificationMethod: 'email-otp', identifier: email, retryNotBefore: expect.any(Number) });
    const now = Date.now() / 1000;
    expect(Number.isInteger(verify.data.retryNotBefore) && verify.data.retryNotBefore > now && verify.data.retryNotBefore < now + 600).toBe(true);
  });

  it('[spec 3.passkey-append-data] [spec 3.completed-block] [spec 3.short-session-payload] passkey-append names the identifier; completed holds authType and both sessions, the short one signed with email, name, orig, sub, exp', async () => {
    const { client, append, email } = await toPasskeyAppend();
    expect(append).toMatchObject({ block: 'passkey-append', data: { identifierType: 'email', identifierValue: email, challenge: expect.any(String) } });
    const authenticator = new SoftAuthenticator();
    const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    await client.step('/v2/auth/passkey/append/finish', { signedChallenge: authenticator.create(started.data.challenge) });
    const completed = await client.step('/v2/auth/block/skip');
    expect(completed).toMatchObject({ block: 'completed', authType: 'signup', data: { shortSession: expect.any(String), longSession: expect.any(String) } });
    const [header] = completed.data.shortSession.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'ES256' });
    const claims = jwtPayload(completed.data.shortSession);
    expect(claims).toMatchObject({ email, name: 'Eve Entity', orig: email, sub: expect.stringMatching(/^usr-/), exp: expect.any(Number) });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('[spec 3.passkey-verify-data] passkey-verify names the identifier and offers the code as its fallback', async () => {
    const { client, email } = await toPasskeyAppend();
    const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    await client.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(started.data.challenge) });
    await client.step('/v2/auth/block/skip');
    const login = new Client(server.url, 'pro-1');
    await login.init(PASSKEY_DEVICE, 'login-init');
    const verify = await login.step('/v2/auth/login/init', { identifierValue: email, isPhone: false });
    expect(verify).toMatchObject({ block: 'passkey-verify', data: { identifierValue: email } });
    expect(verify.alternatives).toEqual([expect.objectContaining({ block: 'email-verify', data: expect.objectContaining({ verificationMethod: 'email-otp' }) })]);
  });

  it('[spec 3.email-link-payload] the e-mail link carries process {id, expires, frontendApiUrl}, blockData {identifier, retryNotBefore, verificationMethod} and authType 1 for sign-up', async () => {
    const client = new Client(server.url, 'pro-2');
    await client.init({}, 'signup-init');
    const email = uniqueEmail('link');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    const link = await latestLink(server.url, email);
    const payload = JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString());
    // the process by its id: its token stays with the browser that asked (SECURITY.md, e-mail links)
    expect(payload.process.id).not.toBe(client.processToken);
    expect(payload).toMatchObject({
      process: { id: expect.stringMatching(/^pro-\d{19}$/), expires: expect.any(Number), frontendApiUrl: server.url },
      blockData: { identifier: email, retryNotBefore: expect.any(Number), verificationMethod: 'email-link' },
      authType: 1,
    });
  });
});

describe('the current user', () => {
  it('[spec 3.passkey-append-start-response] [spec 3.passkey-fields] append start answers attestationOptions (a new client handle where none was named, or why not); a passkey has its fields', async () => {
    const { client } = await toPasskeyAppend();
    await client.step('/v2/auth/process/complete');
    const start = await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: PASSKEY_DEVICE });
    expect(start.status).toBe(200);
    expect(JSON.parse(start.body.attestationOptions)).toHaveProperty('publicKey.challenge');
    expect(start.body.newClientEnvHandle).toMatch(/^ceh-/);
    expect(start.body.appendNotAllowedReason).toBeUndefined();
    const named = await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: { ...PASSKEY_DEVICE, clientEnvHandle: 'ceh-mine' } });
    expect(named.body.newClientEnvHandle).toBeUndefined();
    const refused = await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable: false } });
    expect(refused.body).toMatchObject({ attestationOptions: '', appendNotAllowedReason: 'passkeys_not_supported' });

    await client.request('POST', '/v2/me/passkeys/append/finish', {
      attestationResponse: new SoftAuthenticator().create(named.body.attestationOptions),
      clientInformation: {},
    });
    const [passkey] = (await client.request('GET', '/v2/me/passkeys')).body.passkeys;
    expect(passkey).toMatchObject({
      id: expect.any(String),
      created: expect.any(String),
      lastUsed: expect.any(String),
      status: 'active',
      backupState: expect.any(Boolean),
      sourceBrowser: expect.stringMatching(/Chrome/),
      sourceOS: 'macOS',
      authenticatorAAGUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });
});

describe('enumerations', () => {
  it('[spec 3.enum-identifier-types] [spec 3.enum-verification-types] [spec 3.enum-auth-types] [spec 3.enum-social-providers] [spec 3.enum-social-status] the values the server takes, and nothing else', async () => {
    const client = new Client(server.url, 'pro-6');
    await client.init({}, 'signup-init');
    const refused = async (path: string, body: object) => expect((await client.request('POST', path, body)).status).toBe(400);
    // identifier types: email, phone, username
    await refused('/v2/auth/signup/init', { identifiers: [{ type: 'fax', identifier: '1' }] });
    // verification types: email-link, email-otp, phone-otp
    await refused('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'sms-link' });
    // auth types: signup, login; providers: google, microsoft, github
    const social = new Client(server.url, 'pro-1');
    const init = await social.init({}, 'signup-init');
    expect(init.body.processResponse.blockBody.data.socialData).toEqual({ providers: ['google', 'microsoft', 'github'], status: 'initial' });
    const start = (body: object) => social.request('POST', '/v2/auth/social/verify/start', { redirectUrl: 'http://localhost:5173/', ...body });
    expect((await start({ providerType: 'google', authType: 'register' })).status).toBe(400);
    expect((await start({ providerType: 'facebook', authType: 'signup' })).status).toBe(400);
    const started = await start({ providerType: 'microsoft', authType: 'login' });
    expect(started.status).toBe(200);
    expect(started.body.blockBody).toMatchObject({ authType: 'login', data: { socialData: { status: 'started' } } });
    const email = uniqueEmail('enum');
    const verify = await client.step('/v2/auth/signup/init', {
      identifiers: [
        { type: 'email', identifier: email },
        { type: 'phone', identifier: '+4915112345678' },
      ],
    });
    expect(verify).toMatchObject({ block: 'email-verify', authType: 'signup' });
    const phone = await client.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
    });
    expect(phone).toMatchObject({ block: 'phone-verify', data: { verificationMethod: 'phone-otp' } });
  });
});
