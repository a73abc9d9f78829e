/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The database file: migrations on a fresh file, restarts keeping users, sessions, keys and projects.
import Database from 'better-sqlite3';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startApi } from '../app.ts';
import { MIGRATIONS } from '../store/migrations.ts';
import { migrate, openDatabase } from '../store/openDatabase.ts';
import { Client, jwtPayload, latestCode, startTestServer, uniqueEmail, type TestServer } from './helpers/testServer.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fapi-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function verifyJwt(token: string, jwk: Record<string, unknown>): boolean {
  const [h, p, s] = token.split('.') as [string, string, string];
  return verify('sha256', Buffer.from(`${h}.${p}`), { key: createPublicKey({ key: jwk as any, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
}

async function signUp(server: TestServer): Promise<{ email: string; client: Client; shortSession: string }> {
  const client = new Client(server.url, 'pro-1');
  await client.init({}, 'signup-init');
  const email = uniqueEmail('restart');
  await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Re Start' });
  const completed = await client.step('/v2/auth/identifier/verify/finish', {
    code: await latestCode(server.url, email),
    identifierType: 'email',
    verificationType: 'email-otp',
    isNewDevice: false,
  });
  return { email, client, shortSession: completed.data.shortSession };
}

describe('migrations', () => {
  it('creates every table on a fresh file and records the versions', () => {
    const path = join(tempDir(), 'nested', 'fresh.sqlite');
    const db = openDatabase(path);
    const versions = (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map((r) => r.version);
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    for (const table of ['projects', 'processes', 'users', 'identifiers', 'credentials', 'verification_secrets', 'sessions', 'signing_keys', 'outbox_messages']) {
      expect(tables).toContain(table);
    }
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('runs only the migrations a file has not seen yet', () => {
    const path = join(tempDir(), 'partial.sqlite');
    const db = new Database(path);
    expect(migrate(db, MIGRATIONS.slice(0, 1))).toEqual([1]);
    expect(migrate(db, MIGRATIONS)).toEqual(MIGRATIONS.slice(1).map((m) => m.version));
    expect(migrate(db, MIGRATIONS)).toEqual([]);
    db.close();
  });

  it('rolls back a failing migration as a whole', () => {
    const db = new Database(join(tempDir(), 'broken.sqlite'));
    const broken = [{ version: 1, name: 'broken', sql: 'CREATE TABLE a (x); CREATE TABLE oops (' }];
    expect(() => migrate(db, broken)).toThrow();
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'a'").get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: 0 });
    db.close();
  });
});

describe('restart', () => {
  it('keeps users, sessions and the signing key: a token issued before a restart still verifies', async () => {
    const dir = tempDir();
    const first = await startTestServer({ dir });
    const { email, client, shortSession } = await signUp(first);
    const jwksBefore = (await (await fetch(`${first.url}/.well-known/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
    await first.stop(true);

    const second = await startTestServer({ dir, clock: first.clock });
    try {
      const jwks = (await (await fetch(`${second.url}/.well-known/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
      expect(jwks).toEqual(jwksBefore);
      const [header] = shortSession.split('.');
      expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toMatchObject({ alg: 'ES256', kid: jwks.keys[0]!.kid });
      expect(verifyJwt(shortSession, jwks.keys[0]!)).toBe(true);
      expect(verifyJwt(shortSession.slice(0, -4) + 'AAAA', jwks.keys[0]!)).toBe(false);

      const again = new Client(second.url, 'pro-1');
      again.longSession = client.longSession;
      const me = await again.request('GET', '/v2/me');
      expect(me.status).toBe(200);
      expect(me.body.identifiers[0].value).toBe(email);
      const refreshed = await again.request('POST', '/v2/me/refresh');
      expect(verifyJwt(refreshed.body.shortSession, jwks.keys[0]!)).toBe(true);
      expect(jwtPayload(refreshed.body.shortSession).sub).toBe(me.body.id);

      const taken = new Client(second.url, 'pro-1');
      await taken.init({}, 'signup-init');
      const res = await taken.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Copy' });
      expect(res.data.identifiers[0].error.code).toBe('identifier_already_in_use');
    } finally {
      await second.stop();
    }
  });

  it('keeps processes and dev projects across a restart', async () => {
    const dir = tempDir();
    const first = await startTestServer({ dir });
    const created = await fetch(`${first.url}/_dev/projects`, { method: 'POST', body: JSON.stringify({ appName: 'Persistent' }) });
    const { id } = (await created.json()) as { id: string };
    const client = new Client(first.url, id);
    await client.init({}, 'signup-init');
    await first.stop(true);
    const second = await startTestServer({ dir, clock: first.clock });
    try {
      const moved = new Client(second.url, id);
      moved.processToken = client.processToken;
      const res = await moved.request('GET', '/v2/auth/process');
      expect(res.status).toBe(200);
      expect(res.body.common.appName).toBe('Persistent');
      const next = await fetch(`${second.url}/_dev/projects`, { method: 'POST', body: '{}' });
      expect(((await next.json()) as { id: string }).id).not.toBe(id);
    } finally {
      await second.stop();
    }
  });

  it('applies edits of the projects file at every start', async () => {
    const dir = tempDir();
    const seedFile = join(dir, 'projects.json');
    const original = JSON.parse(readFileSync(new URL('../projects.json', import.meta.url), 'utf8')) as Record<string, unknown>[];
    writeFileSync(seedFile, JSON.stringify(original));
    const options = { port: 0, host: '127.0.0.1', databasePath: join(dir, 'db.sqlite'), seedFile, demoOrigin: 'http://demo.test:8080', logger: { info() {}, error() {} } };
    const first = await startApi(options);
    const before = await new Client(first.url, 'pro-1', 'http://demo.test:8080').request('GET', '/v2/session-config');
    expect(before.status).toBe(200);
    await first.close();

    original[0] = { ...original[0], appName: 'Renamed App', allowedOrigins: ['${DEMO_ORIGIN}', 'https://extra.example'] };
    writeFileSync(seedFile, JSON.stringify(original));
    const second = await startApi(options);
    try {
      const client = new Client(second.url, 'pro-1', 'https://extra.example');
      const res = await client.init({}, 'signup-init');
      expect(res.body.processResponse.common.appName).toBe('Renamed App');
      expect((await new Client(second.url, 'pro-1', 'http://localhost:5173').request('GET', '/v2/session-config')).status).toBe(403);
    } finally {
      await second.close();
    }
  });

  it('stores codes, link tokens and long sessions only as hashes', async () => {
    const dir = tempDir();
    const server = await startTestServer({ dir });
    const { client, email } = await signUp(server);
    const code = (await (await fetch(`${server.url}/_dev/messages?to=${encodeURIComponent(email)}`)).json()) as { code: string }[];
    await server.stop(true);
    const db = new Database(join(dir, 'db.sqlite'), { readonly: true });
    const dump = JSON.stringify([
      db.prepare('SELECT * FROM verification_secrets').all(),
      db.prepare('SELECT * FROM sessions').all(),
      db.prepare('SELECT * FROM processes').all(),
    ]);
    db.close();
    expect(dump).not.toContain(client.longSession!);
    expect(dump).not.toContain(client.processToken!);
    expect(dump).not.toContain(`"${code[0]!.code}"`);
  });
});
