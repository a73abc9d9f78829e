/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Attack 3 of issue 13, "tokens valid everywhere": a short session of one project must not pass for
// another project's backend, nor claim an address nobody proved. Each case is what a host backend
// does with a standard library (jose: the project's JWKS, iss, aud, ES256) against tokens an attacker
// can get from the real server over plain HTTP.
import { createHmac } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandSmsSender } from '../../senders/SmsSender.ts';
import { projectBuilder } from '../../config/projectConfig.ts';
import { startSmtpSink, waitForMessages, type SmtpSink } from '../helpers/smtpSink.ts';
import { Client, createProject, jwtPayload, latestCode, serverForThisFile, startTestServer, uniqueEmail, uniquePhone, uniqueUsername, type TestServer } from '../helpers/testServer.ts';

const server = serverForThisFile();

/** What a project's backend checks (README, "Verifying the session on your backend"). */
async function verifyAsBackendOf(projectId: string, token: string, options: { at?: number; issuer?: boolean; audience?: boolean } = {}): Promise<JWTPayload> {
  const issuer = `${server.url}/projects/${projectId}`;
  const keys = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
  const { payload } = await jwtVerify(token, keys, {
    ...(options.issuer === false ? {} : { issuer }),
    ...(options.audience === false ? {} : { audience: projectId }),
    algorithms: ['ES256'],
    clockTolerance: 30,
    // the server's clock is the test's; a backend's is the real one, which the test clock started from
    currentDate: new Date(options.at ?? server.clock.now),
  });
  return payload;
}

function b64url(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

/** Signs up by e-mail code in a project; the client keeps the long session. */
async function signUp(projectId: string, email = uniqueEmail('tok')): Promise<{ client: Client; email: string; shortSession: string }> {
  const client = new Client(server.url, projectId);
  await client.init({}, 'signup-init');
  await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Tess Token' });
  const done = await client.step('/v2/auth/identifier/verify/finish', {
    code: await latestCode(server.url, email),
    identifierType: 'email',
    verificationType: 'email-otp',
  });
  expect(done.block).toBe('completed');
  return { client, email, shortSession: done.data.shortSession };
}

describe('a short session names its project', () => {
  let projectA: string;
  let projectB: string;
  beforeAll(async () => {
    projectA = await createProject(server.url, { appName: 'Shop A', passkeys: false });
    projectB = await createProject(server.url, { appName: 'Shop B', passkeys: false });
  });

  it('verifies with jose against its own project: JWKS, iss, aud, ES256, and a verified e-mail', async () => {
    const { email, shortSession } = await signUp(projectA);
    const claims = await verifyAsBackendOf(projectA, shortSession);
    expect(claims).toMatchObject({ iss: `${server.url}/projects/${projectA}`, aud: projectA, email, email_verified: true, sub: expect.any(String) });
    expect(JSON.parse(Buffer.from(shortSession.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'ES256', kid: expect.any(String) });
  });

  it("refuses another project's token, by issuer and by audience alike", async () => {
    const { shortSession } = await signUp(projectB);
    await expect(verifyAsBackendOf(projectA, shortSession)).rejects.toMatchObject({ code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'iss' });
    // each claim alone is enough: a backend that checks only one of them is still safe
    await expect(verifyAsBackendOf(projectA, shortSession, { issuer: false })).rejects.toMatchObject({ claim: 'aud' });
    await expect(verifyAsBackendOf(projectA, shortSession, { audience: false })).rejects.toMatchObject({ claim: 'iss' });
    expect(await verifyAsBackendOf(projectB, shortSession)).toMatchObject({ aud: projectB });
  });

  it('refuses an expired token (beyond the clock tolerance)', async () => {
    const { shortSession } = await signUp(projectA);
    const { exp } = jwtPayload(shortSession);
    expect(await verifyAsBackendOf(projectA, shortSession, { at: (exp + 20) * 1000 })).toMatchObject({ exp }); // within the 30 s tolerance
    await expect(verifyAsBackendOf(projectA, shortSession, { at: (exp + 31) * 1000 })).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
  });

  it('refuses a tampered token: another sub, or the audience rewritten to this project', async () => {
    const { shortSession } = await signUp(projectA);
    const [header, payload, signature] = shortSession.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherUser = `${header}.${b64url({ ...claims, sub: 'usr-1' })}.${signature}`;
    await expect(verifyAsBackendOf(projectA, otherUser)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });

    const { shortSession: fromB } = await signUp(projectB);
    const [headerB, payloadB, signatureB] = fromB.split('.') as [string, string, string];
    const rewritten = { ...JSON.parse(Buffer.from(payloadB, 'base64url').toString()), iss: `${server.url}/projects/${projectA}`, aud: projectA };
    await expect(verifyAsBackendOf(projectA, `${headerB}.${b64url(rewritten)}.${signatureB}`)).rejects.toMatchObject({
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });
  });

  it("refuses an unsigned token (alg: none) and one signed with HS256 over the server's public key", async () => {
    const { shortSession } = await signUp(projectA);
    const claims = jwtPayload(shortSession);
    const forged = { ...claims, sub: 'usr-1', email: 'ceo@victim-corp.example' };
    const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(forged)}.`;
    await expect(verifyAsBackendOf(projectA, unsigned)).rejects.toMatchObject({ code: 'ERR_JOSE_ALG_NOT_ALLOWED' });

    // the key confusion attack: the public key, known to all, used as an HMAC secret
    const jwks = (await (await fetch(`${server.url}/projects/${projectA}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
    const head = b64url({ alg: 'HS256', typ: 'JWT', kid: jwks.keys[0]!.kid });
    const body = b64url(forged);
    const mac = createHmac('sha256', JSON.stringify(jwks.keys[0])).update(`${head}.${body}`).digest('base64url');
    await expect(verifyAsBackendOf(projectA, `${head}.${body}.${mac}`)).rejects.toMatchObject({ code: 'ERR_JOSE_ALG_NOT_ALLOWED' });
  });

  it('serves the keys under each project issuer; an unknown project is a 404 with the error envelope', async () => {
    const legacy = await (await fetch(`${server.url}/.well-known/jwks.json`)).json();
    const perProject = await fetch(`${server.url}/projects/${projectA}/.well-known/jwks.json`);
    expect(perProject.status).toBe(200);
    expect(await perProject.json()).toEqual(legacy);
    for (const id of ['pro-999999', 'not-a-project', '..%2F..%2Fetc']) {
      const res = await fetch(`${server.url}/projects/${id}/.well-known/jwks.json`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).error.type).toMatch(/^(project_not_found|not_found)$/);
    }
  });

  it('a short session is no long session: it authorises no /v2/me call, in its project or another', async () => {
    const { shortSession } = await signUp(projectA);
    for (const projectId of [projectA, projectB]) {
      const res = await new Client(server.url, projectId).request('GET', '/v2/me', undefined, { Authorization: `Bearer ${shortSession}` });
      expect(res.status).toBe(401);
    }
  });
});

