// The audit trail's tables (migration 18): audit_events, append-only and hash-chained per project,
// audit_heads (each project's newest record and the oldest one kept), and the daily rollups the adoption
// figures read (audit_daily, audit_user_activity); audit_pending (migration 22) holds the records that
// changes staged, until the sealer chains them. What goes into a record is decided in server/audit/.
import { createHash } from 'node:crypto';
import type { Database } from './Database.ts';

/** The predecessor hash of a project's first record. */
export const GENESIS_HASH = '0'.repeat(64);

/** A record as it is written: everything but its place in the chain. */
export interface AuditEntry {
  projectId: string;
  at: number;
  event: string;
  outcome: 'done' | 'refused';
  reason: string | null;
  actor: string;
  userId: string | null;
  target: string | null;
  ip: string | null;
  browser: string | null;
  os: string | null;
  requestId: string | null;
  /** JSON text */
  details: string;
}

export interface AuditRecord extends AuditEntry {
  seq: number;
  prevHash: string;
  hash: string;
}

export interface AuditHead {
  seq: number;
  hash: string;
  firstSeq: number;
}

export interface AuditFilter {
  projectId: string;
  /** ms, inclusive */
  since?: number;
  /** ms, exclusive */
  until?: number;
  userId?: string;
  event?: string;
  /** done | refused (no index: the records of the other filters are scanned; the console's export) */
  outcome?: string;
  /** operator:opr-…, user:usr-…, admin … (no index, as outcome) */
  actor?: string;
}

