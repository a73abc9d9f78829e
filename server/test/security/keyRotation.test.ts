// Issue 24, "a key per project": each project signs with its own key; `admin keys rotate <project>`
// publishes a new one that becomes the signer (after its lead time, or at once with --now), while the
// key it replaces stays in that project's JWKS until the last token it signed has expired, then
// leaves. Another project's keys and tokens are untouched. Verified as a backend does, with jose
// against the JWKS the server publishes at the time.
import { createLocalJWKSet, exportJWK, exportPKCS8, generateKeyPair, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { sealPending } from '../../audit/sealer.ts';
import { adminErrorMessage, runAdmin } from '../../admin.ts';
import { PostgresDatabase } from '../../store/PostgresDatabase.ts';
import { SqliteDatabase } from '../../store/SqliteDatabase.ts';
import { CLOCK_TOLERANCE_MS, KEY_CACHE_MS, ROTATION_LEAD_MS, type RotationResult } from '../../session/KeyRing.ts';
import { Client, createProject, databaseEnv, jwtPayload, latestCode, serverForThisFile, startTestServer, uniqueEmail } from '../helpers/testServer.ts';

const server = serverForThisFile();
const LIFETIME_SECONDS = 300;

async function jwksOf(projectId: string): Promise<JSONWebKeySet> {
  return (await (await fetch(`${server.url}/.well-known/jwks`, { headers: { 'X-Corbado-ProjectID': projectId } })).json()) as JSONWebKeySet;
}

/** Whether a backend of the project, fetching the keys now, takes the token (at the server's time, or `at`). */
async function verifies(projectId: string, token: string, at = server.clock.now): Promise<boolean> {
  try {
    await jwtVerify(token, createLocalJWKSet(await jwksOf(projectId)), {
      issuer: server.url,
      audience: projectId,
      algorithms: ['ES256'],
      currentDate: new Date(at),
    });
    return true;
  } catch {
    return false;
  }
}

const kidOf = (token: string): string => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid;

async function signUp(projectId: string): Promise<Client> {
  const client = new Client(server.url, projectId);
  const email = uniqueEmail('keys');
  await client.init({}, 'signup-init');
  await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
  await client.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email), identifierType: 'email', verificationType: 'email-otp' });
  return client;
}

async function refreshed(client: Client): Promise<string> {
  const res = await client.request('POST', '/v2/me/refresh');
  expect(res.status).toBe(200);
  return res.body.shortSession;
}

function rotate(projectId: string, ...flags: string[]): Promise<RotationResult> {
  return runAdmin(['keys', 'rotate', projectId, ...flags], databaseEnv(server.dir), server.clock.now) as Promise<RotationResult>;
}

