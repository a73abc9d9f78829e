/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The Backend API over real HTTP on its own listener, driven by Corbado's Node SDK where it has a method
// and by plain HTTP elsewhere: users, identifiers, passkeys and long sessions; HTTP Basic with an API
// secret, never CORS, the limit per secret, bad input, and one project's secret against another's ids.
import { describe, expect, it } from 'vitest';
import { backendCall, corbadoSdk, newSecret } from './helpers/backendApiClient.ts';
import { signUpByEmailCode } from './helpers/passkeyUser.ts';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { Client, createProject, latestCode, PASSKEY_DEVICE, serverForThisFile, uniqueEmail, uniquePhone, type ApiResponse } from './helpers/testServer.ts';

const server = serverForThisFile({ api: { backendApiPort: 0 } });

function expectError(res: ApiResponse, status: number, type: string) {
  expect({ status: res.status, type: res.body?.error?.type }).toEqual({ status, type });
  expect(res.body).toMatchObject({ httpStatusCode: status, requestData: { requestID: expect.stringMatching(/^req-/) }, runtime: expect.any(Number) });
}

/** A user signed up through the widget's API by e-mail code (optionally with a passkey); the client holds the long session. */
async function signUp(projectId = 'pro-1', options: { email?: string; passkey?: SoftAuthenticator } = {}): Promise<{ client: Client; email: string; userId: string }> {
  const { client, email } = await signUpByEmailCode(server.url, projectId, { email: options.email ?? uniqueEmail('bapi'), ...(options.passkey ? { passkey: options.passkey } : {}) });
  return { client, email, userId: (await client.request('GET', '/v2/me')).body.id };
}

async function refreshStatus(client: Client): Promise<number> {
  return (await client.request('POST', '/v2/me/refresh')).status;
}

/** A log-in by e-mail code on a device with passkeys; answers the block after the code. */
async function logInByCode(projectId: string, email: string): Promise<{ client: Client; block: any }> {
  const client = new Client(server.url, projectId);
  await client.init(PASSKEY_DEVICE, 'login-init');
  const entered = await client.step('/v2/auth/login/init', { identifierValue: email, isPhone: false });
  expect(entered.block).toBe('email-verify');
  const block = await client.step('/v2/auth/identifier/verify/finish', {
    code: await latestCode(server.url, email),
    identifierType: 'email',
    verificationType: 'email-otp',
  });
  return { client, block };
}