/** The hash of a record: SHA-256 over its content, in a fixed order, and its predecessor's hash. */
export function auditHash(record: Omit<AuditRecord, 'hash'>): string {
  const canonical = JSON.stringify([
    record.projectId,
    record.seq,
    record.at,
    record.event,
    record.outcome,
    record.reason,
    record.actor,
    record.userId,
    record.target,
    record.ip,
    record.browser,
    record.os,
    record.requestId,
    record.details,
    record.prevHash,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

interface Row {
  project_id: string;
  seq: number;
  at: number;
  event: string;
  outcome: 'done' | 'refused';
  reason: string | null;
  actor: string;
  user_id: string | null;
  target: string | null;
  ip: string | null;
  browser: string | null;
  os: string | null;
  request_id: string | null;
  details: string;
  prev_hash: string;
  hash: string;
}

const COLUMNS = 'project_id, seq, at, event, outcome, reason, actor, user_id, target, ip, browser, os, request_id, details, prev_hash, hash';

type EntryRow = Omit<Row, 'seq' | 'prev_hash' | 'hash'>;

function entryOf(r: EntryRow): AuditEntry {
  return {
    projectId: r.project_id,
    at: Number(r.at),
    event: r.event,
    outcome: r.outcome,
    reason: r.reason,
    actor: r.actor,
    userId: r.user_id,
    target: r.target,
    ip: r.ip,
    browser: r.browser,
    os: r.os,
    requestId: r.request_id,
    details: r.details,
  };
}

function fromRow(r: Row): AuditRecord {
  return { ...entryOf(r), seq: Number(r.seq), prevHash: r.prev_hash, hash: r.hash };
}

/** A record placed in the chain: its number, its predecessor's hash and its own (built field by field: this runs in every write transaction). */
function chained(entry: AuditEntry, seq: number, prevHash: string): AuditRecord {
  const record = {
    projectId: entry.projectId,
    seq,
    at: entry.at,
    event: entry.event,
    outcome: entry.outcome,
    reason: entry.reason,
    actor: entry.actor,
    userId: entry.userId,
    target: entry.target,
    ip: entry.ip,
    browser: entry.browser,
    os: entry.os,
    requestId: entry.requestId,
    details: entry.details,
    prevHash,
    hash: '',
  };
  record.hash = auditHash(record);
  return record;
}

/**
 * Records per INSERT: a transaction may write thousands (a signing key revoked ends every live session of
 * the project, each recorded), and one statement takes at most 32,766 values on SQLite and 65,535 on
 * PostgreSQL (16 a record); all of them in one statement failed the whole rotation from some 2,000 on.
 */
const RECORDS_PER_INSERT = 500;

/** SQLite: the most rows of one sealing statement (a power of two; see powerOfTwoParts). */
const SQLITE_PART = 256;

/**
 * SQLite: a sealing pass's rows in parts of SQLITE_PART and then of falling powers of two (300: 256,
 * 32, 8, 4), so that each multi-row statement of the sealer has at most 9 texts whatever the pass's size.
 * A pass's size follows the traffic: one text per size prepared a new statement in nearly every pass
 * (1.2 ms a pass, a twelfth of the trail's cost per sign-up in a CPU profile of the code verify) and
 * kept it, one per size seen, in the connection's statement cache.
 */
function* powerOfTwoParts<T>(items: readonly T[]): Generator<readonly T[]> {
  for (let from = 0; from < items.length; ) {
    const left = items.length - from;
    const size = left >= SQLITE_PART ? SQLITE_PART : 2 ** Math.floor(Math.log2(left));
    yield items.slice(from, from + size);
    from += size;
  }
}

/**
 * The INSERT of `count` rows into a table, made once per table and count and kept for the usual few (a
 * sign-up writes two records) and the sealer's powers of two.
 */
const inserts = new Map<string, string>();
function insertInto(table: 'audit_events' | 'audit_pending', columns: string, count: number): string {
  const key = `${table} ${count}`;
  let sql = inserts.get(key);
  if (sql === undefined) {
    const row = `(${columns.split(',').map(() => '?').join(', ')})`;
    sql = `INSERT INTO ${table} (${columns}) VALUES ${Array.from({ length: count }, () => row).join(', ')}`;
    if (count <= 64 || (count & (count - 1)) === 0) inserts.set(key, sql);
  }
  return sql;
}

const insertSql = (count: number) => insertInto('audit_events', COLUMNS, count);

/** A record staged (audit_pending), waiting for the sealer: its staging order and its content. */
export interface StagedEntry extends AuditEntry {
  id: number;
}

const ENTRY_COLUMNS = 'project_id, at, event, outcome, reason, actor, user_id, target, ip, browser, os, request_id, details';

const stageSql = (count: number) => insertInto('audit_pending', ENTRY_COLUMNS, count);

function entryParams(e: AuditEntry): unknown[] {
  return [e.projectId, e.at, e.event, e.outcome, e.reason, e.actor, e.userId, e.target, e.ip, e.browser, e.os, e.requestId, e.details];
}

export function recordParams(r: AuditRecord): unknown[] {
  return [r.projectId, r.seq, r.at, r.event, r.outcome, r.reason, r.actor, r.userId, r.target, r.ip, r.browser, r.os, r.requestId, r.details, r.prevHash, r.hash];
}

function conditions(filter: AuditFilter): { where: string; params: unknown[] } {
  const where = ['project_id = ?'];
  const params: unknown[] = [filter.projectId];
  const add = (condition: string, value: unknown) => {
    if (value === undefined) return;
    where.push(condition);
    params.push(value);
  };
  add('user_id = ?', filter.userId);
  add('event = ?', filter.event);
  add('outcome = ?', filter.outcome);
  add('actor = ?', filter.actor);
  add('at >= ?', filter.since);
  add('at < ?', filter.until);
  return { where: where.join(' AND '), params };
}

/** Moves a project's chain head to its newest record (the first kept one stays). */
const HEAD_SQL = `INSERT INTO audit_heads (project_id, seq, hash, first_seq) VALUES (?, ?, ?, 1)
       ON CONFLICT (project_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash`;

/** Each day's metrics counted: a row per day and metric, with how often it came (a metric counted once per row). */
function dailyRows(daily: ReadonlyMap<string, readonly string[]>): { day: string; metric: string; n: number }[] {
  const rows: { day: string; metric: string; n: number }[] = [];
  for (const [day, metrics] of daily) {
    const counts = new Map<string, number>();
    for (const metric of metrics) counts.set(metric, (counts.get(metric) ?? 0) + 1);
    for (const [metric, n] of counts) rows.push({ day, metric, n });
  }
  return rows;
}

const ADD_COUNTS = 'ON CONFLICT (project_id, day, metric) DO UPDATE SET count = audit_daily.count + excluded.count';

/** SQLite: the upsert that adds each day's metrics to a project's counters, or none. */
function dailyCounters(projectId: string, daily: ReadonlyMap<string, readonly string[]>): { sql: string; params: unknown[] } | undefined {
  const rows = dailyRows(daily);
  if (rows.length === 0) return undefined;
  return {
    sql: `INSERT INTO audit_daily (project_id, day, metric, count) VALUES ${rows.map(() => '(?, ?, ?, ?)').join(', ')} ${ADD_COUNTS}`,
    params: rows.flatMap((r) => [projectId, r.day, r.metric, r.n]),
  };
}

/**
 * PostgreSQL: a sealer pass's records, head and counters in one statement whose text is the same for any
 * number of records (each column one array parameter, unnested), so that each connection parses and
 * plans it once and keeps it prepared. A text per batch size, as a VALUES list makes, was parsed and
 * planned afresh for nearly every pass (the batch's size follows the traffic) and filled the
 * connection's prepared statements with sizes seen once.
 */
const PG_APPEND = `WITH records AS (
    INSERT INTO audit_events (${COLUMNS})
    SELECT ?, * FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[])
  ), head AS (${HEAD_SQL}), counters AS (
    INSERT INTO audit_daily (project_id, day, metric, count) SELECT ?, * FROM unnest(?::text[], ?::text[], ?::bigint[]) ${ADD_COUNTS}
  ) SELECT 1`;

function pgAppendParams(projectId: string, records: readonly AuditRecord[], seq: number, hash: string, daily: ReadonlyMap<string, readonly string[]>): unknown[] {
  const columns = (pick: (r: AuditRecord) => unknown) => records.map(pick);
  const rows = dailyRows(daily);
  return [
    projectId,
    columns((r) => r.seq),
    columns((r) => r.at),
    columns((r) => r.event),
    columns((r) => r.outcome),
    columns((r) => r.reason),
    columns((r) => r.actor),
    columns((r) => r.userId),
    columns((r) => r.target),
    columns((r) => r.ip),
    columns((r) => r.browser),
    columns((r) => r.os),
    columns((r) => r.requestId),
    columns((r) => r.details),
    columns((r) => r.prevHash),
    columns((r) => r.hash),
    projectId,
    seq,
    hash,
    projectId,
    rows.map((r) => r.day),
    rows.map((r) => r.metric),
    rows.map((r) => r.n),
  ];
}

export class AuditRepo {
  constructor(private readonly db: Database) {}

  /**
   * Stages records in the caller's transaction (audit_pending), in order, at its commit: a row each, one
   * statement per RECORDS_PER_INSERT, written with the transaction's other writes at commit
   * (Database.writeAtCommit; nothing reads audit_pending but the sealer, in a transaction of its own).
   * They join their project's chain once the sealer takes them (server/audit/sealer.ts).
   */
  stage(entries: readonly AuditEntry[]): void {
    for (let from = 0; from < entries.length; from += RECORDS_PER_INSERT) {
      const part = entries.slice(from, from + RECORDS_PER_INSERT);
      this.db.writeAtCommit(stageSql(part.length), part.flatMap(entryParams));
    }
  }

  /** The oldest `limit` staged records, in staging order (of every project). */
  async staged(limit: number): Promise<StagedEntry[]> {
    const rows = await this.db.all<EntryRow & { id: number }>(`SELECT id, ${ENTRY_COLUMNS} FROM audit_pending ORDER BY id LIMIT ?`, [limit]);
    return rows.map((r) => ({ id: Number(r.id), ...entryOf(r) }));
  }

  /** Removes staged records once they are on their chains (the sealer's transaction). */
  async unstage(ids: readonly number[]): Promise<void> {
    if (this.db.dialect === 'postgres') {
      // one text for any number (see PG_APPEND)
      await this.db.run('DELETE FROM audit_pending WHERE id = ANY(?::bigint[])', [ids]);
      return;
    }
    for (const part of powerOfTwoParts(ids)) await this.db.run(`DELETE FROM audit_pending WHERE id IN (${part.map(() => '?').join(', ')})`, part);
  }

  /**
   * Appends records of one project to its chain, in order, in the caller's transaction (the sealer's,
   * server/audit/sealer.ts), and adds `daily` (day → metrics) to the project's day counters. The head
   * row is locked from its read until commit (a project's first records under an advisory lock; SQLite
   * has one writer), so the chain never forks, whoever else appends. On PostgreSQL the records, the head
   * and the counters go in one statement (data-modifying CTEs), so the window is the head's read, that
   * statement and the commit (PG_APPEND, one text for any number of records). SQLite, in process, runs
   * them one by one, the records in INSERTs of powers of two (powerOfTwoParts).
   */
  async appendAll(projectId: string, entries: readonly AuditEntry[], daily: ReadonlyMap<string, readonly string[]> = new Map()): Promise<AuditRecord[]> {
    let head = await this.head(projectId);
    if (!head) {
      await this.db.lockKey(`audit:${projectId}`);
      head = await this.head(projectId);
    }
    let seq = head?.seq ?? 0;
    let prevHash = head?.hash ?? GENESIS_HASH;
    const records: AuditRecord[] = [];
    for (const entry of entries) {
      const record = chained(entry, ++seq, prevHash);
      records.push(record);
      prevHash = record.hash;
    }
    if (this.db.dialect === 'postgres') {
      await this.db.run(PG_APPEND, pgAppendParams(projectId, records, seq, prevHash, daily));
      return records;
    }
    const counters = dailyCounters(projectId, daily);
    for (const part of powerOfTwoParts(records)) await this.db.run(insertSql(part.length), part.flatMap(recordParams));
    await this.db.run(HEAD_SQL, [projectId, seq, prevHash]);
    if (counters) await this.db.run(counters.sql, counters.params);
    return records;
  }

  async head(projectId: string): Promise<AuditHead | undefined> {
    const row = await this.db.get<{ seq: number; hash: string; first_seq: number }>(
      `SELECT seq, hash, first_seq FROM audit_heads WHERE project_id = ?${this.db.forUpdate}`,
      [projectId],
    );
    return row && { seq: Number(row.seq), hash: row.hash, firstSeq: Number(row.first_seq) };
  }

  /**
   * One page of a project's records in chain order, after `afterSeq` (keyset paging: each page is one
   * indexed range scan, however deep into the trail).
   */
  async page(filter: AuditFilter, afterSeq: number, limit: number, offset = 0): Promise<AuditRecord[]> {
    const { where, params } = conditions(filter);
    const rows = await this.db.all<Row>(`SELECT ${COLUMNS} FROM audit_events WHERE ${where} AND seq > ? ORDER BY seq LIMIT ? OFFSET ?`, [...params, afterSeq, limit, offset]);
    return rows.map(fromRow);
  }

  /** The filter's newest `limit` records, newest first (the console's user page). */
  async latest(filter: AuditFilter, limit: number): Promise<AuditRecord[]> {
    const { where, params } = conditions(filter);
    const rows = await this.db.all<Row>(`SELECT ${COLUMNS} FROM audit_events WHERE ${where} ORDER BY seq DESC LIMIT ?`, [...params, limit]);
    return rows.map(fromRow);
  }

  /**
   * How many records the filter matches, counted up to `cap` at most (the Backend API's paging): one
   * index range of at most `cap` entries, however many millions the trail holds.
   */
  async countUpTo(filter: AuditFilter, cap: number): Promise<number> {
    const { where, params } = conditions(filter);
    const row = await this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM audit_events WHERE ${where} LIMIT ?) AS matched`, [...params, cap]);
    return Number(row?.n ?? 0);
  }

  /** Every record of the filter, page by page (never the whole result in memory). */
  async *stream(filter: AuditFilter, pageSize = 2000): AsyncGenerator<AuditRecord> {
    let after = 0;
    for (;;) {
      const page = await this.page(filter, after, pageSize);
      yield* page;
      if (page.length < pageSize) return;
      after = page[page.length - 1]!.seq;
    }
  }

  /**
   * Retention: deletes up to `batch` of the project's oldest records older than `before` (ms), and moves
   * the head's first kept record past them, in one transaction. The number deleted (0: nothing older).
   */
  trimBatch(projectId: string, before: number, batch: number): Promise<number> {
    return this.db.transaction(async () => {
      await this.db.lockKey(`audit:${projectId}`);
      const head = await this.head(projectId);
      if (!head) return 0;
      const last = await this.db.get<{ seq: number }>(
        'SELECT seq FROM audit_events WHERE project_id = ? AND seq >= ? AND seq < ? AND at < ? ORDER BY seq DESC LIMIT 1',
        [projectId, head.firstSeq, head.firstSeq + batch, before],
      );
      if (!last) return 0;
      // the chain is in time order: everything up to the newest old one in this batch goes
      const upTo = Number(last.seq);
      const deleted = await this.db.run('DELETE FROM audit_events WHERE project_id = ? AND seq <= ?', [projectId, upTo]);
      await this.db.run('UPDATE audit_heads SET first_seq = ? WHERE project_id = ?', [upTo + 1, projectId]);
      return deleted;
    });
  }

  /**
   * Notes users active on a day (the newest day of their activity), in one statement: with the day
   * they held a passkey, when they logged in with one or hold one in the credentials table. A user
   * already noted for that day is left as it is (no row written again).
   */
  async activeAll(users: readonly { projectId: string; day: string; userId: string; byPasskey: boolean }[]): Promise<void> {
    // one row per user (PostgreSQL refuses to update a row twice in one statement): the newest day, a passkey if any said so
    const noted = new Map<string, { projectId: string; day: string; userId: string; byPasskey: boolean }>();
    for (const u of users) {
      const key = `${u.projectId} ${u.userId}`;
      const before = noted.get(key);
      noted.set(key, { ...u, day: before && before.day > u.day ? before.day : u.day, byPasskey: u.byPasskey || (before?.byPasskey ?? false) });
    }
    if (noted.size === 0) return;
    const upsert = `ON CONFLICT (project_id, user_id) DO UPDATE SET last_active_day = excluded.last_active_day,
         last_passkey_day = COALESCE(excluded.last_passkey_day, audit_user_activity.last_passkey_day)
       WHERE audit_user_activity.last_active_day <> excluded.last_active_day
         OR (excluded.last_passkey_day IS NOT NULL AND (audit_user_activity.last_passkey_day IS NULL OR audit_user_activity.last_passkey_day <> excluded.last_passkey_day))`;
    const rows = [...noted.values()];
    if (this.db.dialect === 'postgres') {
      // one text for any number of users (see PG_APPEND)
      await this.db.run(
        `INSERT INTO audit_user_activity (project_id, user_id, last_active_day, last_passkey_day)
         SELECT n.project_id, n.user_id, n.day, CASE WHEN n.by_passkey = 1 OR EXISTS (SELECT 1 FROM credentials c WHERE c.user_id = n.user_id) THEN n.day END
         FROM unnest(?::text[], ?::text[], ?::text[], ?::int[]) AS n(project_id, user_id, day, by_passkey) ${upsert}`,
        [rows.map((u) => u.projectId), rows.map((u) => u.userId), rows.map((u) => u.day), rows.map((u) => (u.byPasskey ? 1 : 0))],
      );
      return;
    }
    const one = 'SELECT ? AS project_id, ? AS user_id, ? AS day, CASE WHEN ? = 1 OR EXISTS (SELECT 1 FROM credentials c WHERE c.user_id = ?) THEN ? END AS passkey_day';
    for (const part of powerOfTwoParts(rows)) {
      await this.db.run(
        `INSERT INTO audit_user_activity (project_id, user_id, last_active_day, last_passkey_day)
         SELECT project_id, user_id, day, passkey_day FROM (${part.map(() => one).join(' UNION ALL ')}) AS noted WHERE true ${upsert}`,
        part.flatMap((u) => [u.projectId, u.userId, u.day, u.byPasskey ? 1 : 0, u.userId, u.day]),
      );
    }
  }

  /** The counters of the days from `fromDay` (inclusive), summed per metric. */
  async totals(projectId: string, fromDay: string): Promise<Map<string, number>> {
    const rows = await this.db.all<{ metric: string; total: number }>(
      'SELECT metric, SUM(count) AS total FROM audit_daily WHERE project_id = ? AND day >= ? GROUP BY metric',
      [projectId, fromDay],
    );
    return new Map(rows.map((r) => [r.metric, Number(r.total)]));
  }

  /**
   * The users active from `fromDay` to today, and of them those who held a passkey on a day they were
   * active: each a range count of one index (the period always ends today).
   */
  async activeUsers(projectId: string, fromDay: string): Promise<{ active: number; withPasskey: number }> {
    const count = async (column: string) =>
      Number((await this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM audit_user_activity WHERE project_id = ? AND ${column} >= ?`, [projectId, fromDay]))?.n ?? 0);
    return { active: await count('last_active_day'), withPasskey: await count('last_passkey_day') };
  }

  /** The counters of each day from `fromDay` (inclusive), by metric: the console's charts. */
  async dailyCounts(projectId: string, fromDay: string): Promise<{ day: string; counts: Record<string, number> }[]> {
    const rows = await this.db.all<{ day: string; metric: string; count: number }>('SELECT day, metric, count FROM audit_daily WHERE project_id = ? AND day >= ? ORDER BY day', [projectId, fromDay]);
    const days = new Map<string, Record<string, number>>();
    for (const r of rows) (days.get(r.day) ?? days.set(r.day, {}).get(r.day)!)[r.metric] = Number(r.count);
    return [...days].map(([day, counts]) => ({ day, counts }));
  }
}
