/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The database file: migrations on a fresh file, restarts keeping users, sessions, keys and projects.
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../store/Database.ts';
import { migrate } from '../store/migrate.ts';
import { MIGRATIONS, type Migration } from '../store/migrations.ts';
import { openDatabase } from '../store/openDatabase.ts';
import { numberedPlaceholders, toPostgresDdl } from '../store/PostgresDatabase.ts';
import { Client, createProject, dropTestDatabase, jwtPayload, latestCode, POSTGRES_URL, startTestServer, testDatabase, uniqueEmail, type TestServer } from './helpers/testServer.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fapi-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  while (dirs.length) await dropTestDatabase(dirs.pop()!);
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

/** A fresh, empty database of the engine the suite runs on (SQLite file, or a PostgreSQL schema). */
function emptyDatabase(migrations: Migration[] = MIGRATIONS, dir = tempDir()): Promise<Database> {
  const { database, databaseSchema } = testDatabase(dir);
  return openDatabase(database, migrations, databaseSchema ? { schema: databaseSchema } : {});
}

async function tableNames(db: Database): Promise<string[]> {
  const rows =
    db.dialect === 'sqlite'
      ? await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      : await db.all<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()');
  return rows.map((r) => r.name);
}

describe('migrations', () => {
  it('creates every table on a fresh database and records the versions', async () => {
    const db = await emptyDatabase();
    try {
      const versions = (await db.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);
      expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
      const tables = await tableNames(db);
      for (const table of ['projects', 'processes', 'users', 'identifiers', 'credentials', 'verification_secrets', 'sessions', 'signing_keys', 'outbox_messages', 'rate_limit_buckets']) {
        expect(tables).toContain(table);
      }
      if (db.dialect === 'sqlite') expect(await db.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
    } finally {
      await db.close();
    }
  });

  it('runs only the migrations a database has not seen yet', async () => {
    const dir = tempDir();
    const { database, databaseSchema } = testDatabase(dir);
    const options = databaseSchema ? { schema: databaseSchema } : {};
    const ran: number[][] = [];
    for (const migrations of [MIGRATIONS.slice(0, 1), MIGRATIONS, MIGRATIONS]) {
      const db = await openDatabase(database, [], options);
      ran.push(await migrate(db, migrations));
      await db.close();
    }
    expect(ran).toEqual([[1], MIGRATIONS.slice(1).map((m) => m.version), []]);
  });

  it('rolls back a failing migration as a whole', async () => {
    const broken = [{ version: 1, name: 'broken', sql: 'CREATE TABLE a (x INTEGER); CREATE TABLE oops (' }];
    const dir = tempDir();
    await expect(emptyDatabase(broken, dir)).rejects.toThrow();
    const db = await emptyDatabase([], dir);
    try {
      expect(await tableNames(db)).not.toContain('a');
      expect(await db.get('SELECT count(*) AS n FROM schema_migrations')).toEqual({ n: 0 });
    } finally {
      await db.close();
    }
  });

  it('migrates an existing database to uniqueness among verified identifiers, keeping identifiers and their codes', async () => {
    const dir = tempDir();
    const before = await emptyDatabase(MIGRATIONS.filter((m) => m.version < 7), dir);
    const user = (id: string) => before.run(`INSERT INTO users (id, project_id, user_handle, created_at) VALUES (?, 'p', ?, 1)`, [id, `h-${id}`]);
    const identifier = (db: Database, id: string, userId: string, value: string, status: string) =>
      db.run(
        `INSERT INTO identifiers (id, user_id, project_id, type, value, normalized, status, created_at, is_primary) VALUES (?, ?, 'p', 'email', ?, ?, ?, 1, 1)`,
        [id, userId, value, value, status],
      );
    try {
      await before.run(`INSERT INTO projects (id, config, source, created_at, updated_at) VALUES ('p', '{}', 'dev', 1, 1)`);
      await user('u1');
      await user('u2');
      await identifier(before, 'i1', 'u1', 'a@example.com', 'pending');
      await before.run(
        `INSERT INTO identifier_secrets (id, identifier_id, method, identifier_type, identifier_value, secret_hash, created_at, expires_at)
         VALUES ('s1', 'i1', 'email-otp', 'email', 'a@example.com', 'hash', 1, 2)`,
      );
      // the old constraint: one holder per value, pending or not
      await expect(identifier(before, 'i2', 'u2', 'a@example.com', 'pending')).rejects.toThrow();
    } finally {
      await before.close();
    }
    const db = await emptyDatabase(MIGRATIONS, dir);
    try {
      expect(await db.all('SELECT id, user_id, status, is_primary FROM identifiers')).toEqual([{ id: 'i1', user_id: 'u1', status: 'pending', is_primary: 1 }]);
      expect(await db.all('SELECT id, identifier_id, secret_hash FROM identifier_secrets')).toEqual([{ id: 's1', identifier_id: 'i1', secret_hash: 'hash' }]);
      // pending copies of one value on several accounts; one verified holder; once per user
      await identifier(db, 'i2', 'u2', 'a@example.com', 'pending');
      await db.run(`UPDATE identifiers SET status = 'verified' WHERE id = 'i2'`);
      await expect(db.run(`UPDATE identifiers SET status = 'verified' WHERE id = 'i1'`)).rejects.toThrow('unique');
      await expect(identifier(db, 'i3', 'u2', 'a@example.com', 'pending')).rejects.toThrow('unique');
      // the codes still follow their identifier
      await db.run(`DELETE FROM identifiers WHERE id = 'i1'`);
      expect(await db.get('SELECT count(*) AS n FROM identifier_secrets')).toEqual({ n: 0 });
    } finally {
      await db.close();
    }
  });

  it('maps the SQLite type names of the migrations to PostgreSQL', () => {
    expect(toPostgresDdl('seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, key BLOB')).toBe('seq BIGSERIAL PRIMARY KEY, at BIGINT NOT NULL, key BYTEA');
    expect(numberedPlaceholders("SELECT * FROM t WHERE a = ? AND b = '?' AND c = ?")).toBe("SELECT * FROM t WHERE a = $1 AND b = '?' AND c = $2");
  });
});

describe('restart', () => {
  it('keeps users, sessions and the signing key: a token issued before a restart still verifies', async () => {
    const dir = tempDir();
    const first = await startTestServer({ dir });
    const { email, client, shortSession } = await signUp(first);
    const jwksBefore = (await (await fetch(`${first.url}/projects/pro-1/.well-known/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
    await first.stop(true);

    const second = await startTestServer({ dir, clock: first.clock });
    try {
      const jwks = (await (await fetch(`${second.url}/projects/pro-1/.well-known/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
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
    const id = await createProject(first.url, { appName: 'Persistent' });
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
      expect(await createProject(second.url, {})).not.toBe(id);
    } finally {
      await second.stop();
    }
  });

  it('applies edits of the projects file at every start', async () => {
    const dir = tempDir();
    const seedFile = join(dir, 'projects.json');
    const original = JSON.parse(readFileSync(new URL('../projects.json', import.meta.url), 'utf8')) as { projects: Record<string, unknown>[] };
    writeFileSync(seedFile, JSON.stringify(original));
    const options = { dir, api: { seedFile, demoOrigin: 'http://demo.test:8080' } };
    const first = await startTestServer(options);
    const before = await new Client(first.url, 'pro-1', 'http://demo.test:8080').request('GET', '/v2/session-config');
    expect(before.status).toBe(200);
    await first.stop(true);

    original.projects[0] = { ...original.projects[0], appName: 'Renamed App', allowedOrigins: ['${DEMO_ORIGIN}', 'https://extra.example'] };
    writeFileSync(seedFile, JSON.stringify(original));
    const second = await startTestServer(options);
    try {
      const client = new Client(second.url, 'pro-1', 'https://extra.example');
      const res = await client.init({}, 'signup-init');
      expect(res.body.processResponse.common.appName).toBe('Renamed App');
      expect((await new Client(second.url, 'pro-1', 'http://localhost:5173').request('GET', '/v2/session-config')).status).toBe(403);
    } finally {
      await second.stop();
    }
  });

  it('stores codes, link tokens and long sessions only as hashes', async () => {
    const dir = tempDir();
    const server = await startTestServer({ dir });
    const { client, email } = await signUp(server);
    const code = await latestCode(server.url, email);
    const db = server.api.store.db;
    const dump = JSON.stringify([
      await db.all('SELECT * FROM verification_secrets'),
      await db.all('SELECT * FROM sessions'),
      await db.all('SELECT * FROM processes'),
    ]);
    await server.stop();
    expect(dump).not.toContain(client.longSession!);
    expect(dump).not.toContain(client.processToken!);
    expect(dump).not.toContain(`"${code}"`);
  });
});

describe('many requests at once', () => {
  // a pool of connections exists only on PostgreSQL (SQLite ignores databasePoolSize): npm run test:postgres
  it.runIf(POSTGRES_URL)('finish sign-ups beyond the number of database connections (the limit counters never wait for a held one)', async () => {
    const server = await startTestServer({ api: { databasePoolSize: 2 } });
    try {
      const signUps = Array.from({ length: 8 }, async (_, i) => {
        const client = new Client(server.url, 'pro-1');
        await client.init({ isUserVerifyingPlatformAuthenticatorAvailable: false }, 'signup-init');
        const email = uniqueEmail(`crowd-${i}`);
        const verify = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Crowd' });
        expect(verify.block).toBe('email-verify');
        const done = await client.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email), identifierType: 'email', verificationType: 'email-otp' });
        return done.block;
      });
      expect(await Promise.all(signUps)).toEqual(Array(8).fill('completed'));
    } finally {
      await server.stop();
    }
  });
});