describe('long sessions: a revoked one refreshes into nothing', () => {
  it('after log-out the long session refreshes no more (401), so no new token comes from it', async () => {
    const { client } = await signUp('pro-1');
    const refreshed = await client.request('POST', '/v2/me/refresh');
    expect(refreshed.status).toBe(200);
    expect(await verifyAsBackendOf('pro-1', refreshed.body.shortSession)).toMatchObject({ aud: 'pro-1' });
    expect((await client.request('POST', '/v2/me/logout')).status).toBe(204);
    const again = await client.request('POST', '/v2/me/refresh');
    expect(again.status).toBe(401);
    expect(again.body.error.type).toBe('unauthorized');
    expect(again.body.shortSession).toBeUndefined();
  });

  it('after the account is deleted its long sessions on every device refresh no more', async () => {
    const { client, email } = await signUp('pro-1');
    const otherDevice = new Client(server.url, 'pro-1');
    await otherDevice.init({}, 'login-init');
    await otherDevice.step('/v2/auth/login/init', { identifierValue: email, isPhone: false });
    await otherDevice.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email), identifierType: 'email', verificationType: 'email-otp' });
    expect((await otherDevice.request('POST', '/v2/me/refresh')).status).toBe(200);
    expect((await client.request('DELETE', '/v2/me')).status).toBe(200);
    expect((await client.request('POST', '/v2/me/refresh')).status).toBe(401);
    expect((await otherDevice.request('POST', '/v2/me/refresh')).status).toBe(401);
  });

  it("a project's long session refreshes nothing in another project", async () => {
    const { client } = await signUp('pro-1');
    const elsewhere = new Client(server.url, 'pro-2');
    elsewhere.longSession = client.longSession;
    expect((await elsewhere.request('POST', '/v2/me/refresh')).status).toBe(401);
  });
});