describe('a signing key per project, and its rotation', () => {
  let a: string;
  let b: string;
  beforeAll(async () => {
    a = await createProject(server.url, { appName: 'Rotating', passkeys: false, shortSessionLifetimeSeconds: LIFETIME_SECONDS });
    b = await createProject(server.url, { appName: 'Bystander', passkeys: false });
  });

  it('keeps the tokens of the old key valid until they expire, then the old key leaves the JWKS; the other project is untouched', async () => {
    const alice = await signUp(a);
    const bob = await signUp(b);
    const before = await refreshed(alice);
    const bobsToken = await refreshed(bob);
    const oldKid = kidOf(before);
    const bobsKeys = await jwksOf(b);
    expect(bobsKeys.keys.map((k) => k.kid)).toEqual([kidOf(bobsToken)]);
    expect(kidOf(bobsToken)).not.toBe(oldKid);

    const rotation = await rotate(a);
    expect(rotation).toMatchObject({ project: a, replaced: [{ kid: oldKid }] });
    const signsFrom = Date.parse(rotation.signsFrom);
    expect(signsFrom).toBe(server.clock.now + ROTATION_LEAD_MS);
    // the new key is published at once, ahead of its first token
    expect((await jwksOf(a)).keys.map((k) => k.kid)).toEqual([rotation.kid, oldKid]);

    // the last token the old key signs, just before the new one takes over
    server.clock.advance(ROTATION_LEAD_MS - 1_000);
    const lastOfOld = await refreshed(alice);
    expect(kidOf(lastOfOld)).toBe(oldKid);
    server.clock.advance(2_000);
    const firstOfNew = await refreshed(alice);
    expect(kidOf(firstOfNew)).toBe(rotation.kid);
    expect(await verifies(a, lastOfOld)).toBe(true);
    expect(await verifies(a, firstOfNew)).toBe(true);

    // the other project: the same keys, its tokens verify, it signs as before
    expect(await jwksOf(b)).toEqual(bobsKeys);
    expect(await verifies(b, bobsToken, jwtPayload(bobsToken).iat * 1000)).toBe(true);
    expect(kidOf(await refreshed(bob))).toBe(kidOf(bobsToken));

    // until the last old token has expired (plus the instances' key cache and a clock tolerance)
    const leaves = Date.parse(rotation.replaced[0]!.publishedUntil);
    expect(leaves).toBe(signsFrom + KEY_CACHE_MS + LIFETIME_SECONDS * 1000 + CLOCK_TOLERANCE_MS);
    expect(leaves).toBeGreaterThan(jwtPayload(lastOfOld).exp * 1000);
    server.clock.advance(leaves - 1_000 - server.clock.now);
    expect((await jwksOf(a)).keys.map((k) => k.kid)).toEqual([rotation.kid, oldKid]);
    server.clock.advance(2_000);
    expect((await jwksOf(a)).keys.map((k) => k.kid)).toEqual([rotation.kid]);
    const now = await refreshed(alice);
    expect(kidOf(now)).toBe(rotation.kid);
    expect(await verifies(a, now)).toBe(true);
    // a token of the old key (were it not expired) finds no key any more
    expect(await verifies(a, lastOfOld, jwtPayload(lastOfOld).iat * 1000)).toBe(false);
  });

  it('--now makes the new key the signer at once; the old one stays published for the tokens it signed', async () => {
    const alice = await signUp(a);
    const before = await refreshed(alice);
    const rotation = await rotate(a, '--now');
    expect(Date.parse(rotation.signsFrom)).toBe(server.clock.now);
    // this instance reads the project's keys again within its key cache's time
    server.clock.advance(KEY_CACHE_MS);
    const after = await refreshed(alice);
    expect(kidOf(after)).toBe(rotation.kid);
    expect(kidOf(before)).not.toBe(rotation.kid);
    // the earlier token, still within its lifetime
    expect(await verifies(a, before)).toBe(true);
    expect(await verifies(a, after)).toBe(true);
  });

  it('commits a rotation with its records or not at all: a record that cannot be written leaves keys and sessions as they were', async () => {
    const alice = await signUp(a);
    const keysOf = () => server.api.store.db.all('SELECT kid, published_until, signs_from FROM signing_keys WHERE project_id = ? ORDER BY kid', [a]);
    const keys = await keysOf();
    const published = (await jwksOf(a)).keys.map((k) => k.kid);
    for (const flags of [[], ['--now'], ['--revoke-previous']]) {
      // the records' INSERT fails where it runs, at the commit (Database.writeAtCommit), on either engine
      const writes = [SqliteDatabase.prototype, PostgresDatabase.prototype].map((engine) => {
        const run = engine.run;
        return vi.spyOn(engine, 'run').mockImplementation(function (this: typeof engine, sql: string, params?: readonly unknown[]) {
          return /INSERT INTO audit_pending/.test(sql) ? Promise.reject(new Error('the disk is full (injected)')) : run.call(this, sql, params);
        });
      });
      try {
        await expect(rotate(a, ...flags)).rejects.toThrow(/injected/);
      } finally {
        for (const write of writes) write.mockRestore();
      }
      expect(await keysOf()).toEqual(keys);
      expect((await jwksOf(a)).keys.map((k) => k.kid)).toEqual(published);
    }
    // the revocation that failed ended no session
    expect((await alice.request('POST', '/v2/me/refresh')).status).toBe(200);
    // unhindered, the rotation commits with its record
    const rotation = await rotate(a, '--now');
    await sealPending(server.api.store);
    const created = await server.api.store.audit.page({ projectId: a, event: 'signing_key.created' }, 0, 1000);
    expect(created.at(-1)).toMatchObject({ actor: 'admin', target: `key:${rotation.kid}` });
  });

  it('--revoke-previous: the old key leaves the JWKS at once, deleted, and every live session of the project ends, each recorded; the other project is untouched', async () => {
    const alice = await signUp(a);
    const carol = await signUp(a);
    const bob = await signUp(b);
    const leaked = await refreshed(alice);
    const bobsToken = await refreshed(bob);
    const now = server.clock.now;
    // every key of the project still published: the current signer, and those kept for the tokens they signed
    const published = (await jwksOf(a)).keys.map((k) => k.kid);
    expect(published.length).toBeGreaterThanOrEqual(2);
    expect(published).toContain(kidOf(leaked));
    const live = (await server.api.store.db.all<{ id: string }>('SELECT id FROM sessions WHERE project_id = ? AND revoked_at IS NULL AND expires_at > ? ORDER BY id', [a, now])).map((r) => r.id);
    expect(live.length).toBeGreaterThanOrEqual(2);

    const rotation = (await rotate(a, '--revoke-previous')) as RotationResult & { sessionsEnded: number };
    expect(rotation).toMatchObject({ project: a, revoked: true, signsFrom: new Date(now).toISOString(), sessionsEnded: live.length });
    expect(rotation.replaced).toEqual([...published].sort().map((kid) => ({ kid, publishedUntil: new Date(now).toISOString() })));
    // out of the key set now: a token they signed, or one forged with them, verifies no more; their private parts are deleted
    expect((await jwksOf(a)).keys.map((k) => k.kid)).toEqual([rotation.kid]);
    expect(await verifies(a, leaked)).toBe(false);
    for (const kid of published) expect(await server.api.store.db.get('SELECT kid FROM signing_keys WHERE kid = ?', [kid])).toBeUndefined();
    // everyone signed in to the project is signed out
    for (const client of [alice, carol]) expect((await client.request('POST', '/v2/me/refresh')).status).toBe(401);
    // the trail: the new key, the revoked one, and one session.ended per session, in the rotation's transaction
    await sealPending(server.api.store);
    const trail = await server.api.store.audit.page({ projectId: a }, 0, 10_000);
    const from = trail.findIndex((r) => r.event === 'signing_key.created' && r.target === `key:${rotation.kid}`);
    const written = trail.slice(from);
    const revokedRecords = published.length;
    expect(written.slice(0, 1 + revokedRecords).map((r) => [r.event, r.target, r.actor])).toEqual([
      ['signing_key.created', `key:${rotation.kid}`, 'admin'],
      ...[...published].sort().map((kid) => ['signing_key.revoked', `key:${kid}`, 'admin']),
    ]);
    const ended = written.slice(1 + revokedRecords);
    expect(ended.map((r) => r.event)).toEqual(live.map(() => 'session.ended'));
    expect(ended.map((r) => r.target).sort()).toEqual(live.map((id) => `session:${id}`).sort());
    expect(ended.map((r) => JSON.parse(r.details).reason)).toEqual(live.map(() => 'key-rotation'));
    // the other project: its key and its visitor's session stand
    expect(await verifies(b, bobsToken)).toBe(true);
    expect((await bob.request('POST', '/v2/me/refresh')).status).toBe(200);
    // a new sign-in gets a token of the new key (once this instance has read the project's keys again)
    server.clock.advance(KEY_CACHE_MS);
    const fresh = await refreshed(await signUp(a));
    expect(kidOf(fresh)).toBe(rotation.kid);
    expect(await verifies(a, fresh)).toBe(true);
  });

  it('names what is wrong: no such project, no project, an unknown flag', async () => {
    const failure = async (args: string[]) => adminErrorMessage(await runAdmin(args, databaseEnv(server.dir), server.clock.now).catch((e: unknown) => e));
    expect(await failure(['keys', 'rotate', 'pro-999999'])).toMatch(/there is no project pro-999999/);
    expect(await failure(['keys', 'rotate'])).toMatch(/a project id like pro-1000 is needed/);
    expect(await failure(['keys', 'rotate', a, '--later'])).toMatch(/^usage: /);
    expect(await failure(['keys', 'list', a])).toMatch(/^usage: /);
  });
});

