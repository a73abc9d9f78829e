// What a sign-up call costs the database: the statements each call runs (a ceiling that a change adding
// one per call has to raise here, in view), a statement with nothing running that takes no queue turn,
// and a project's configuration parsed once per stored text (issue 34).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealPending } from '../audit/sealer.ts';
import { UniqueViolation, type Database } from '../store/Database.ts';
import { openDatabase } from '../store/openDatabase.ts';
import { ProjectsRepo } from '../store/ProjectsRepo.ts';
import { SqliteDatabase } from '../store/SqliteDatabase.ts';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { KeyRing } from '../session/KeyRing.ts';
import { KeyStore } from '../session/KeyStore.ts';
import { projectBuilder } from '../config/projectConfig.ts';
import { DatabaseUnavailable } from '../store/DatabaseUnavailable.ts';
import { PostgresDatabase } from '../store/PostgresDatabase.ts';
import { Client, dropTestDatabase, latestCode, POSTGRES_URL, startTestServer, testDatabase, uniqueEmail, type TestServer } from './helpers/testServer.ts';

const tempFile = (name: string) => join(mkdtempSync(join(tmpdir(), 'fapi-cost-')), name);

/** Calls `seen` with the text of every statement the server's database runs from now on. */
function onEachStatement(server: TestServer, seen: (sql: string) => void): void {
  const db = server.api.store.db as Database;
  for (const method of ['all', 'get', 'run'] as const) {
    const original = db[method].bind(db) as (sql: string, params?: readonly unknown[]) => Promise<unknown>;
    (db as unknown as Record<string, unknown>)[method] = (sql: string, params?: readonly unknown[]) => {
      seen(sql);
      return original(sql, params);
    };
  }
}

/**
 * What Database.writeAtCommit promises on either engine: nothing written before the commit, written after
 * the beforeCommit hooks (a write given by a hook too), in order where they write one table, a savepoint
 * rolled back drops its own, and a failing write rolls the whole transaction back.
 */
