/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Attack 3 of issue 13, "tokens valid everywhere": a short session of one project must not pass for
// another project's backend, nor claim an address nobody proved. Each case is what a host backend
// does against tokens an attacker can get from the real server over plain HTTP: jose with the README's
// settings (the project's keys, iss, aud, ES256), Corbado's official @corbado/node-sdk (the project's
// keys and iss; it does not check aud), and a standard check by issuer and audience that starts from
// OpenID discovery (what ASP.NET's Authority, Spring's issuer-uri and go-oidc do).
import { Config, SDK } from '@corbado/node-sdk';
import { createHmac } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP, startProductionServer, type ProductionServer } from '../helpers/productionServer.ts';
import { Client, createProject, jwtPayload, latestCode, serverForThisFile, uniqueEmail, uniquePhone, uniqueUsername, type TestServer } from '../helpers/testServer.ts';

const server = serverForThisFile();

/** What a project's backend checks (README, "Verifying the session on your backend"). */
async function verifyAsBackendOf(projectId: string, token: string, options: { at?: number; issuer?: boolean; audience?: boolean } = {}): Promise<JWTPayload> {
  const keys = createRemoteJWKSet(new URL(`${server.url}/.well-known/jwks`), { headers: { 'X-Corbado-ProjectID': projectId } });
  const { payload } = await jwtVerify(token, keys, {
    ...(options.issuer === false ? {} : { issuer: server.url }),
    ...(options.audience === false ? {} : { audience: projectId }),
    algorithms: ['ES256'],
    clockTolerance: 30,
    // the server's clock is the test's; a backend's is the real one, which the test clock started from
    currentDate: new Date(options.at ?? server.clock.now),
  });
  return payload;
}

/** What @corbado/node-sdk 3.0.2 does for a project: the server is its Frontend API (the backend API URL is not used here). */
function sdkOf(projectId: string): SDK {
  return new SDK(new Config(projectId, 'corbado1_not-used-by-token-validation', server.url, server.url));
}

/**
 * A standard verifier configured with the issuer and the audience alone: it reads the keys' URL from
 * OpenID discovery (that set holds every project's keys) and checks iss, aud and the algorithm.
 */
