/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The audit trail's chain (issue 32): a record altered, deleted or re-linked in the database by hand is
// named by `npm run admin -- audit verify`; retention removes old records in batches and the check
// still passes from the oldest kept record; the adoption figures of a seeded project are the ones its
// records imply. On SQLite, and on PostgreSQL with TEST_DATABASE_URL (npm run test:postgres), where
// concurrent writers of one project must not fork the chain either.
import { afterEach, describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.ts';
import { applyRetention, projectStats } from '../audit/auditReader.ts';
import { AuditTrail, withAuditScope } from '../audit/AuditTrail.ts';
import { sealPending } from '../audit/sealer.ts';
import { AUDIT_COUNT_CAP, AUDIT_PAGE_WINDOW } from '../backend/auditApi.ts';
import { auditHash } from '../store/AuditRepo.ts';
import { Store } from '../store/Store.ts';
import { backendCall, newSecret } from './helpers/backendApiClient.ts';
import { databaseEnv, POSTGRES_URL, startTestServer, testDatabase, type TestServer } from './helpers/testServer.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PROJECT = 'pro-1';
const MAC_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function server(): Promise<TestServer> {
  const started = await startTestServer({ api: { backendApiPort: 0 } });
  cleanups.push(() => started.stop());
  return started;
}

function trail(s: TestServer): AuditTrail {
  return new AuditTrail(s.api.store, () => s.clock.now);
}

/** Records `n` events of a user, as a request from `userAgent` would, and has them chained (as the sealer does some ms later). */
async function record(s: TestServer, n: number, event = 'login.succeeded', userAgent = MAC_CHROME): Promise<void> {
  for (let i = 0; i < n; i++) {
    await withAuditScope({ ip: '203.0.113.7', userAgent, requestId: `req-${i}` }, () => trail(s).record(PROJECT, { event, userId: `usr-${i}`, details: { method: 'email-otp' } }));
  }
  await sealPending(s.api.store);
}

function verify(s: TestServer): Promise<any> {
  return runAdmin(['audit', 'verify', PROJECT], databaseEnv(s.dir));
}

const db = (s: TestServer) => s.api.store.db;

describe('audit verify', () => {
  it('takes thousands of records in one transaction (a revoked key ends every live session, each recorded) and verifies them', async () => {
    const s = await server();
    const many = trail(s);
    // 5,000 records of 16 values each: more than one statement takes on SQLite (32,766) and PostgreSQL (65,535)
    await s.api.store.transaction(async () => {
      for (let i = 0; i < 5_000; i++) await many.record(PROJECT, { event: 'session.ended', userId: `usr-${i}`, target: `session:ses-${i}`, details: { reason: 'key-rotation' } });
    });
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: true, records: 5_000 });
  }, 60_000);

  it('passes a whole chain and names a record edited in the database', async () => {
    const s = await server();
    await record(s, 6);
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: true, records: 6 });
    await db(s).run("UPDATE audit_events SET ip = '198.51.100.1' WHERE project_id = ? AND seq = 3", [PROJECT]);
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: false, records: 2, broken: { seq: 3, problem: 'record 3 was altered: its hash does not fit its content' } });
  });

  it('names a record edited with its hash recomputed: the next one no longer follows', async () => {
    const s = await server();
    await record(s, 5);
    const row = (await s.api.store.audit.page({ projectId: PROJECT }, 1, 1))[0]!;
    const forged = { ...row, details: JSON.stringify({ method: 'passkey' }) };
    await db(s).run('UPDATE audit_events SET details = ?, hash = ? WHERE project_id = ? AND seq = 2', [forged.details, auditHash(forged), PROJECT]);
    expect((await verify(s)).broken).toEqual({ seq: 3, problem: 'record 3 does not follow record 2' });
  });

  it('names a record deleted in the middle, and the newest one deleted', async () => {
    const s = await server();
    await record(s, 5);
    await db(s).run('DELETE FROM audit_events WHERE project_id = ? AND seq = 4', [PROJECT]);
    expect((await verify(s)).broken).toEqual({ seq: 4, problem: 'record 4 is missing' });
    const t = await server();
    await record(t, 5);
    await db(t).run('DELETE FROM audit_events WHERE project_id = ? AND seq = 5', [PROJECT]);
    expect((await verify(t)).broken).toEqual({ seq: 5, problem: 'record 5 is missing (the newest is 5)' });
  });

  it('names the oldest records deleted by hand (not by retention)', async () => {
    const s = await server();
    await record(s, 4);
    await db(s).run('DELETE FROM audit_events WHERE project_id = ? AND seq <= 2', [PROJECT]);
    expect((await verify(s)).broken).toEqual({ seq: 1, problem: 'record 1 is missing' });
  });
});