async function writesAtCommit(db: Database): Promise<void> {
  await db.exec('CREATE TABLE at_commit (k TEXT PRIMARY KEY, v INTEGER); CREATE TABLE at_commit_log (id INTEGER PRIMARY KEY AUTOINCREMENT, k TEXT NOT NULL)');
  await db.transaction(() => db.run('INSERT INTO at_commit (k, v) VALUES (?, ?)', ['a', 0]));
  const v = (k: string) => db.get<{ v: number }>('SELECT v FROM at_commit WHERE k = ?', [k]);
  const log = (k: string) => db.writeAtCommit('INSERT INTO at_commit_log (k) VALUES (?)', [k]);
  let inHook: unknown;
  await db.transaction(async () => {
    db.writeAtCommit('UPDATE at_commit SET v = ? WHERE k = ?', [1, 'a']);
    await db
      .transaction(async () => {
        db.writeAtCommit('INSERT INTO at_commit (k, v) VALUES (?, ?)', ['dropped', 1]);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    db.beforeCommit(async () => log('first'));
    db.beforeCommit(async () => log('second'));
    // a hook given after the write still runs before it
    db.beforeCommit(async () => void (inHook = await v('a')));
    expect(await v('a')).toEqual({ v: 0 });
  });
  expect(inHook).toEqual({ v: 0 });
  expect(await db.all('SELECT k, v FROM at_commit ORDER BY k')).toEqual([{ k: 'a', v: 1 }]);
  expect((await db.all<{ k: string }>('SELECT k FROM at_commit_log ORDER BY id')).map((r) => r.k)).toEqual(['first', 'second']);
  await expect(
    db.transaction(async () => {
      await db.run('UPDATE at_commit SET v = ? WHERE k = ?', [5, 'a']);
      db.writeAtCommit('INSERT INTO at_commit (k, v) VALUES (?, ?)', ['a', 3]);
    }),
  ).rejects.toBeInstanceOf(UniqueViolation);
  expect(await v('a')).toEqual({ v: 1 });
  expect(() => log('outside')).toThrow(/needs a transaction/);
  await expect(db.transaction(async () => db.writeAtCommit('SELECT 1', []))).rejects.toThrow(/INSERT, UPDATE or DELETE/);
}

describe('statements per sign-up call (SQLite)', () => {
  let server: TestServer;
  const statements: string[] = [];

  beforeAll(async () => {
    // a SQLite file whatever TEST_DATABASE_URL says: the ceilings are SQLite's
    server = await startTestServer({ api: { database: tempFile('db.sqlite') } });
    // the call's own statements: the sealer's, in a transaction of its own that may begin while a call
    // runs, are not the call's (the records a call stages are: INSERT INTO audit_pending)
    onEachStatement(server, (sql) => {
      if (!/\baudit_/.test(sql) || /^\s*INSERT INTO audit_pending\b/.test(sql)) statements.push(sql);
    });
  });
  afterAll(() => server.stop());

  /** each call's statements in the last signUp() */
  const ran: Record<string, string[]> = {};

  async function signUp(): Promise<Record<string, number>> {
    const measured = async <T>(name: string, call: () => Promise<T>): Promise<T> => {
      statements.length = 0;
      const result = await call();
      ran[name] = [...statements];
      return result;
    };
    const client = new Client(server.url, 'pro-1');
    await measured('process/init', () => client.init({}, 'signup-init'));
    const email = uniqueEmail('cost');
    await measured('signup/init', () => client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Cost' }));
    const code = await latestCode(server.url, email);
    const finished = await measured('verify/finish', () =>
      client.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false }),
    );
    expect(['completed', 'passkey-append']).toContain((finished as { block: string }).block);
    return Object.fromEntries(Object.entries(ran).map(([name, run]) => [name, run.length]));
  }

  it('stays within its statements per call once the project has its signing key', async () => {
    await signUp(); // the first sign-up makes the project's signing key
    const counts = await signUp();
    // c734180 ran 4 / 17 / 17; since then: rate limits per address (an attempt's two windows read in one
    // statement), the audit trail's records staged in the same transaction (one INSERT; the sealer's
    // statements are its own), webhook endpoints read in it; and cut: the process's state written once
    // per call, the session of a user created in the same call started from what was inserted (no read
    // of the user or its identifiers, no retired values to prune)
    expect(counts['process/init']).toBeLessThanOrEqual(4);
    expect(counts['signup/init']).toBeLessThanOrEqual(16);
    expect(counts['verify/finish']).toBeLessThanOrEqual(13);
  });

  it('writes the process\'s state once in a call that changes it several times, and reads nothing back of a user it created', async () => {
    await signUp();
    const verify = ran['verify/finish']!;
    // the sign-up's completion moved the block, created the user and handed out the session: one write
    expect(verify.filter((sql) => /^\s*UPDATE processes SET state\b/.test(sql))).toHaveLength(1);
    expect(verify.filter((sql) => /^\s*SELECT \* FROM users WHERE id\b|FROM identifiers WHERE user_id = \?|retired_session_tokens/.test(sql))).toEqual([]);
  });
});

describe('the audit trail\'s statements in a completed sign-up', () => {
  // the request's transaction stages its records and nothing else of the trail: no chain head read or
  // locked, no counter, no activity row (on PostgreSQL every other write of the project waited for those
  // until the commit; on SQLite their pages were written in every sign-up's commit). The sealer does
  // that afterwards, for many records at once: on PostgreSQL the records, the head and the day's
  // counters in one statement, on SQLite one by one
  it(`stages the records in one statement (with the process's state on PostgreSQL); the sealer reads the head and writes the rest in ${POSTGRES_URL ? 'one statement (PostgreSQL)' : 'three (SQLite)'}`, async () => {
    const server = await startTestServer();
    try {
      const trail: string[] = [];
      const whole: string[] = [];
      onEachStatement(server, (sql) => {
        if (!/\baudit_/.test(sql)) return;
        trail.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
        whole.push(sql.replace(/\s+/g, ' ').trim());
      });
      const client = new Client(server.url, 'pro-1');
      await client.init({}, 'signup-init');
      const email = uniqueEmail('trail-cost');
      await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Trail Cost' });
      const code = await latestCode(server.url, email);
      await sealPending(server.api.store);
      trail.length = 0;
      whole.length = 0;
      await client.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false });
      await sealPending(server.api.store);
      // signup.succeeded and session.created: staged by the request; chained, counted and the new user
      // noted active by the sealer (its pass may have begun before the answer arrived)
      const sealing = trail.findIndex((sql) => sql.startsWith('SELECT id,'));
      if (POSTGRES_URL) {
        // at the commit, with the new user's session and the process's state: one round trip for the three (Database.writeAtCommit)
        expect(whole.slice(0, sealing)).toEqual([
          expect.stringMatching(/^WITH w0 AS \(INSERT INTO sessions \(.*\), w1 AS \(UPDATE processes SET state = \? WHERE id = \?\), w2 AS \(INSERT INTO audit_pending \(/),
        ]);
      } else {
        expect(trail.slice(0, sealing)).toEqual(['INSERT INTO audit_pending']);
      }
      const passes = trail.slice(sealing);
      // a pass that found nothing more (one asked for while the first ran)
      while (passes.length > 1 && passes.at(-1) === 'SELECT id, project_id,') passes.pop();
      expect(passes).toEqual([
        'SELECT id, project_id,',
        'INSERT INTO audit_user_activity',
        'SELECT seq, hash,',
        ...(POSTGRES_URL ? ['WITH records AS'] : ['INSERT INTO audit_events', 'INSERT INTO audit_heads', 'INSERT INTO audit_daily']),
        'DELETE FROM audit_pending',
      ]);
    } finally {
      await server.stop();
    }
  });
});

describe('indexes written by each insert', () => {
  it('none of them is a leading part of another full index of its table (that one serves its lookups already)', async () => {
    // a unique or partial index states a rule of its own (unique among fewer columns, or among some rows): never redundant
    const db = await openDatabase(':memory:');
    try {
      const redundant: string[] = [];
      for (const { name: table } of await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")) {
        const indexes = await db.all<{ name: string; unique: number; partial: number }>('SELECT name, "unique", partial FROM pragma_index_list(?)', [table]);
        const columns = new Map<string, string[]>();
        for (const index of indexes) {
          columns.set(index.name, (await db.all<{ name: string }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno', [index.name])).map((c) => c.name));
        }
        for (const shorter of indexes) {
          for (const longer of indexes) {
            const [a, b] = [columns.get(shorter.name)!, columns.get(longer.name)!];
            if (shorter === longer || shorter.unique || shorter.partial || longer.partial || a.length > b.length || a.some((c, i) => c !== b[i])) continue;
            // two plain indexes with the same columns: one of them is named
            if (a.length === b.length && !longer.unique && shorter.name > longer.name) continue;
            redundant.push(`${table}: ${shorter.name} (${a.join(', ')}) within ${longer.name} (${b.join(', ')})`);
          }
        }
      }
      expect(redundant).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe('a short session signed inside its transaction', () => {
  it('is signed without a turn of the event loop (no hop to the thread pool) and verifies with the published key', async () => {
    const server = await startTestServer({ api: { database: tempFile('db.sqlite') } });
    try {
      const ring = new KeyRing(server.api.store, new KeyStore(server.api.store, undefined), Date.now);
      await ring.sign('pro-1', { sub: 'usr-1' }); // the project's key made and opened
      let turned = false;
      setImmediate(() => (turned = true));
      const token = await ring.sign('pro-1', { sub: 'usr-2', aud: 'pro-1' });
      expect(turned).toBe(false);
      const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(await ring.jwks('pro-1')), { audience: 'pro-1' });
      expect(payload.sub).toBe('usr-2');
      expect(protectedHeader).toEqual({ alg: 'ES256', typ: 'JWT', kid: (await ring.jwks('pro-1')).keys[0]!.kid });
    } finally {
      await server.stop();
    }
  });
});

describe('SQLite statements outside a transaction', () => {
  let db: SqliteDatabase;
  beforeAll(async () => {
    db = await SqliteDatabase.open(':memory:');
  });
  afterAll(() => db.close());

  it('written at commit: after the hooks, in order, without a savepoint rolled back, or not at all', () => writesAtCommit(db));

  it('run at once with nothing running: no queue turn taken', async () => {
    const answer = db.get<{ one: number }>('SELECT 1 AS one');
    expect(db.pools()[0]!.inUse).toBe(0);
    expect(await answer).toEqual({ one: 1 });
  });

  it('wait for a running transaction to end, never slipping into it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await db.exec('CREATE TABLE t (n INTEGER)');
    const transaction = db.transaction(async () => {
      await db.run('INSERT INTO t (n) VALUES (1)');
      await held;
      throw new Error('rolled back');
    });
    // outside the transaction's own context: the statement is queued behind it
    const outside = db.run('INSERT INTO t (n) VALUES (2)');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(db.pools()[0]!.waiting).toBe(1);
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    await outside;
    // the rollback took the transaction's row only; the outside statement's row stayed
    expect(await db.all('SELECT n FROM t')).toEqual([{ n: 2 }]);
  });
});

describe("a project's configuration", () => {
  it('is parsed once per stored text, shared frozen, and read afresh once changed', async () => {
    const db = await openDatabase(':memory:');
    try {
      const projects = new ProjectsRepo(db);
      const created = await projects.create(projectBuilder({ appName: 'Before', allowedOrigins: ['https://shop.example'] }, undefined), 1);
      const first = await projects.get(created.id);
      expect(await projects.get(created.id)).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      expect(Object.isFrozen(first!.identifiers.email)).toBe(true);
      // changed by another instance or the admin command: the stored text differs, so it is parsed again
      await db.run('UPDATE projects SET config = ? WHERE id = ?', [JSON.stringify({ ...created, appName: 'After' }), created.id]);
      expect((await projects.get(created.id))!.appName).toBe('After');
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(!POSTGRES_URL)('PostgreSQL statements', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fapi-cost-pg-'));
  let db: PostgresDatabase;
  beforeAll(async () => {
    // one connection per pool, so that every statement below meets the one that prepared it
    db = await PostgresDatabase.open(POSTGRES_URL!, [], { schema: testDatabase(dir).databaseSchema!, poolSize: 1 });
  });
  afterAll(async () => {
    await db.close();
    await dropTestDatabase(dir);
  });

  it('run prepared: a connection parses each statement once, then binds and executes it', async () => {
    const prepared = await db.transaction(async () => {
      await db.get('SELECT ? + 1 AS next', [41]);
      expect(await db.get('SELECT ? + 1 AS next', [1])).toEqual({ next: 2 });
      return db.all<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
    });
    expect(prepared.map((p) => p.statement)).toContain('SELECT $1 + 1 AS next');
  });

  it('written at commit: after the hooks, in order, without a savepoint rolled back, or not at all; together in one statement but for a table already in it', async () => {
    await writesAtCommit(db);
    const prepared = await db.transaction(() => db.all<{ statement: string }>('SELECT statement FROM pg_prepared_statements'));
    // the update and the first record in one statement; the second record of the same table in the next, after it
    expect(prepared.map((p) => p.statement)).toEqual(
      expect.arrayContaining(['WITH w0 AS (UPDATE at_commit SET v = $1 WHERE k = $2), w1 AS (INSERT INTO at_commit_log (k) VALUES ($3)) SELECT 1', 'INSERT INTO at_commit_log (k) VALUES ($1)']),
    );
  });

  it('go with the transaction control beside them: BEGIN and a savepoint with the next statement, the COMMIT with the last write, one round trip each', async () => {
    await db.exec('CREATE TABLE round_trips (k TEXT PRIMARY KEY, v INTEGER)');
    // what the connection is asked to send, one entry per round trip (a pipeline's parts joined by " + ")
    const sent: string[] = [];
    const query = pg.Client.prototype.query;
    const describe = (config: { text?: string; before?: string[]; after?: string } | string) =>
      typeof config === 'string' ? config : [...(config.before ?? []), config.text, ...(config.after ? [config.after] : [])].join(' + ');
    (pg.Client.prototype as unknown as { query: unknown }).query = function (this: pg.Client, config: never, ...rest: never[]) {
      sent.push(describe(config));
      return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
    };
    const insert = 'INSERT INTO round_trips (k, v) VALUES ($1, $2)';
    const oneTransaction = (run: string) =>
      db.transaction(async () => {
        await db.run('INSERT INTO round_trips (k, v) VALUES (?, ?)', [`${run}a`, 1]);
        await db.transaction(() => db.run('INSERT INTO round_trips (k, v) VALUES (?, ?)', [`${run}b`, 2]));
        // a savepoint in which nothing ran is never sent
        await db.transaction(async () => undefined);
        // one that failed after a statement is rolled back, with the next statement
        await db
          .transaction(async () => {
            await db.run('INSERT INTO round_trips (k, v) VALUES (?, ?)', [`${run}c`, 3]);
            throw new Error('changed its mind');
          })
          .catch(() => undefined);
        expect(await db.get('SELECT COUNT(*) AS n FROM round_trips WHERE k LIKE ?', [`${run}%`])).toEqual({ n: 2 });
        db.writeAtCommit('UPDATE round_trips SET v = v + 10 WHERE k = ?', [`${run}a`]);
      });
    let second: string[];
    try {
      await oneTransaction('first'); // the connection parses each statement (a statement parsed here is sent after the control)
      sent.length = 0;
      await oneTransaction('second');
      second = sent.splice(0);
      await expect(db.transaction(() => db.run('INSERT INTO round_trips (k, v) VALUES (?, ?)', ['seconda', 0]))).rejects.toBeInstanceOf(UniqueViolation);
      await db.transaction(async () => undefined);
    } finally {
      (pg.Client.prototype as unknown as { query: unknown }).query = query;
    }
    expect(second).toEqual([
      `BEGIN + ${insert}`,
      `SAVEPOINT sp1 + ${insert}`,
      `RELEASE SAVEPOINT sp1 + SAVEPOINT sp3 + ${insert}`,
      'ROLLBACK TO SAVEPOINT sp3 + SELECT COUNT(*) AS n FROM round_trips WHERE k LIKE $1',
      'UPDATE round_trips SET v = v + 10 WHERE k = $1 + COMMIT',
    ]);
    expect(await db.all('SELECT k, v FROM round_trips ORDER BY k')).toEqual([
      { k: 'firsta', v: 11 },
      { k: 'firstb', v: 2 },
      { k: 'seconda', v: 11 },
      { k: 'secondb', v: 2 },
    ]);
    // a transaction that failed at its first statement: the BEGIN went with it, the ROLLBACK follows; no statement at all: nothing sent
    expect(sent).toEqual([`BEGIN + ${insert}`, 'ROLLBACK']);
    expect(await db.get('SELECT v FROM round_trips WHERE k = ?', ['seconda'])).toEqual({ v: 11 });
  });

  it('answer 503 once when a migration changed a table under a prepared SELECT *, and work again on a fresh connection', async () => {
    await db.exec('CREATE TABLE changing (a INTEGER)');
    await db.run('INSERT INTO changing (a) VALUES (?)', [1]);
    const read = () => db.transaction(() => db.all('SELECT * FROM changing'));
    expect(await read()).toEqual([{ a: 1 }]);
    await db.exec('ALTER TABLE changing ADD COLUMN b INTEGER');
    await expect(read()).rejects.toBeInstanceOf(DatabaseUnavailable);
    expect(await read()).toEqual([{ a: 1, b: null }]);
  });
});