async function verifyByDiscovery(projectId: string, token: string): Promise<JWTPayload> {
  const discovery = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string; id_token_signing_alg_values_supported: string[] };
  expect(discovery.issuer).toBe(server.url);
  const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(discovery.jwks_uri)), {
    issuer: discovery.issuer,
    audience: projectId,
    algorithms: discovery.id_token_signing_alg_values_supported,
    currentDate: new Date(server.clock.now),
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

/** Forgeries of a real token: another sub, unsigned (alg: none), HS256 over a public key of the server. */
async function forgeries(shortSession: string): Promise<Record<'tampered' | 'unsigned' | 'hmacWithPublicKey', string>> {
  const [header, , signature] = shortSession.split('.') as [string, string, string];
  const forged = { ...jwtPayload(shortSession), sub: 'usr-1', email: 'ceo@victim-corp.example' };
  // the key confusion attack: the public key, known to all, used as an HMAC secret
  const jwks = (await (await fetch(`${server.url}/.well-known/jwks`)).json()) as { keys: { kid: string }[] };
  const head = b64url({ alg: 'HS256', typ: 'JWT', kid: jwks.keys[0]!.kid });
  const mac = createHmac('sha256', JSON.stringify(jwks.keys[0])).update(`${head}.${b64url(forged)}`).digest('base64url');
  return {
    tampered: `${header}.${b64url(forged)}.${signature}`,
    unsigned: `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(forged)}.`,
    hmacWithPublicKey: `${head}.${b64url(forged)}.${mac}`,
  };
}

describe('a short session names its project', () => {
  let projectA: string;
  let projectB: string;
  beforeAll(async () => {
    projectA = await createProject(server.url, { appName: 'Shop A', passkeys: false });
    projectB = await createProject(server.url, { appName: 'Shop B', passkeys: false });
  });

  it('verifies with jose against its own project: JWKS, iss (the server), aud (the project), ES256, and a verified e-mail', async () => {
    const { email, shortSession } = await signUp(projectA);
    const claims = await verifyAsBackendOf(projectA, shortSession);
    expect(claims).toMatchObject({ iss: server.url, aud: projectA, email, email_verified: true, sub: expect.any(String) });
    expect(JSON.parse(Buffer.from(shortSession.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'ES256', kid: expect.any(String) });
    expect(await verifyByDiscovery(projectA, shortSession)).toMatchObject({ sub: claims.sub, aud: projectA });
  });

  it("is validated by @corbado/node-sdk for its project and refused for another: each project signs with keys of its own", async () => {
    const { shortSession } = await signUp(projectA);
    expect(await sdkOf(projectA).sessions().validateToken(shortSession)).toEqual({ userId: jwtPayload(shortSession).sub, fullName: 'Tess Token' });
    // the SDK does not check aud, and both projects share the issuer: only the keys tell them apart
    await expect(sdkOf(projectB).sessions().validateToken(shortSession)).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
    const ownKeys = (await (await fetch(`${server.url}/.well-known/jwks`, { headers: { 'X-Corbado-ProjectID': projectA } })).json()) as { keys: { kid: string }[] };
    const otherKeys = (await (await fetch(`${server.url}/.well-known/jwks`, { headers: { 'X-Corbado-ProjectID': projectB } })).json()) as { keys: { kid: string }[] };
    expect(ownKeys.keys.length).toBeGreaterThan(0);
    expect(otherKeys.keys.filter((k) => ownKeys.keys.some((o) => o.kid === k.kid))).toEqual([]);
  });

  it("refuses another project's token: by its keys and by its audience (jose, README settings), by its audience (discovery)", async () => {
    const { shortSession } = await signUp(projectB);
    await expect(verifyAsBackendOf(projectA, shortSession)).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
    await expect(verifyByDiscovery(projectA, shortSession)).rejects.toMatchObject({ code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'aud' });
    expect(await verifyAsBackendOf(projectB, shortSession)).toMatchObject({ aud: projectB });
    expect(await verifyByDiscovery(projectB, shortSession)).toMatchObject({ aud: projectB });
  });

  it('refuses an expired token (beyond the clock tolerance)', async () => {
    const { shortSession } = await signUp(projectA);
    const { exp } = jwtPayload(shortSession);
    expect(await verifyAsBackendOf(projectA, shortSession, { at: (exp + 20) * 1000 })).toMatchObject({ exp }); // within the 30 s tolerance
    await expect(verifyAsBackendOf(projectA, shortSession, { at: (exp + 31) * 1000 })).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
  });

  it('refuses a tampered token, an unsigned one (alg: none) and one signed with HS256 over a public key: jose, the SDK, discovery', async () => {
    const { shortSession } = await signUp(projectA);
    const { tampered, unsigned, hmacWithPublicKey } = await forgeries(shortSession);
    await expect(verifyAsBackendOf(projectA, tampered)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
    await expect(verifyAsBackendOf(projectA, unsigned)).rejects.toMatchObject({ code: 'ERR_JOSE_ALG_NOT_ALLOWED' });
    await expect(verifyAsBackendOf(projectA, hmacWithPublicKey)).rejects.toMatchObject({ code: 'ERR_JOSE_ALG_NOT_ALLOWED' });
    for (const forged of [tampered, unsigned, hmacWithPublicKey]) {
      await expect(sdkOf(projectA).sessions().validateToken(forged)).rejects.toThrow();
      await expect(verifyByDiscovery(projectA, forged)).rejects.toThrow();
    }
    // the audience rewritten to this project on another project's token: the signature no longer holds
    const { shortSession: fromB } = await signUp(projectB);
    const [headerB, payloadB, signatureB] = fromB.split('.') as [string, string, string];
    const rewritten = `${headerB}.${b64url({ ...JSON.parse(Buffer.from(payloadB, 'base64url').toString()), aud: projectA })}.${signatureB}`;
    await expect(verifyByDiscovery(projectA, rewritten)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
    await expect(verifyAsBackendOf(projectA, rewritten)).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
  });

  it("serves each project's keys (by header, or under /projects/<id>), all projects' without a header, and discovery at the issuer", async () => {
    const byHeader = await (await fetch(`${server.url}/.well-known/jwks`, { headers: { 'X-Corbado-ProjectID': projectA } })).json();
    expect(await (await fetch(`${server.url}/projects/${projectA}/.well-known/jwks.json`)).json()).toEqual(byHeader);
    expect(await (await fetch(`${server.url}/.well-known/jwks.json`, { headers: { 'X-Corbado-ProjectID': projectA } })).json()).toEqual(byHeader);
    const all = (await (await fetch(`${server.url}/.well-known/jwks`)).json()) as { keys: { kid: string }[] };
    for (const id of [projectA, projectB]) {
      const own = (await (await fetch(`${server.url}/projects/${id}/.well-known/jwks.json`)).json()) as { keys: { kid: string; alg: string; use: string }[] };
      expect(own.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      expect(all.keys.map((k) => k.kid)).toEqual(expect.arrayContaining(own.keys.map((k) => k.kid)));
    }
    expect(await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()).toEqual({
      issuer: server.url,
      // what OpenID Connect Discovery requires besides (../openidDiscovery.test.ts reads it with openid-client)
      authorization_endpoint: `${server.url}/oauth2/authorize`,
      response_types_supported: ['id_token'],
      grant_types_supported: ['implicit'],
      jwks_uri: `${server.url}/.well-known/jwks`,
      id_token_signing_alg_values_supported: ['ES256'],
      subject_types_supported: ['public'],
      claims_supported: expect.arrayContaining(['sub', 'aud', 'email_verified']),
    });
    for (const id of ['pro-999999', 'not-a-project', '..%2F..%2Fetc']) {
      const res = await fetch(`${server.url}/projects/${id}/.well-known/jwks.json`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).error.type).toMatch(/^(project_not_found|not_found)$/);
      const byUnknownHeader = await fetch(`${server.url}/.well-known/jwks`, { headers: { 'X-Corbado-ProjectID': id } });
      expect(byUnknownHeader.status).toBe(404);
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
  let started: ProductionServer;
  let production: TestServer;
  let projectId: string;
  beforeAll(async () => {
    // served as http://localhost (behind a TLS proxy, or on a developer's machine): the URL alone would
    // not make the cookie Secure, production mode does
    started = await startProductionServer('http://localhost:3999');
    ({ server: production, projectId } = started);
  });
  afterAll(() => started.stop());

  it('sets the long-session cookie Secure, clears it Secure, and tells the client to write the short-session cookie Secure', async () => {
    const client = new Client(production.url, projectId, SHOP);
    await client.init({}, 'signup-init');
    const email = uniqueEmail('prod');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    const code = await started.code(1);
    const done = await client.request('POST', '/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp' });
    expect(done.body.blockBody.block).toBe('completed');
    const cookie = done.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^cbo_long_session=/);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);

    // the issuer is PUBLIC_URL, whatever address the request came to; discovery says the same
    expect(jwtPayload(done.body.blockBody.data.shortSession)).toMatchObject({ iss: 'http://localhost:3999', aud: projectId });
    expect(await (await fetch(`${production.url}/.well-known/openid-configuration`)).json()).toMatchObject({
      issuer: 'http://localhost:3999',
      jwks_uri: 'http://localhost:3999/.well-known/jwks',
    });

    const config = await client.request('GET', '/v2/session-config');
    expect(config.body.shortSessionCookieConfig.secure).toBe(true);
    expect(config.body.sessionTokenCookieConfig.secure).toBe(true);

    const longSession = /^cbo_long_session=([^;]+)/.exec(cookie)![1]!;
    const logout = await client.request('POST', '/v2/me/logout', undefined, { Cookie: `cbo_long_session=${longSession}` });
    expect(logout.status).toBe(204);
    expect(logout.headers.get('set-cookie')).toMatch(/^cbo_long_session=;.*Secure/i);
  });
});