describe('the same transaction', () => {
  it('a change rolled back leaves no record and no count; the next record goes on the chain', async () => {
    const s = await server();
    await record(s, 2);
    await expect(
      s.api.store.transaction(async () => {
        await trail(s).record(PROJECT, { event: 'login.succeeded', userId: 'usr-x', details: { method: 'passkey' } });
        throw new Error('the change failed after its record');
      }),
    ).rejects.toThrow('the change failed');
    await sealPending(s.api.store);
    expect((await s.api.store.audit.page({ projectId: PROJECT }, 0, 10)).map((r) => r.userId)).toEqual(['usr-0', 'usr-1']);
    expect((await projectStats(s.api.store, PROJECT, 1, s.clock.now)).logins).toEqual({ 'email-otp': 2 });
    await record(s, 1);
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: true, records: 3 });
  });

  it('a savepoint rolled back takes its record along; the transaction around it commits the rest, in order', async () => {
    const s = await server();
    await s.api.store.transaction(async () => {
      await trail(s).record(PROJECT, { event: 'code.sent', userId: 'usr-1' });
      await s.api.store
        .transaction(async () => {
          await trail(s).record(PROJECT, { event: 'login.succeeded', userId: 'usr-2' });
          throw new Error('the inner change failed');
        })
        .catch(() => undefined);
      await trail(s).record(PROJECT, { event: 'session.created', userId: 'usr-3' });
    });
    await sealPending(s.api.store);
    expect((await s.api.store.audit.page({ projectId: PROJECT }, 0, 10)).map((r) => [r.seq, r.event, r.userId])).toEqual([
      [1, 'code.sent', 'usr-1'],
      [2, 'session.created', 'usr-3'],
    ]);
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: true, records: 2 });
  });
});