describe('e-mail and phone claims are proven ones', () => {
  it('a post-signup sign-up that skipped the e-mail step gets a token without the e-mail claim; proving the address adds it', async () => {
    // pro-8's setting: the account exists before its address is verified, and "Verify later" skips the code
    const projectId = await createProject(server.url, {
      appName: 'Verify later',
      identifiers: { email: { verification: 'email-otp', verifyAt: 'after-signup' } },
      passkeys: false,
    });
    const victim = 'ceo@victim-corp.example';
    const attacker = new Client(server.url, projectId);
    await attacker.init({}, 'signup-init');
    const verify = await attacker.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: victim }], fullName: 'Mallory' });
    expect(verify.block).toBe('post-signup-email-verify');
    const completed = await attacker.step('/v2/auth/process/complete');
    expect(completed.block).toBe('completed');

    const claims = await verifyAsBackendOf(projectId, completed.data.shortSession);
    expect(claims.email).toBeUndefined();
    expect(claims.email_verified).not.toBe(true);
    expect(claims.phone_number).toBeUndefined();
    const refreshed = await attacker.request('POST', '/v2/me/refresh');
    expect(jwtPayload(refreshed.body.shortSession).email).toBeUndefined();

    // the real owner of an address, once proven, gets it in the token
    const owner = uniqueEmail('owner');
    const honest = new Client(server.url, projectId);
    await honest.init({}, 'signup-init');
    await honest.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: owner }], fullName: 'Olive' });
    const done = await honest.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, owner),
      identifierType: 'email',
      verificationType: 'email-otp',
    });
    expect(done.block).toBe('completed');
    expect(await verifyAsBackendOf(projectId, done.data.shortSession)).toMatchObject({ email: owner, email_verified: true });
  });

  it('a phone number collected without a code stays out of the token; a proven one is in it, with phone_number_verified', async () => {
    // pro-7 asks for the phone number after sign-up and sends it no code: the account holds it pending
    const email = uniqueEmail('phone-pending');
    const pending = uniquePhone();
    const collected = new Client(server.url, 'pro-7');
    await collected.init({}, 'signup-init');
    await collected.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    await collected.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email), identifierType: 'email', verificationType: 'email-otp' });
    await collected.step('/v2/auth/username/collect', { username: uniqueUsername('phone') });
    const completed = await collected.step('/v2/auth/phone/collect', { phone: pending });
    expect(completed.block).toBe('completed');
    expect((await collected.request('GET', '/v2/me')).body.identifiers).toContainEqual(expect.objectContaining({ type: 'phone', value: pending, status: 'pending' }));
    const refreshed = await collected.request('POST', '/v2/me/refresh');
    for (const token of [completed.data.shortSession, refreshed.body.shortSession]) {
      const claims = await verifyAsBackendOf('pro-7', token);
      expect(claims).toMatchObject({ email, email_verified: true });
      expect(claims).not.toHaveProperty('phone_number');
      expect(claims).not.toHaveProperty('phone_number_verified');
    }

    // pro-6 proves the phone number by a code at sign-up: the token carries it as proven
    const proven = uniquePhone();
    const verified = new Client(server.url, 'pro-6');
    await verified.init({}, 'signup-init');
    const other = uniqueEmail('phone-proven');
    await verified.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: other }, { type: 'phone', identifier: proven }] });
    await verified.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, other), identifierType: 'email', verificationType: 'email-otp' });
    const done = await verified.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, proven), identifierType: 'phone', verificationType: 'phone-otp' });
    expect(done.block).toBe('completed');
    expect(await verifyAsBackendOf('pro-6', done.data.shortSession)).toMatchObject({ email: other, phone_number: proven, phone_number_verified: true });
  });

  it('a pending second address never appears in the token; the verified one does', async () => {
    const { client, email } = await signUp('pro-1');
    expect((await client.request('POST', '/v2/me/identifier', { identifierType: 'email', value: uniqueEmail('pending') })).status).toBe(200);
    const claims = jwtPayload((await client.request('POST', '/v2/me/refresh')).body.shortSession);
    expect(claims).toMatchObject({ email, email_verified: true });
  });
});

describe('session cookies in production', () => {
  let smtp: SmtpSink;
  let production: TestServer;
  let projectId: string;
  const SHOP = 'https://shop.example';
  beforeAll(async () => {
    smtp = await startSmtpSink();
    // served as http://localhost (behind a TLS proxy, or on a developer's machine): the URL alone would
    // not make the cookie Secure, production mode does
    production = await startTestServer({
      api: {
        mode: 'production',
        publicUrl: 'http://localhost:3999',
        smtp: { host: '127.0.0.1', port: smtp.port, from: 'Shop <no-reply@shop.example>' },
        sms: new CommandSmsSender('/bin/true'),
        keyEncryptionSecret: 'a-key-encryption-secret-of-forty-characters',
      },
    });
    projectId = (await production.api.store.projects.create(projectBuilder({ appName: 'Shop', allowedOrigins: [SHOP], passkeys: false }, undefined), production.clock.now)).id;
  });
  afterAll(async () => {
    await production.stop();
    smtp.close();
  });

  it('sets the long-session cookie Secure, clears it Secure, and tells the client to write the short-session cookie Secure', async () => {
    const client = new Client(production.url, projectId, SHOP);
    await client.init({}, 'signup-init');
    const email = uniqueEmail('prod');
    const before = smtp.received.length;
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    const code = /code for Shop is: (\d{6})/.exec((await waitForMessages(smtp, before + 1)).at(-1)!)?.[1];
    const done = await client.request('POST', '/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp' });
    expect(done.body.blockBody.block).toBe('completed');
    const cookie = done.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^cbo_long_session=/);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);

    const config = await client.request('GET', '/v2/session-config');
    expect(config.body.shortSessionCookieConfig.secure).toBe(true);
    expect(config.body.sessionTokenCookieConfig.secure).toBe(true);

    const longSession = /^cbo_long_session=([^;]+)/.exec(cookie)![1]!;
    const logout = await client.request('POST', '/v2/me/logout', undefined, { Cookie: `cbo_long_session=${longSession}` });
    expect(logout.status).toBe(204);
    expect(logout.headers.get('set-cookie')).toMatch(/^cbo_long_session=;.*Secure/i);
  });
});