describe('Backend API with the Node SDK', () => {
  it('creates a user, gives it a verified address, finds it by the address and by its id, and deletes it', async () => {
    const secret = await newSecret(server, 'pro-1');
    const sdk = corbadoSdk(server, 'pro-1', secret);
    const user = await sdk.users().create({ fullName: 'Ada Lovelace', status: 'active' });
    expect(user).toMatchObject({ userID: expect.stringMatching(/^usr-\d+$/), fullName: 'Ada Lovelace', status: 'active' });
    expect(await sdk.users().get(user.userID)).toEqual(user);

    const email = uniqueEmail('Ada');
    const identifier = await sdk.identifiers().create(user.userID, { identifierType: 'email', identifierValue: email, status: 'verified' });
    // the user's first verified address is the primary one of its type: Corbado's status `primary`
    expect(identifier).toEqual({ identifierID: expect.stringMatching(/^ide-/), type: 'email', value: email, status: 'primary', userID: user.userID });

    // found whatever the case of the address; the SDK's listByUserId sends the id without usr-
    const byValue = await sdk.identifiers().listByValueAndType(email.toUpperCase(), 'email');
    expect(byValue.identifiers).toEqual([identifier]);
    expect(byValue.paging).toEqual({ page: 1, totalPages: 1, totalItems: 1 });
    expect((await sdk.identifiers().listByUserId(user.userID)).identifiers).toEqual([identifier]);
    expect((await sdk.identifiers().listByUserIdAndType(user.userID, 'phone')).identifiers).toEqual([]);

    expect(await sdk.identifiers().updateStatus(user.userID, identifier.identifierID, 'pending')).toMatchObject({ status: 'pending' });
    expect(await sdk.identifiers().updateStatus(user.userID, identifier.identifierID, 'primary')).toMatchObject({ status: 'primary' });
    expect(await sdk.identifiers().delete(user.userID, identifier.identifierID)).toMatchObject({ httpStatusCode: 200, message: 'OK' });
    expect((await sdk.identifiers().listByUserId(user.userID)).paging.totalItems).toBe(0);

    expect(await sdk.users().delete(user.userID)).toMatchObject({ httpStatusCode: 200 });
    const gone = await sdk.users().get(user.userID).catch((error: unknown) => error);
    expect(gone).toMatchObject({ httpStatusCode: 400 });
  });

  it('changes the name and status of a user (PATCH) and keeps the host external id', async () => {
    const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const created = await backendCall(server, creds, 'POST', '/v2/users', { fullName: 'Old', status: 'active', externalID: 'crm-42' });
    expect(created.body).toMatchObject({ fullName: 'Old', externalID: 'crm-42' });
    const changed = await backendCall(server, creds, 'PATCH', `/v2/users/${created.body.userID}`, { fullName: '  New Name ' });
    expect(changed.body).toEqual({ userID: created.body.userID, fullName: 'New Name', status: 'active', externalID: 'crm-42' });
    expectError(await backendCall(server, creds, 'POST', '/v2/users', { fullName: 'Twin', status: 'active', externalID: 'crm-42' }), 409, 'external_id_in_use');
  });

  it('refuses a wrong, revoked or missing secret and another project of the secret, each with 401 and nothing else', async () => {
    const secret = await newSecret(server, 'pro-1');
    const path = '/v2/identifiers';
    const none = await backendCall(server, undefined, 'GET', path);
    expectError(none, 401, 'unauthorized');
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic /);
    expectError(await backendCall(server, { projectId: 'pro-1', secret: `${secret}x` }, 'GET', path), 401, 'unauthorized');
    expectError(await backendCall(server, { projectId: 'pro-1', secret: 'not-a-secret' }, 'GET', path), 401, 'unauthorized');
    // pro-1's secret does not open pro-2, and a header naming another project is refused
    expectError(await backendCall(server, { projectId: 'pro-2', secret }, 'GET', path), 401, 'unauthorized');
    expectError(await backendCall(server, { projectId: 'pro-1', secret }, 'GET', path, undefined, { 'X-Corbado-ProjectID': 'pro-2' }), 401, 'unauthorized');
    expect((await backendCall(server, { projectId: 'pro-1', secret }, 'GET', path)).status).toBe(200);

    // revoked: refused at the next call, without a restart; a new one works at once
    const [record] = (await server.api.store.apiSecrets.listByProject('pro-1')).filter((s) => secret.endsWith(s.hint) && s.revokedAt === null).slice(-1);
    expect(await server.api.store.apiSecrets.revoke(record!.id, Date.now())).toBe(true);
    expectError(await backendCall(server, { projectId: 'pro-1', secret }, 'GET', path), 401, 'unauthorized');
    const fresh = await newSecret(server, 'pro-1');
    expect((await backendCall(server, { projectId: 'pro-1', secret: fresh }, 'GET', path)).status).toBe(200);

    const wrong = await corbadoSdk(server, 'pro-1', `${fresh}x`).users().get('usr-1').catch((error: unknown) => error);
    expect(wrong).toMatchObject({ httpStatusCode: 401 });
  });

  it('never answers a browser: no CORS header, preflights and calls with an Origin refused', async () => {
    const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const preflight = await backendCall(server, undefined, 'OPTIONS', '/v2/users', undefined, {
      Origin: 'http://localhost:5173',
      'Access-Control-Request-Method': 'POST',
    });
    expectError(preflight, 403, 'forbidden_origin');
    const fromPage = await backendCall(server, creds, 'GET', '/v2/identifiers', undefined, { Origin: 'http://localhost:5173' });
    expectError(fromPage, 403, 'forbidden_origin');
    const plain = await backendCall(server, creds, 'GET', '/v2/identifiers');
    for (const res of [preflight, fromPage, plain]) {
      expect([...res.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('is served on its own listener only: the Frontend API has none of it, and it has none of the Frontend API', async () => {
    const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const onFrontend = await new Client(server.url, 'pro-1').request('GET', '/v2/identifiers', undefined, {
      Authorization: `Basic ${Buffer.from(`pro-1:${creds.secret}`).toString('base64')}`,
    });
    expectError(onFrontend, 404, 'not_found');
    expectError(await backendCall(server, creds, 'POST', '/v2/auth/process/init', {}, { 'X-Corbado-ProjectID': 'pro-1' }), 404, 'not_found');
    expectError(await backendCall(server, creds, 'GET', '/.well-known/jwks.json'), 404, 'not_found');
    expectError(await backendCall(server, creds, 'GET', '/_dev/messages'), 404, 'not_found');
  });

  it('counts calls per secret: over the project limit 429 with Retry-After, another secret unaffected', async () => {
    const projectId = await createProject(server.url, { limits: { backendApiRequestsPerSecret: { max: 3, windowSeconds: 60 } } });
    const one = { projectId, secret: await newSecret(server, projectId) };
    const other = { projectId, secret: await newSecret(server, projectId) };
    for (let i = 0; i < 3; i += 1) expect((await backendCall(server, one, 'GET', '/v2/identifiers')).status).toBe(200);
    const refused = await backendCall(server, one, 'GET', '/v2/identifiers');
    expectError(refused, 429, 'too_many_requests');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await backendCall(server, other, 'GET', '/v2/identifiers')).status).toBe(200);
  });

  it('answers bad input with 400 and `field: message` validation, unknown ids with 400 `…: does not exist` (as Corbado), never a 5xx', async () => {
    const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const user = (await backendCall(server, creds, 'POST', '/v2/users', { fullName: 'Bad Input', status: 'active' })).body;
    const cases: [string, string, unknown, number, string, RegExp?][] = [
      ['POST', '/v2/users', '{"status":', 400, 'invalid_request'],
      ['POST', '/v2/users', {}, 400, 'invalid_request', /^fullName: is required\nstatus: is required$/],
      ['POST', '/v2/users', { status: 'active', fullName: ' ' }, 400, 'invalid_request', /^fullName: cannot be blank$/],
      ['POST', '/v2/users', { fullName: 'P', status: 'pending' }, 400, 'invalid_request', /^status: must be one of active, disabled$/],
      ['POST', '/v2/users', { status: 'active', fullName: 'a\u202Eb' }, 400, 'invalid_request', /^fullName: /],
      ['POST', '/v2/users', { fullName: 'W', status: 'active', explicitWebauthnID: 'x' }, 400, 'invalid_request', /^explicitWebauthnID: /],
      ['PATCH', `/v2/users/${user.userID}`, { status: 'gone' }, 400, 'invalid_request', /^status: /],
      ['POST', `/v2/users/${user.userID}/identifiers`, { identifierType: 'email', identifierValue: 'not-an-address', status: 'verified' }, 400, 'invalid_request', /^identifierValue: is not a valid email$/],
      ['POST', `/v2/users/${user.userID}/identifiers`, { identifierType: 'phone', identifierValue: '+4915112345678', status: 'verified' }, 400, 'invalid_request', /^identifierType: this project does not use/],
      ['POST', `/v2/users/${user.userID}/identifiers`, { identifierType: 'fax', identifierValue: 'x', status: 'new' }, 400, 'invalid_request', /^identifierType: must be one of/],
      ['PATCH', `/v2/users/${user.userID}/identifiers/ide-1`, { status: 'verified' }, 400, 'invalid_request', /^identifierID: does not exist$/],
      ['GET', '/v2/users/usr-1', undefined, 400, 'invalid_request', /^userID: does not exist$/],
      ['GET', '/v2/users/%00', undefined, 400, 'invalid_request'],
      ['DELETE', `/v2/users/${user.userID}/credentials/cre-1`, undefined, 400, 'invalid_request', /^credentialID: does not exist$/],
      ['GET', '/v2/longSessions/ses-1', undefined, 400, 'invalid_request', /^longSessionID: does not exist$/],
      ['PATCH', `/v2/users/${user.userID}/longSessions/ses-1`, { status: 'active' }, 400, 'invalid_request', /^status: must be one of revoked, logged_out$/],
      ['GET', '/v2/identifiers?filter[]=fullName:eq:Ada', undefined, 400, 'invalid_request', /^filter\[\]: cannot filter on fullName/],
      ['GET', '/v2/identifiers?filter[]=identifierValue:like:a', undefined, 400, 'invalid_request', /^filter\[\]: operator like is not supported/],
      ['GET', '/v2/identifiers?filter[]=identifierValue', undefined, 400, 'invalid_request', /^filter\[\]: must be field:operator:value/],
      ['GET', '/v2/identifiers?filter[]=identifierType:eq:fax', undefined, 400, 'invalid_request', /^filter\[\]: identifierType must be/],
      ['GET', '/v2/identifiers?sort=password:asc', undefined, 400, 'invalid_request', /^sort: /],
      ['GET', '/v2/identifiers?pageSize=1000', undefined, 400, 'invalid_request', /^pageSize: must be a whole number from 1 to 100/],
      ['GET', '/v2/identifiers?page=0', undefined, 400, 'invalid_request', /^page: /],
      ['GET', '/v2/identifiers?page=-1&pageSize=x', undefined, 400, 'invalid_request'],
    ];
    for (const [method, path, body, status, type, validation] of cases) {
      const res = await backendCall(server, creds, method, path, body);
      expectError(res, status, type);
      if (validation) expect(res.body.error.validation.map((v: any) => `${v.field}: ${v.message}`).join('\n')).toMatch(validation);
    }
    const text = await backendCall(server, creds, 'POST', '/v2/users', 'status=active', { 'Content-Type': 'text/plain' });
    expectError(text, 415, 'unsupported_media_type');
    // the SDK shows the validation as `field: message`
    const sdkError = (await corbadoSdk(server, 'pro-1', creds.secret)
      .identifiers()
      .create(user.userID, { identifierType: 'email', identifierValue: 'nope', status: 'verified' })
      .catch((error: unknown) => error)) as { getValidationMessages(): string[]; httpStatusCode: number };
    expect(sdkError.httpStatusCode).toBe(400);
    expect(sdkError.getValidationMessages()).toEqual(['identifierValue: is not a valid email']);
  });
});

/** What a refused SDK call threw: Corbado's ServerError with its status and `field: message` lines. */
async function sdkRefusal(call: Promise<unknown>): Promise<{ status: number; validation: string[] }> {
  const error = (await call.then(
    () => expect.fail('the call was not refused'),
    (e: unknown) => e,
  )) as { httpStatusCode: number; getValidationMessages(): string[] };
  return { status: error.httpStatusCode, validation: error.getValidationMessages() };
}

// The calls of Corbado's own integration suite for its Node SDK (users and identifiers), written here
// anew: host code written against Corbado's SDK gets Corbado's answers (server/README.md, "Backend API").
describe("Backend API answers the SDK as Corbado's does", () => {
  it('gives one user as many addresses as the host adds (not the account page\'s maximum), concurrently too', async () => {
    expect((await server.api.store.projects.get('pro-1'))!.identifiers.email.maxPerUser).toBeLessThan(8);
    const sdk = corbadoSdk(server, 'pro-1', await newSecret(server, 'pro-1'));
    const { userID } = await sdk.users().createActiveByName('Many Addresses');
    const first = await sdk.identifiers().create(userID, { identifierType: 'email', identifierValue: uniqueEmail('many0'), status: 'primary' });
    const added = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7].map((n) => sdk.identifiers().create(userID, { identifierType: 'email', identifierValue: uniqueEmail(`many${n}`), status: 'verified' })),
    );
    expect(added.map((i) => i.status)).toEqual(Array(7).fill('verified'));
    const listed = await sdk.identifiers().listByUserIdAndType(userID, 'email', undefined, 1, 100);
    expect(listed.identifiers.map((i) => i.identifierID).sort()).toEqual([first, ...added].map((i) => i.identifierID).sort());
    expect(listed.identifiers.filter((i) => i.status === 'primary')).toEqual([first]);
  });

  it('answers `primary` for the identifier made primary, in the change and in every list, and filters by it', async () => {
    const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const sdk = corbadoSdk(server, 'pro-1', creds.secret);
    const { userID } = await sdk.users().createActiveByName('Prima');
    const email = uniqueEmail('prima');
    const identifier = await sdk.identifiers().create(userID, { identifierType: 'email', identifierValue: email, status: 'primary' });
    expect(identifier.status).toBe('primary');
    expect(await sdk.identifiers().updateStatus(userID, identifier.identifierID, 'pending')).toMatchObject({ status: 'pending' });
    expect((await sdk.identifiers().listByValueAndType(email, 'email')).identifiers[0]!.status).toBe('pending');
    expect(await sdk.identifiers().updateStatus(userID, identifier.identifierID, 'primary')).toMatchObject({ status: 'primary' });
    expect((await sdk.identifiers().listByValueAndType(email, 'email')).identifiers[0]!.status).toBe('primary');
    // a second verified address is `verified` until it is made primary; then the first one is `verified`
    const second = await sdk.identifiers().create(userID, { identifierType: 'email', identifierValue: uniqueEmail('secunda'), status: 'verified' });
    expect(second.status).toBe('verified');
    const byStatus = async (status: string) =>
      (await sdk.identifiers().list([`userID:eq:${userID.slice(4)}`, `status:eq:${status}`])).identifiers.map((i) => i.identifierID);
    expect(await byStatus('primary')).toEqual([identifier.identifierID]);
    expect(await byStatus('verified')).toEqual([second.identifierID]);
    expect(await sdk.identifiers().updateStatus(userID, second.identifierID, 'primary')).toMatchObject({ status: 'primary' });
    expect(await byStatus('primary')).toEqual([second.identifierID]);
    expect(await byStatus('verified')).toEqual([identifier.identifierID]);
  });

  it('answers an unknown user or identifier with 400 `…: does not exist`, a blank value with `cannot be blank`, a missing name with 400', async () => {
    const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const sdk = corbadoSdk(server, 'pro-1', creds.secret);
    const unknownUser = { status: 400, validation: ['userID: does not exist'] };
    expect(await sdkRefusal(sdk.users().get('usr-123456789'))).toEqual(unknownUser);
    expect(await sdkRefusal(sdk.users().delete('usr-123456789'))).toEqual(unknownUser);
    const { userID } = await sdk.users().createActiveByName('Gone Soon');
    await sdk.users().delete(userID);
    expect(await sdkRefusal(sdk.users().get(userID))).toEqual(unknownUser);
    expect(await sdkRefusal(sdk.identifiers().create(userID, { identifierType: 'email', identifierValue: uniqueEmail('gone'), status: 'verified' }))).toEqual(unknownUser);

    const { userID: living } = await sdk.users().createActiveByName('Still Here');
    expect(await sdkRefusal(sdk.identifiers().updateStatus(living, 'non-existent-id', 'primary'))).toEqual({ status: 400, validation: ['identifierID: does not exist'] });
    expect(await sdkRefusal(sdk.identifiers().delete(living, 'ide-1'))).toEqual({ status: 400, validation: ['identifierID: does not exist'] });
    for (const blank of ['', '   ']) {
      expect(await sdkRefusal(sdk.identifiers().create(living, { identifierType: 'email', identifierValue: blank, status: 'primary' }))).toEqual({
        status: 400,
        validation: ['identifierValue: cannot be blank'],
      });
    }
    // the SDK refuses an empty name itself; sent as Corbado's suite sends it, the server answers 400 (Corbado: 500)
    const nameless = await backendCall(server, creds, 'POST', '/v2/users', { name: '', status: 'active' });
    expectError(nameless, 400, 'invalid_request');
    expect(nameless.body.error.validation).toEqual([{ field: 'fullName', message: 'is required' }]);
  });
});