/** Waits (at most 5 s) until `check` holds, reading the tables directly (a reader of the trail would seal first). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const countOf = async (s: TestServer, table: string) => Number((await db(s).get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n);

describe('the sealer: records staged by their change, chained after its commit', () => {
  it('stages a change\'s records in its transaction and chains them, with their counts, soon after the commit, with no one reading', async () => {
    const s = await server();
    await s.api.store.transaction(async () => {
      await trail(s).record(PROJECT, { event: 'signup.succeeded', userId: 'usr-a', details: { method: 'email-otp' } });
      await trail(s).record(PROJECT, { event: 'session.created', userId: 'usr-a' });
      // inside the transaction nothing is on the chain yet, and nothing else of the project was touched
      expect(await countOf(s, 'audit_events')).toBe(0);
    });
    await eventually(async () => (await countOf(s, 'audit_events')) === 2 && (await countOf(s, 'audit_pending')) === 0, 'both records chained and unstaged');
    expect(await countOf(s, 'audit_daily')).toBe(1);
    expect(await countOf(s, 'audit_user_activity')).toBe(1);
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: true, records: 2 });
  });

  it('chains at the next start what a server left staged', async () => {
    const first = await server();
    await first.stop(true);
    // records staged and committed while no server runs, as by one that stopped before its sealer ran
    const { database, databaseSchema } = testDatabase(first.dir);
    const store = await Store.open(database, databaseSchema ? { schema: databaseSchema } : {});
    try {
      await store.transaction(async () =>
        store.audit.stage(['usr-1', 'usr-2', 'usr-3'].map((userId) => ({ projectId: PROJECT, at: first.clock.now, event: 'login.succeeded', outcome: 'done' as const, reason: null, actor: `user:${userId}`, userId, target: null, ip: null, browser: null, os: null, requestId: null, details: '{"method":"passkey"}' }))),
      );
      expect(Number((await store.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM audit_pending'))!.n)).toBe(3);
    } finally {
      await store.close();
    }
    const again = await startTestServer({ dir: first.dir, api: { backendApiPort: 0 } });
    cleanups.push(() => again.stop());
    await eventually(async () => (await countOf(again, 'audit_events')) === 3 && (await countOf(again, 'audit_pending')) === 0, 'the staged records chained');
    expect((await projectStats(again.api.store, PROJECT, 1, again.clock.now)).logins).toEqual({ passkey: 3 });
  });

  it('keeps the records staged when a pass fails, tells the log, and chains them on a later pass', async () => {
    const failures: string[] = [];
    const s = await startTestServer({ api: { backendApiPort: 0 }, logger: { info: () => undefined, error: (message: string) => void failures.push(message) } });
    cleanups.push(() => s.stop());
    const repo = s.api.store.audit;
    const appendAll = repo.appendAll.bind(repo);
    let fail = true;
    repo.appendAll = async (...args) => {
      if (fail) {
        fail = false;
        throw new Error('the database went away');
      }
      return appendAll(...args);
    };
    await trail(s).record(PROJECT, { event: 'login.succeeded', userId: 'usr-a', details: { method: 'email-otp' } });
    await eventually(async () => failures.length > 0, 'the failed pass logged');
    expect(failures[0]).toMatch(/sealing staged records failed/);
    expect(await countOf(s, 'audit_pending')).toBe(1);
    await eventually(async () => (await countOf(s, 'audit_events')) === 1 && (await countOf(s, 'audit_pending')) === 0, 'the record chained on the next pass');
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: true, records: 1 });
  });
});

describe('retention', () => {
  it('removes records older than auditRetentionDays in batches; verify still passes from the oldest kept one, and still finds an edit', async () => {
    const s = await server();
    await record(s, 5);
    s.clock.advance(366 * 86_400_000);
    await record(s, 3);
    const project = (await s.api.store.projects.get(PROJECT))!;
    expect(project.auditRetentionDays).toBe(365);
    // batches of two: the five old records go in three batches, the three recent ones stay
    expect(await applyRetention(s.api.store, PROJECT, project.auditRetentionDays, s.clock.now, 2)).toBe(5);
    const kept = await s.api.store.audit.page({ projectId: PROJECT }, 0, 100);
    expect(kept.map((r) => r.seq)).toEqual([6, 7, 8]);
    expect(kept[0]!.prevHash).not.toBe('0'.repeat(64));
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: true, records: 3 });
    // the admin command: nothing older is left
    expect(await runAdmin(['audit', 'trim', PROJECT], databaseEnv(s.dir), s.clock.now)).toEqual({ projectId: PROJECT, retentionDays: 365, deleted: 0 });
    // new records go on the chain after the kept ones
    await record(s, 1);
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: true, records: 4 });
    await db(s).run("UPDATE audit_events SET event = 'login.failed' WHERE project_id = ? AND seq = 6", [PROJECT]);
    expect((await verify(s)).broken).toEqual({ seq: 6, problem: 'record 6 was altered: its hash does not fit its content' });
  });
});

describe.skipIf(!POSTGRES_URL)('PostgreSQL: concurrent writers of one project', () => {
  it('never fork the chain', async () => {
    const s = await server();
    const writes = Array.from({ length: 40 }, (_, i) =>
      s.api.store.transaction(async () => {
        await trail(s).record(PROJECT, { event: 'login.succeeded', userId: `usr-${i}` });
        await new Promise((resolve) => setTimeout(resolve, 2));
      }),
    );
    await Promise.all(writes);
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: true, records: 40 });
  });

  it('sealing passes of any size run the same statement texts, prepared once per connection', async () => {
    const s = await server();
    const store = s.api.store;
    const texts: string[][] = [];
    const seen = new Set<string>();
    for (const method of ['run', 'all', 'get'] as const) {
      const original = (store.db[method] as (sql: string, params?: readonly unknown[]) => Promise<unknown>).bind(store.db);
      (store.db as any)[method] = (sql: string, params?: readonly unknown[]) => {
        seen.add(sql);
        return original(sql, params);
      };
    }
    // passes of 1, 3, 7 and 20 records, two projects in the last (a chain each), some users by passkey
    for (const [n, projects] of [[1, 1], [3, 1], [7, 1], [20, 2]] as const) {
      await store.transaction(async () => {
        for (let i = 0; i < n; i++) {
          await trail(s).record(i % projects === 0 ? PROJECT : 'pro-2', { event: 'login.succeeded', userId: `usr-${n}-${i}`, details: { method: i % 2 ? 'passkey' : 'email-otp' } });
        }
      });
      seen.clear();
      await sealPending(store);
      texts.push([...seen].filter((sql) => !/^\s*(BEGIN|COMMIT|ROLLBACK)/.test(sql)).sort());
    }
    expect(texts[0]!.length).toBeGreaterThan(3);
    for (const pass of texts) expect(pass).toEqual(texts[0]);
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: true, records: 1 + 3 + 7 + 10 });
    expect(await runAdmin(['audit', 'verify', 'pro-2'], databaseEnv(s.dir))).toEqual({ projectId: 'pro-2', whole: true, records: 10 });
    expect((await projectStats(store, PROJECT, 1, s.clock.now)).logins).toEqual({ 'email-otp': 1 + 2 + 4 + 10, passkey: 1 + 3 });
  });
});

describe.skipIf(POSTGRES_URL)('SQLite: the sealer\'s statements', () => {
  /** the rows a multi-row statement writes or names: VALUES rows, UNION ALL terms, IN list entries */
  const rowsOf = (sql: string): number =>
    /\bVALUES\b/.test(sql) ? sql.split('), (').length : / UNION ALL /.test(sql) ? sql.split(' UNION ALL ').length : / IN \(/.test(sql) ? (sql.match(/\?/g) ?? []).length : 1;

  it('come in a few texts whatever the passes\' sizes: parts of powers of two, at most 256 rows', async () => {
    const s = await server();
    const store = s.api.store;
    const seen = new Set<string>();
    const original = store.db.run.bind(store.db);
    (store.db as any).run = (sql: string, params?: readonly unknown[]) => {
      seen.add(sql);
      return original(sql, params);
    };
    const sizes = [1, 3, 20, 77, 300, 500];
    for (const n of sizes) {
      await store.transaction(async () => {
        for (let i = 0; i < n; i++) await trail(s).record(PROJECT, { event: 'login.succeeded', userId: `usr-${n}-${i}`, details: { method: 'email-otp' } });
      });
      await sealPending(store);
    }
    const sealer = [...seen].filter((sql) => /^\s*(INSERT INTO (audit_events|audit_user_activity)|DELETE FROM audit_pending)\b/.test(sql));
    const kinds = new Map<string, number[]>();
    for (const sql of sealer) {
      const kind = /^\s*(INSERT INTO \w+|DELETE FROM \w+)/.exec(sql)![1]!;
      kinds.set(kind, [...(kinds.get(kind) ?? []), rowsOf(sql)].sort((a, b) => a - b));
    }
    // 1 + 3 + 20 + 77 + 300 + 500 rows in powers of two: 1, 2, 4, 16, 64, 8, 256, 32, 128 (500 = 256 + 128 + 64 + 32 + 16 + 4)
    const parts = [1, 2, 4, 8, 16, 32, 64, 128, 256];
    expect(kinds).toEqual(new Map([['INSERT INTO audit_events', parts], ['INSERT INTO audit_user_activity', parts], ['DELETE FROM audit_pending', parts]]));
    expect(await verify(s)).toEqual({ projectId: PROJECT, whole: true, records: sizes.reduce((a, b) => a + b, 0) });
    expect((await projectStats(store, PROJECT, 1, s.clock.now)).logins).toEqual({ 'email-otp': 901 });
  }, 60_000);
});

