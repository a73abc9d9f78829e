// Section 8: the audit trail at scale. A project's trail of 10 million records (and its rollups) is
// seeded straight into a fresh database with set-based SQL (a recursive CTE on SQLite,
// generate_series on PostgreSQL): seeding through HTTP would take hours and measure nothing of
// interest. Then, in this process, on the server's own Store:
//   - `audit list` for one user: the records of one of 100,000 users (100 each), JSON lines to a sink;
//   - `stats` over 365 days (the daily rollups and the active users);
//   - `GET /v2/auditEvents` (its handler, listAuditEvents, on the Store): page 1 and page 50,000 of 100
//     records unfiltered, page 1 filtered by event (its total counted up to 10,000), and by cursor 9
//     million records deep filtered by event; beside it, once, what the list did before keyset paging: a
//     deep page by OFFSET and the exact count of a filter;
//   - the export of a second project's 1 million records, JSON lines, with the heap sampled every 20 ms.
// The seeded records carry a fixed placeholder hash: nothing here checks the chain.
import { exportRecords, projectStats } from '../../server/audit/auditReader.ts';
import { listAuditEvents } from '../../server/backend/auditApi.ts';
import type { ProjectConfig } from '../../server/config/projectConfig.ts';
import { Store } from '../../server/store/Store.ts';
import type { ServerResults } from './serverLoad.ts';
import { median, percentile, round } from './stats.ts';

export interface AuditBenchResult {
  database: 'SQLite' | 'PostgreSQL';
  records: number;
  users: number;
  seedSeconds: number;
  listOneUser: { runs: number; records: number; p50Ms: number; p95Ms: number };
  stats365: { runs: number; p50Ms: number; p95Ms: number };
  /** GET /v2/auditEvents, 100 records a page */
  auditEvents: {
    runs: number;
    firstPage: Timing;
    deepPage: Timing & { page: number };
    firstPageFiltered: Timing & { totalItems: number; capped: boolean };
    deepCursorFiltered: Timing & { cursor: number };
    /** the list before keyset paging, 3 runs each: the same deep page by OFFSET, and the filter's exact count */
    before: { deepPageByOffset: Timing; exactCountFiltered: Timing & { totalItems: number } };
  };
  export: { records: number; seconds: number; recordsPerSecond: number; megabytes: number; heapBeforeMb: number; heapPeakMb: number; heapAfterMb: number };
}

const BIG = 'pro-8001';
const EXPORTED = 'pro-8002';
const USERS = 100_000;
const DAY_MS = 86_400_000;
const HASH = 'a'.repeat(64);
const EVENTS = ['login.succeeded', 'session.created', 'code.sent', 'login.failed', 'passkey.offered', 'passkey.created', 'session.rotated', 'session.ended', 'signup.succeeded', 'link.sent'];
const SYSTEMS = [
  ['macOS', 'Chrome'],
  ['macOS', 'Safari'],
  ['Windows', 'Chrome'],
  ['Windows', 'Edge'],
  ['iOS', 'Safari'],
  ['Android', 'Chrome'],
] as const;
const METHODS = ['passkey', 'passkey-autofill', 'email-otp', 'email-link', 'phone-otp', 'social:google', 'username'];

/** The SELECT list that makes record `x` (1…count) of a project whose trail starts at `start` and spans `spanMs`. */
function recordColumns(project: string, start: number, spanMs: number, count: number): string {
  const events = `CASE x % ${EVENTS.length} ${EVENTS.map((e, i) => `WHEN ${i} THEN '${e}'`).join(' ')} END`;
  return `'${project}', x, ${start} + (x * ${Math.floor(spanMs / count)}), ${events}, 'done', NULL, 'user:usr-' || (x % ${USERS}),
    'usr-' || (x % ${USERS}), 'session:ses-' || x, '203.0.113.' || (x % 250), 'Chrome 131', 'macOS', 'req-' || x,
    '{"method":"email-otp","process":"pro-5849463989954976096"}', '${HASH}', '${HASH}'`;
}

const COLUMNS = 'project_id, seq, at, event, outcome, reason, actor, user_id, target, ip, browser, os, request_id, details, prev_hash, hash';