describe('Backend API: what it does to users', () => {
  it('deleting a user ends their sessions at once, removes their passkeys and frees their address', async () => {
    const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const { client, email, userId } = await signUp('pro-1', { passkey: new SoftAuthenticator() });
    expect(await refreshStatus(client)).toBe(200);
    const passkeys = await backendCall(server, creds, 'GET', `/v2/users/${userId}/credentials`);
    expect(passkeys.body.credentials).toHaveLength(1);
    expect(passkeys.body.credentials[0]).toMatchObject({ id: expect.stringMatching(/^cre-/), status: 'active', transport: expect.any(Array) });

    expect((await corbadoSdk(server, 'pro-1', creds.secret).users().delete(userId)).httpStatusCode).toBe(200);
    expect(await refreshStatus(client)).toBe(401);
    expect((await client.request('GET', '/v2/me')).status).toBe(401);
    expect(await server.api.store.credentials.listByUser(userId)).toEqual([]);
    expect((await backendCall(server, creds, 'GET', `/v2/identifiers?filter[]=identifierValue:eq:${encodeURIComponent(email)}`)).body.paging.totalItems).toBe(0);
    // the address signs up again, as a new user
    const again = await signUp('pro-1', { email });
    expect(again.userId).not.toBe(userId);
  });

  it('a user created with a verified e-mail address logs in by code and is then offered a passkey', async () => {
    const sdk = corbadoSdk(server, 'pro-1', await newSecret(server, 'pro-1'));
    const user = await sdk.users().create({ fullName: 'Imported Ivy', status: 'active' });
    const email = uniqueEmail('ivy');
    await sdk.identifiers().create(user.userID, { identifierType: 'email', identifierValue: email, status: 'verified' });
    const { client, block } = await logInByCode('pro-1', email);
    expect(block.block).toBe('passkey-append');
    expect(block.alternatives.map((a: any) => a.block)).toContain('completed'); // "Maybe later"
    expect(block.data).toMatchObject({ identifierValue: email });
    const authenticator = new SoftAuthenticator();
    const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    await client.step('/v2/auth/passkey/append/finish', { signedChallenge: authenticator.create(started.data.challenge) });
    expect((await client.step('/v2/auth/block/skip')).block).toBe('completed');
    expect((await client.request('GET', '/v2/me')).body).toMatchObject({ id: user.userID, fullName: 'Imported Ivy' });
    const passkeys = await backendCall(server, { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') }, 'GET', `/v2/users/${user.userID}/credentials`);
    expect(passkeys.body.paging.totalItems).toBe(1);
  });

  it('a user created with a verified phone number logs in by SMS code and is then offered a passkey', async () => {
    const creds = { projectId: 'pro-3', secret: await newSecret(server, 'pro-3') };
    const userID = (await backendCall(server, creds, 'POST', '/v2/users', { status: 'active', fullName: 'Pia Phone' })).body.userID as string;
    const phone = uniquePhone();
    await backendCall(server, creds, 'POST', `/v2/users/${userID}/identifiers`, { identifierType: 'phone', identifierValue: phone, status: 'verified' });
    const client = new Client(server.url, 'pro-3');
    await client.init(PASSKEY_DEVICE, 'login-init');
    expect((await client.step('/v2/auth/login/init', { identifierValue: phone, isPhone: true })).block).toBe('phone-verify');
    const block = await client.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, phone), identifierType: 'phone', verificationType: 'phone-otp' });
    expect(block.block).toBe('passkey-append');
    expect((await client.step('/v2/auth/process/complete')).block).toBe('completed');
    expect((await client.request('GET', '/v2/me')).body.id).toBe(userID);
  });

  it('removes one passkey, lists and revokes long sessions (no refresh from a revoked one)', async () => {
    const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const authenticator = new SoftAuthenticator();
    const { client, userId } = await signUp('pro-1', { passkey: authenticator });
    const [passkey] = (await backendCall(server, creds, 'GET', `/v2/users/${userId}/credentials`)).body.credentials;
    expect((await backendCall(server, creds, 'DELETE', `/v2/users/${userId}/credentials/${passkey.id}`)).body).toMatchObject({ httpStatusCode: 200 });
    expect((await client.request('GET', '/v2/me/passkeys')).body.passkeys).toEqual([]);

    const listed = await backendCall(server, creds, 'GET', `/v2/users/${userId}/longSessions`);
    expect(listed.body.longSessions).toHaveLength(1);
    const [session] = listed.body.longSessions;
    expect(session).toMatchObject({ longSessionID: expect.stringMatching(/^ses-/), userID: userId, status: 'active', expires: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/) });
    expect((await backendCall(server, creds, 'GET', `/v2/longSessions/${session.longSessionID}`)).body).toEqual(session);
    const revoked = await backendCall(server, creds, 'PATCH', `/v2/users/${userId}/longSessions/${session.longSessionID}`, { status: 'revoked' });
    expect(revoked.body).toMatchObject({ longSessionID: session.longSessionID, status: 'revoked' });
    expect(await refreshStatus(client)).toBe(401);
  });

  it('a disabled user gets no session and is not found by log-in; enabled again, logs in', async () => {
    const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const { client, email, userId } = await signUp();
    expect((await backendCall(server, creds, 'PATCH', `/v2/users/${userId}`, { status: 'disabled' })).body.status).toBe('disabled');
    expect(await refreshStatus(client)).toBe(401);
    const login = new Client(server.url, 'pro-1');
    await login.init({}, 'login-init');
    expect((await login.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })).data.fieldError.code).toBe('login_identifier_unknown_user');
    expect((await backendCall(server, creds, 'PATCH', `/v2/users/${userId}`, { status: 'active' })).body.status).toBe('active');
    const { block } = await logInByCode('pro-1', email);
    expect(['completed', 'passkey-append']).toContain(block.block);
  });

  it('a verified identifier takes the address from pending holders; one held verified by another user is refused', async () => {
    const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const email = uniqueEmail('owner');
    const create = async () => (await backendCall(server, creds, 'POST', '/v2/users', { fullName: 'Holder', status: 'active' })).body.userID as string;
    const [squatter, owner, latecomer] = [await create(), await create(), await create()];
    const pending = await backendCall(server, creds, 'POST', `/v2/users/${squatter}/identifiers`, { identifierType: 'email', identifierValue: email, status: 'pending' });
    expect(pending.body.status).toBe('pending');
    const mine = await backendCall(server, creds, 'POST', `/v2/users/${owner}/identifiers`, { identifierType: 'email', identifierValue: email, status: 'pending' });
    // the owner's only address, verified: the primary one
    expect((await backendCall(server, creds, 'PATCH', `/v2/users/${owner}/identifiers/${mine.body.identifierID}`, { status: 'verified' })).body.status).toBe('primary');
    const holders = await backendCall(server, creds, 'GET', `/v2/identifiers?filter[]=identifierValue:eq:${encodeURIComponent(email)}`);
    expect(holders.body.identifiers.map((i: any) => i.userID)).toEqual([owner]);
    const refused = await backendCall(server, creds, 'POST', `/v2/users/${latecomer}/identifiers`, { identifierType: 'email', identifierValue: email, status: 'pending' });
    expectError(refused, 409, 'identifier_already_in_use');
    // and a sign-up with the address is refused as for any verified holder
    const client = new Client(server.url, 'pro-1');
    await client.init({}, 'signup-init');
    const signup = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Late' });
    expect(signup.data.identifiers[0].error.code).toBe('identifier_already_in_use');
  });

  it('lists identifiers by value, type and user, sorted and paged', async () => {
    const projectId = await createProject(server.url, { identifiers: { email: {}, username: { maxPerUser: 1 } } });
    const creds = { projectId, secret: await newSecret(server, projectId) };
    const users: string[] = [];
    for (const name of ['b', 'a', 'c']) {
      const userID = (await backendCall(server, creds, 'POST', '/v2/users', { status: 'active', fullName: name })).body.userID as string;
      users.push(userID);
      await backendCall(server, creds, 'POST', `/v2/users/${userID}/identifiers`, { identifierType: 'email', identifierValue: `${name}@list.example`, status: 'verified' });
      await backendCall(server, creds, 'POST', `/v2/users/${userID}/identifiers`, { identifierType: 'username', identifierValue: `user_${name}`, status: 'verified' });
    }
    const list = async (query: string) => (await backendCall(server, creds, 'GET', `/v2/identifiers?${query}`)).body;
    expect((await list('')).paging).toEqual({ page: 1, totalPages: 1, totalItems: 6 });
    const emails = await list('filter[]=identifierType:eq:email&sort=identifierValue:desc');
    expect(emails.identifiers.map((i: any) => i.value)).toEqual(['c@list.example', 'b@list.example', 'a@list.example']);
    const page2 = await list('filter[]=identifierType:eq:email&sort=identifierValue:asc&page=2&pageSize=2');
    expect(page2.identifiers.map((i: any) => i.value)).toEqual(['c@list.example']);
    expect(page2.paging).toEqual({ page: 2, totalPages: 2, totalItems: 3 });
    const ofUser = await list(`filter[]=userID:eq:${users[1]!.slice(4)}&sort=identifierType:asc`);
    expect(ofUser.identifiers.map((i: any) => [i.type, i.value])).toEqual([
      ['email', 'a@list.example'],
      ['username', 'user_a'],
    ]);
    expect((await list('filter[]=identifierValue:eq:USER_B')).identifiers.map((i: any) => i.userID)).toEqual([users[0]]);
    expect((await list('filter[]=identifierValue:eq:a@list.example&filter[]=identifierType:eq:username')).paging.totalItems).toBe(0);
    expect((await list('filter[]=identifierValue:eq:a@list.example&filter[]=identifierValue:eq:b@list.example')).paging.totalItems).toBe(0);
    expect((await list('filter[]=userID:eq:1&filter[]=userID:eq:2')).paging.totalItems).toBe(0);
    expect((await list('filter[]=status:eq:pending')).paging.totalItems).toBe(0);
    expect((await list('page=9')).identifiers).toEqual([]);
  });
});