describe('GET /v2/auditEvents pages by cursor, and by number without counting millions', () => {
  const seqs = (answer: any): number[] => answer.body.auditEvents.map((e: any) => e.seq);

  it('follows nextCursor page after page; unfiltered, page N starts at its seq from the oldest kept record and the total is the head\'s', async () => {
    const s = await server();
    const secret = await newSecret(s, PROJECT);
    await record(s, 25);
    const get = (query: string) => backendCall(s, { projectId: PROJECT, secret }, 'GET', `/v2/auditEvents?${query}`);
    const first = await get('pageSize=10');
    expect(seqs(first)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(first.body.paging).toEqual({ page: 1, totalPages: 3, totalItems: 25, nextCursor: '10' });
    const second = await get('pageSize=10&cursor=10');
    expect(seqs(second)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(second.body.paging).toEqual({ page: 0, totalPages: 3, totalItems: 25, nextCursor: '20' });
    const last = await get('pageSize=10&cursor=20');
    expect(seqs(last)).toEqual([21, 22, 23, 24, 25]);
    expect(last.body.paging.nextCursor).toBeNull();
    expect(seqs(await get('pageSize=10&page=3'))).toEqual([21, 22, 23, 24, 25]);
    // filtered, by cursor: the user's records after it
    const ofUser = await get('filter[]=userID:eq:usr-3&cursor=2');
    expect(seqs(ofUser)).toEqual([4]);
    expect(ofUser.body.paging).toEqual({ page: 0, totalPages: 1, totalItems: 1, nextCursor: null });

    // retention moved the oldest kept record to 8: page 1 starts there, the total counts from there
    await db(s).run('DELETE FROM audit_events WHERE project_id = ? AND seq < 8', [PROJECT]);
    await db(s).run('UPDATE audit_heads SET first_seq = 8 WHERE project_id = ?', [PROJECT]);
    const kept = await get('pageSize=10&page=2');
    expect(seqs(kept)).toEqual([18, 19, 20, 21, 22, 23, 24, 25]);
    expect(kept.body.paging).toEqual({ page: 2, totalPages: 2, totalItems: 18, nextCursor: null });

    for (const [query, field] of [
      ['cursor=abc', 'cursor'],
      ['cursor=-1', 'cursor'],
      ['cursor=5&page=2', 'page'],
    ] as const) {
      const bad = await get(query);
      expect(bad.status).toBe(400);
      expect(bad.body.error.validation.map((v: any) => v.field)).toEqual([field]);
    }
  });

  it(`a filtered list counts to ${AUDIT_COUNT_CAP.toLocaleString('en')} and pages by number to its ${AUDIT_PAGE_WINDOW.toLocaleString('en')}th record; beyond, the cursor`, async () => {
    const s = await server();
    const secret = await newSecret(s, PROJECT);
    const get = (query: string) => backendCall(s, { projectId: PROJECT, secret }, 'GET', `/v2/auditEvents?${query}`);
    // more records of one event than the count goes, written as rows (the chain is not what is looked at here)
    const many = AUDIT_COUNT_CAP + 50;
    const hash = 'a'.repeat(64);
    await s.api.store.transaction(async () => {
      for (let from = 1; from <= many; from += 500) {
        const rows = Array.from({ length: Math.min(500, many - from + 1) }, (_, i) => from + i);
        await db(s).run(
          `INSERT INTO audit_events (project_id, seq, at, event, outcome, actor, details, prev_hash, hash) VALUES ${rows.map(() => "(?, ?, ?, 'login.failed', 'refused', 'visitor', '{}', ?, ?)").join(', ')}`,
          rows.flatMap((seq) => [PROJECT, seq, s.clock.now, hash, hash]),
        );
      }
      await db(s).run('INSERT INTO audit_heads (project_id, seq, hash, first_seq) VALUES (?, ?, ?, 1)', [PROJECT, many, hash]);
    });
    const filtered = await get('filter[]=event:eq:login.failed&pageSize=100');
    expect(filtered.body.paging).toEqual({ page: 1, totalPages: AUDIT_COUNT_CAP / 100, totalItems: AUDIT_COUNT_CAP, totalItemsCapped: true, nextCursor: '100' });
    // the unfiltered total is the head's, exact
    expect((await get('pageSize=100')).body.paging.totalItems).toBe(many);
    // the last page by number within the window, then the cursor beyond it
    const lastByNumber = await get(`filter[]=event:eq:login.failed&pageSize=100&page=${AUDIT_PAGE_WINDOW / 100}`);
    expect(seqs(lastByNumber)[0]).toBe(AUDIT_PAGE_WINDOW - 99);
    const tooDeep = await get(`filter[]=event:eq:login.failed&pageSize=100&page=${AUDIT_PAGE_WINDOW / 100 + 1}`);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.error.validation).toEqual([{ field: 'page', message: expect.stringMatching(/pass paging\.nextCursor as cursor/) }]);
    const beyond = await get(`filter[]=event:eq:login.failed&pageSize=100&cursor=${lastByNumber.body.paging.nextCursor}`);
    expect(seqs(beyond)).toEqual(Array.from({ length: 50 }, (_, i) => AUDIT_PAGE_WINDOW + 1 + i));
    expect(beyond.body.paging.nextCursor).toBeNull();
  });
});

describe('stats', () => {
  it('gives the figures a seeded project implies, by admin (table and JSON) and GET /v2/stats', async () => {
    const s = await server();
    const t = trail(s);
    const at = (userAgent: string, fn: () => Promise<void>) => withAuditScope({ ip: '203.0.113.7', userAgent }, fn);
    // 40 days ago: outside a 30-day window
    await at(MAC_CHROME, () => t.record(PROJECT, { event: 'signup.succeeded', userId: 'usr-old', details: { method: 'email-otp' } }));
    s.clock.advance(40 * 86_400_000);
    await at(MAC_CHROME, async () => {
      for (const user of ['usr-a', 'usr-b', 'usr-c']) await t.record(PROJECT, { event: 'signup.succeeded', userId: user, details: { method: 'email-otp' } });
      for (let i = 0; i < 3; i++) await t.record(PROJECT, { event: 'passkey.offered' });
      for (let i = 0; i < 2; i++) await t.record(PROJECT, { event: 'passkey.created', userId: 'usr-a' });
      await t.record(PROJECT, { event: 'passkey.skipped' });
      for (let i = 0; i < 4; i++) await t.record(PROJECT, { event: 'login.succeeded', userId: 'usr-a', details: { method: 'passkey' } });
      await t.record(PROJECT, { event: 'login.failed', outcome: 'refused', reason: 'wrong_code', details: { method: 'email-otp' } });
      await t.record(PROJECT, { event: 'login.failed', outcome: 'refused', reason: 'wrong_code', details: { method: 'email-otp' } });
    });
    s.clock.advance(86_400_000);
    await at(IPHONE_SAFARI, async () => {
      await t.record(PROJECT, { event: 'signup.succeeded', userId: 'usr-d', details: { method: 'social:google' } });
      for (let i = 0; i < 2; i++) await t.record(PROJECT, { event: 'passkey.offered' });
      await t.record(PROJECT, { event: 'passkey.created', userId: 'usr-d' });
      await t.record(PROJECT, { event: 'passkey.failed', outcome: 'refused', reason: 'passkey_verification_failed' });
      await t.record(PROJECT, { event: 'login.succeeded', userId: 'usr-a', details: { method: 'passkey-autofill' } });
      await t.record(PROJECT, { event: 'login.failed', outcome: 'refused', reason: 'passkey_verification_failed', details: { method: 'passkey' } });
      await t.record(PROJECT, { event: 'login.succeeded', userId: 'usr-b', details: { method: 'email-otp', fallback: true } });
      await t.record(PROJECT, { event: 'login.succeeded', userId: 'usr-c', details: { method: 'email-otp' } });
      // e holds a passkey (stored before) and logs in by code: active, with a passkey
      await db(s).run("INSERT INTO users (id, project_id, full_name, user_handle, created_at) VALUES ('usr-e', ?, '', 'handle-e', ?)", [PROJECT, s.clock.now]);
      await s.api.store.credentials.insert({
        id: 'cre-e', projectId: PROJECT, userId: 'usr-e', credentialId: 'cred-e', publicKey: new Uint8Array([1]), userHandle: 'handle-e', aaguid: '',
        backupEligible: false, backupState: false, transports: [], signCount: 0, attestationType: 'none', sourceBrowser: '', sourceOS: '', status: 'active', createdAt: s.clock.now, lastUsedAt: s.clock.now,
      });
      await t.record(PROJECT, { event: 'login.succeeded', userId: 'usr-e', details: { method: 'email-otp' } });
      // f signs up and logs in within one transaction: one active user, noted once
      await s.api.store.transaction(async () => {
        await t.record(PROJECT, { event: 'signup.succeeded', userId: 'usr-f', details: { method: 'email-otp' } });
        await t.record(PROJECT, { event: 'login.succeeded', userId: 'usr-f', details: { method: 'email-otp' } });
      });
      // not a figure: recorded, counted nowhere
      await t.record(PROJECT, { event: 'code.sent', details: { method: 'email-otp' } });
    });
    const stats = await projectStats(s.api.store, PROJECT, 30, s.clock.now);
    expect(stats).toEqual({
      projectId: PROJECT,
      days: 30,
      from: new Date(s.clock.now - 29 * 86_400_000).toISOString().slice(0, 10),
      signups: { 'email-otp': 4, 'social:google': 1 },
      logins: { 'email-otp': 4, passkey: 4, 'passkey-autofill': 1 },
      failedLogins: { passkey_verification_failed: 1, wrong_code: 2 },
      funnel: [
        { os: 'iOS', browser: 'Safari', offered: 2, created: 1, skipped: 0, failed: 1 },
        { os: 'macOS', browser: 'Chrome', offered: 3, created: 2, skipped: 1, failed: 0 },
      ],
      // usr-a logged in by passkey, e holds one; b, c, f (no passkey) and d (signed up by provider, no passkey stored) did not
      adoption: { activeUsers: 6, activeUsersWithPasskey: 2, passkeyUserShare: 0.333, passkeyLoginShare: 0.556, fallbacks: 1 },
    });
    // 42 days: the old sign-up (41 days ago) counts too
    expect((await projectStats(s.api.store, PROJECT, 42, s.clock.now)).signups).toEqual({ 'email-otp': 5, 'social:google': 1 });

    expect(await runAdmin(['stats', PROJECT, '--json'], databaseEnv(s.dir), s.clock.now)).toEqual(stats);
    const table = (await runAdmin(['stats', PROJECT], databaseEnv(s.dir), s.clock.now)) as string;
    expect(table).toContain('macOS / Chrome        3        2        1       0');
    expect(table).toMatch(/with a passkey\s+2 \(33\.3 %\)/);
    expect(table).toMatch(/fallbacks to a code\s+1/);

    const secret = await newSecret(s, PROJECT);
    const answered = await backendCall(s, { projectId: PROJECT, secret }, 'GET', '/v2/stats?days=30');
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual(stats);
    const bad = await backendCall(s, { projectId: PROJECT, secret }, 'GET', '/v2/stats?days=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.validation).toEqual([{ field: 'days', message: 'must be a whole number from 1 to 3660, got 0' }]);
  });
});