/** Inserts records from..to of a project, set-based, in one statement. */
async function seedRange(store: Store, project: string, from: number, to: number, start: number, spanMs: number, count: number): Promise<void> {
  const select = recordColumns(project, start, spanMs, count);
  if (store.db.dialect === 'postgres') {
    await store.db.run(`INSERT INTO audit_events (${COLUMNS}) SELECT ${select} FROM generate_series(${from}::bigint, ${to}::bigint) AS x`);
  } else {
    await store.db.run(`WITH RECURSIVE c(x) AS (SELECT ${from} UNION ALL SELECT x + 1 FROM c WHERE x < ${to}) INSERT INTO audit_events (${COLUMNS}) SELECT ${select} FROM c`);
  }
}

async function seedTrail(store: Store, project: string, count: number, start: number, spanMs: number, say: (line: string) => void): Promise<void> {
  const chunk = 1_000_000;
  for (let from = 1; from <= count; from += chunk) {
    const to = Math.min(count, from + chunk - 1);
    await store.transaction(() => seedRange(store, project, from, to, start, spanMs, count));
    if (count > chunk) say(`      ${to.toLocaleString('en')} of ${count.toLocaleString('en')} records`);
  }
  await store.db.run('INSERT INTO audit_heads (project_id, seq, hash, first_seq) VALUES (?, ?, ?, 1)', [project, count, HASH]);
}

/** A year of daily counters and 100,000 users' activity, as a year of such a trail leaves them. */
async function seedRollups(store: Store, project: string, now: number): Promise<void> {
  const metrics = [
    ...METHODS.map((m) => `login:${m}`),
    ...METHODS.map((m) => `signup:${m}`),
    ...['wrong_code', 'invalid_link', 'passkey_verification_failed', 'passkey_unconfirmed'].map((r) => `login-failed:${r}`),
    ...SYSTEMS.flatMap(([os, browser]) => ['offered', 'created', 'skipped', 'failed'].map((step) => `funnel:${step}:${os}:${browser}`)),
    'fallback',
  ];
  const rows: unknown[][] = [];
  for (let d = 0; d < 366; d++) {
    const day = new Date(now - d * DAY_MS).toISOString().slice(0, 10);
    metrics.forEach((metric, i) => rows.push([project, day, metric, 10 + ((d * 7 + i * 13) % 500)]));
  }
  const users: unknown[][] = [];
  for (let u = 0; u < USERS; u++) {
    const day = new Date(now - (u % 366) * DAY_MS).toISOString().slice(0, 10);
    users.push([project, `usr-${u}`, day, u % 3 === 0 ? day : null]);
  }
  await store.transaction(async () => {
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500);
      await store.db.run(`INSERT INTO audit_daily (project_id, day, metric, count) VALUES ${batch.map(() => '(?, ?, ?, ?)').join(', ')}`, batch.flat());
    }
    for (let i = 0; i < users.length; i += 500) {
      const batch = users.slice(i, i + 500);
      await store.db.run(`INSERT INTO audit_user_activity (project_id, user_id, last_active_day, last_passkey_day) VALUES ${batch.map(() => '(?, ?, ?, ?)').join(', ')}`, batch.flat());
    }
  });
}

type Timing = { p50Ms: number; p95Ms: number };

async function timed(runs: number, fn: () => Promise<unknown>, warmUps = 3): Promise<Timing> {
  for (let i = 0; i < warmUps; i++) await fn(); // warm-up: page cache, plans, JIT
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: round(percentile(times, 50), 2), p95Ms: round(percentile(times, 95), 2) };
}

const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

/**
 * Seeds and measures one database (a SQLite path or a postgres:// URL of an empty database).
 * `records`: the big project's trail (10 million); `exported`: the second project's (1 million).
 */