describe("Backend API: one project's secret never reaches another project's users", () => {
  it('answers every operation on another project\'s ids as on unknown ones (400 `…: does not exist`) or with an empty list, and changes nothing', async () => {
    const theirs = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const { client, email, userId } = await signUp('pro-1', { passkey: new SoftAuthenticator() });
    const [identifier] = (await backendCall(server, theirs, 'GET', `/v2/identifiers?filter[]=userID:eq:${userId}`)).body.identifiers;
    const [passkey] = (await backendCall(server, theirs, 'GET', `/v2/users/${userId}/credentials`)).body.credentials;
    const [session] = (await backendCall(server, theirs, 'GET', `/v2/users/${userId}/longSessions`)).body.longSessions;
    const before = (await backendCall(server, theirs, 'GET', `/v2/users/${userId}`)).body;

    const mine = { projectId: 'pro-2', secret: await newSecret(server, 'pro-2') };
    const ownUser = (await backendCall(server, mine, 'POST', '/v2/users', { fullName: 'Own', status: 'active' })).body.userID as string;
    const notFound: [string, string, unknown?][] = [
      ['GET', `/v2/users/${userId}`],
      ['PATCH', `/v2/users/${userId}`, { fullName: 'Taken Over', status: 'disabled' }],
      ['DELETE', `/v2/users/${userId}`],
      ['POST', `/v2/users/${userId}/identifiers`, { identifierType: 'email', identifierValue: uniqueEmail('x'), status: 'verified' }],
      ['PATCH', `/v2/users/${userId}/identifiers/${identifier.identifierID}`, { status: 'pending' }],
      ['DELETE', `/v2/users/${userId}/identifiers/${identifier.identifierID}`],
      // their identifier under a user of my own project
      ['PATCH', `/v2/users/${ownUser}/identifiers/${identifier.identifierID}`, { status: 'pending' }],
      ['DELETE', `/v2/users/${ownUser}/identifiers/${identifier.identifierID}`],
      ['GET', `/v2/users/${userId}/credentials`],
      ['DELETE', `/v2/users/${userId}/credentials/${passkey.id}`],
      ['DELETE', `/v2/users/${ownUser}/credentials/${passkey.id}`],
      ['GET', `/v2/users/${userId}/longSessions`],
      ['GET', `/v2/users/${userId}/longSessions/${session.longSessionID}`],
      ['PATCH', `/v2/users/${userId}/longSessions/${session.longSessionID}`, { status: 'revoked' }],
      ['GET', `/v2/users/${ownUser}/longSessions/${session.longSessionID}`],
      ['PATCH', `/v2/users/${ownUser}/longSessions/${session.longSessionID}`, { status: 'revoked' }],
      ['GET', `/v2/longSessions/${session.longSessionID}`],
    ];
    for (const [method, path, body] of notFound) {
      const res = await backendCall(server, mine, method, path, body);
      expectError(res, 400, 'invalid_request');
      expect(res.body.error.validation, `${method} ${path}`).toEqual([{ field: expect.stringMatching(/^(userID|identifierID|credentialID|longSessionID)$/), message: 'does not exist' }]);
    }
    for (const filter of [`userID:eq:${userId}`, `identifierValue:eq:${encodeURIComponent(email)}`]) {
      expect((await backendCall(server, mine, 'GET', `/v2/identifiers?filter[]=${filter}`)).body).toMatchObject({ identifiers: [], paging: { totalItems: 0 } });
    }
    // the same address is another person in another project: pro-2 may give it to its own user
    const own = await backendCall(server, mine, 'POST', `/v2/users/${ownUser}/identifiers`, { identifierType: 'email', identifierValue: email, status: 'verified' });
    expect(own.status).toBe(200);

    expect((await backendCall(server, theirs, 'GET', `/v2/users/${userId}`)).body).toEqual(before);
    expect((await backendCall(server, theirs, 'GET', `/v2/identifiers?filter[]=userID:eq:${userId}`)).body.identifiers).toEqual([identifier]);
    expect((await backendCall(server, theirs, 'GET', `/v2/users/${userId}/credentials`)).body.credentials).toEqual([passkey]);
    expect((await backendCall(server, theirs, 'GET', `/v2/longSessions/${session.longSessionID}`)).body.status).toBe('active');
    expect(await refreshStatus(client)).toBe(200);
  });
});