describe('the server-wide key of before per-project keys', () => {
  it("signs no more after the upgrade, and stays in every project's JWKS until a token it signed could have expired", async () => {
    const before = await startTestServer();
    // the key an earlier version kept, and a token it signed just before the upgrade
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    await before.api.store.db.run('INSERT INTO signing_keys (kid, algorithm, private_key_pem, public_jwk, created_at) VALUES (?, ?, ?, ?, ?)', [
      'key-legacy',
      'ES256',
      await exportPKCS8(privateKey),
      JSON.stringify(await exportJWK(publicKey)),
      before.clock.now,
    ]);
    const iat = Math.floor(before.clock.now / 1000);
    const old = await new SignJWT({ sub: 'usr-1', aud: 'pro-1', iss: before.url })
      .setProtectedHeader({ alg: 'ES256', kid: 'key-legacy' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + 300)
      .sign(privateKey);
    await before.stop(true);
    const after = await startTestServer({ dir: before.dir, clock: before.clock });
    try {
      for (const project of ['pro-1', 'pro-2']) {
        const jwks = (await (await fetch(`${after.url}/.well-known/jwks`, { headers: { 'X-Corbado-ProjectID': project } })).json()) as JSONWebKeySet;
        expect(jwks.keys.map((k) => k.kid)).toContain('key-legacy');
      }
      const jwks = (await (await fetch(`${after.url}/.well-known/jwks`, { headers: { 'X-Corbado-ProjectID': 'pro-1' } })).json()) as JSONWebKeySet;
      await jwtVerify(old, createLocalJWKSet(jwks), { audience: 'pro-1', currentDate: new Date(after.clock.now) });
      const client = await (async () => {
        const c = new Client(after.url, 'pro-1');
        const email = uniqueEmail('legacy');
        await c.init({}, 'signup-init');
        await c.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Lee Gacy' });
        await c.step('/v2/auth/identifier/verify/finish', { code: await latestCode(after.url, email), identifierType: 'email', verificationType: 'email-otp' });
        return c;
      })();
      expect(kidOf((await client.request('POST', '/v2/me/refresh')).body.shortSession)).not.toBe('key-legacy');
      // a day (the longest short-session lifetime) and the margins later, it is gone
      after.clock.advance(86_400_000 + KEY_CACHE_MS + CLOCK_TOLERANCE_MS + 1_000);
      const later = (await (await fetch(`${after.url}/.well-known/jwks`, { headers: { 'X-Corbado-ProjectID': 'pro-1' } })).json()) as JSONWebKeySet;
      expect(later.keys.map((k) => k.kid)).not.toContain('key-legacy');
    } finally {
      await after.stop();
    }
  });
});