export async function auditBench(location: string, records: number, exported: number, runs: number, say: (line: string) => void): Promise<AuditBenchResult> {
  // seeding a million rows in one statement outlasts the server's statement timeout, which is for requests
  const store = await Store.open(location, { timeouts: { statementMs: 3_600_000, idleInTransactionMs: 3_600_000 } });
  try {
    const database = store.db.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
    const now = Date.now();
    const seedStarted = performance.now();
    say(`    seeding ${records.toLocaleString('en')} records of one project and ${exported.toLocaleString('en')} of another (${database}) …`);
    await seedTrail(store, BIG, records, now - 365 * DAY_MS, 365 * DAY_MS, say);
    await seedTrail(store, EXPORTED, exported, now - 30 * DAY_MS, 30 * DAY_MS, say);
    await seedRollups(store, BIG, now);
    // fresh statistics, as a database that grew to this size over a year has them
    await store.db.exec('ANALYZE');
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);

    // audit list --user: one user's records, as JSON lines (a different user each run)
    let user = 0;
    let ofUser = 0;
    const list = await timed(runs, async () => {
      ofUser = await exportRecords(store, { projectId: BIG, userId: `usr-${(user += 7919) % USERS}` }, 'jsonl', () => {});
    });
    const stats = await timed(runs, () => projectStats(store, BIG, 365, now));

    // GET /v2/auditEvents as its handler answers it
    const project = { id: BIG } as ProjectConfig;
    const noRange = { since: undefined, until: undefined };
    const listed = (page: number, filters: { field: 'event'; value: string }[] = [], cursor?: number) =>
      listAuditEvents(store, project, { filters, sort: undefined, page, pageSize: 100 }, { ...noRange, ...(cursor === undefined ? {} : { cursor: String(cursor) }) });
    const failed = [{ field: 'event' as const, value: 'login.failed' }];
    const deepPage = Math.floor(records / 200); // the middle of the trail
    const deepCursor = Math.floor(records * 0.9);
    let firstFiltered = { totalItems: 0, capped: false };
    const auditEvents = {
      runs,
      firstPage: await timed(runs, () => listed(1)),
      deepPage: { page: deepPage, ...(await timed(runs, () => listed(deepPage))) },
      firstPageFiltered: {
        ...(await timed(runs, async () => {
          const answer = await listed(1, failed);
          firstFiltered = { totalItems: answer.paging.totalItems, capped: answer.paging.totalItemsCapped === true };
        })),
        ...firstFiltered,
      },
      deepCursorFiltered: { cursor: deepCursor, ...(await timed(runs, () => listed(1, failed, deepCursor))) },
      before: {
        deepPageByOffset: await timed(3, () => store.audit.page({ projectId: BIG }, 0, 100, (deepPage - 1) * 100), 1),
        exactCountFiltered: { ...(await timed(3, () => store.audit.countUpTo({ projectId: BIG, event: 'login.failed' }, Number.MAX_SAFE_INTEGER), 1)), totalItems: Number(await store.audit.countUpTo({ projectId: BIG, event: 'login.failed' }, Number.MAX_SAFE_INTEGER)) },
      },
    };

    // the export of 1 million records, the heap sampled meanwhile
    globalThis.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let peak = heapBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
    let bytes = 0;
    const started = performance.now();
    const written = await exportRecords(store, { projectId: EXPORTED }, 'jsonl', async (chunk) => {
      bytes += chunk.length;
      // a reader that takes its time now and then: the export waits for it (backpressure)
      await new Promise<void>((resolve) => setImmediate(resolve));
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    globalThis.gc?.();
    return {
      database,
      records,
      users: USERS,
      seedSeconds,
      listOneUser: { runs, records: ofUser, ...list },
      stats365: { runs, ...stats },
      auditEvents,
      export: {
        records: written,
        seconds: round(seconds, 2),
        recordsPerSecond: Math.round(written / seconds),
        megabytes: mb(bytes),
        heapBeforeMb: mb(heapBefore),
        heapPeakMb: mb(peak),
        heapAfterMb: mb(process.memoryUsage().heapUsed),
      },
    };
  } finally {
    await store.close();
  }
}

/**
 * The trail's cost per database: each pair's change of the soak's p95 (and p50), recorded against off,
 * and the median over the pairs (in %).
 */
export function auditOverhead(runs: readonly (ServerResults & { pair: number })[]): Record<string, { pairs: number[]; p95: number; p50: number }> {
  const out: Record<string, { pairs: number[]; p95: number; p50: number }> = {};
  for (const database of new Set(runs.map((r) => r.database))) {
    const own = runs.filter((r) => r.database === database);
    const pairs = [...new Set(own.map((r) => r.pair))].flatMap((pair) => {
      const off = own.find((r) => r.pair === pair && !r.auditTrail);
      const on = own.find((r) => r.pair === pair && r.auditTrail);
      return off && on ? [{ p95: (on.verifyFinish.p95Ms / off.verifyFinish.p95Ms - 1) * 100, p50: (on.verifyFinish.p50Ms / off.verifyFinish.p50Ms - 1) * 100 }] : [];
    });
    if (pairs.length === 0) continue;
    out[database] = { pairs: pairs.map((p) => round(p.p95, 1)), p95: round(median(pairs.map((p) => p.p95)), 1), p50: round(median(pairs.map((p) => p.p50)), 1) };
  }
  return out;
}
