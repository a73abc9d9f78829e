// Reading the audit trail: the chain check (`audit verify`), the export (`audit list | export`, JSON
// lines or CSV, page by page so that millions of records stream in flat memory), the records as the
// Backend API answers them, retention, and the adoption figures (`stats`, GET /v2/stats). Each first
// has the sealer chain what is staged (sealer.ts): a reader sees every record committed before it asked.
import { auditHash, GENESIS_HASH, type AuditFilter, type AuditRecord } from '../store/AuditRepo.ts';
import type { Store } from '../store/Store.ts';
import { dayOf, FUNNEL_STEPS } from './rollups.ts';
import { sealPending } from './sealer.ts';

export interface ChainCheck {
  projectId: string;
  /** whether every kept record is there, unaltered, in order */
  whole: boolean;
  records: number;
  /** the first record found broken (or missing), and why */
  broken?: { seq: number; problem: string };
}

/**
 * Checks a project's chain from its oldest kept record (whose stored predecessor hash is taken as
 * given, unless it is the first record ever) to the head: a record altered (its hash no longer fits
 * its content), deleted (a gap in the sequence, or one missing at either end) or re-linked is named.
 */
export async function verifyChain(store: Store, projectId: string): Promise<ChainCheck> {
  await sealPending(store);
  const head = await store.audit.head(projectId);
  let expectedSeq = head?.firstSeq ?? 1;
  let previous: string | undefined = expectedSeq === 1 ? GENESIS_HASH : undefined;
  let records = 0;
  const broken = (seq: number, problem: string): ChainCheck => ({ projectId, whole: false, records, broken: { seq, problem } });
  for await (const r of store.audit.stream({ projectId }, 5000)) {
    if (r.seq !== expectedSeq) return broken(expectedSeq, r.seq > expectedSeq ? `record ${expectedSeq} is missing` : `record ${r.seq} is out of place`);
    if (auditHash(r) !== r.hash) return broken(r.seq, `record ${r.seq} was altered: its hash does not fit its content`);
    if (previous !== undefined && r.prevHash !== previous) return broken(r.seq, `record ${r.seq} does not follow record ${r.seq - 1}`);
    previous = r.hash;
    expectedSeq = r.seq + 1;
    records++;
  }
  const lastSeq = head?.seq ?? 0;
  if (expectedSeq <= lastSeq) return broken(expectedSeq, `record ${expectedSeq} is missing (the newest is ${lastSeq})`);
  if (head && records > 0 && previous !== head.hash) return broken(lastSeq, `record ${lastSeq} was altered: it is not the newest record written`);
  return { projectId, whole: true, records };
}

/** A record as it is read out: the time as RFC 3339, details as an object, the project left out (it was asked for). */
export type ShownRecord = Omit<AuditRecord, 'projectId' | 'at' | 'details'> & { at: string; details: Record<string, unknown> };

export function shownRecord(r: AuditRecord): ShownRecord {
  return {
    seq: r.seq,
    at: new Date(r.at).toISOString(),
    event: r.event,
    outcome: r.outcome,
    reason: r.reason,
    actor: r.actor,
    userId: r.userId,
    target: r.target,
    ip: r.ip,
    browser: r.browser,
    os: r.os,
    requestId: r.requestId,
    details: JSON.parse(r.details) as Record<string, unknown>,
    hash: r.hash,
    prevHash: r.prevHash,
  };
}

const CSV_COLUMNS = ['seq', 'at', 'event', 'outcome', 'reason', 'actor', 'userId', 'target', 'ip', 'browser', 'os', 'requestId', 'details', 'hash', 'prevHash'] as const;

function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  // a leading =, +, - or @ would be a formula in a spreadsheet: quoted with a leading apostrophe
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Writes a chunk; resolves when the reader can take more (backpressure). */
export type Sink = (chunk: string) => Promise<void> | void;

/**
 * Streams the records of a filter to `sink` as JSON lines or CSV (with a header line), in chain order,
 * a page at a time, several records to a chunk. Resolves to the number written.
 */
export async function exportRecords(store: Store, filter: AuditFilter, format: 'jsonl' | 'csv', sink: Sink): Promise<number> {
  await sealPending(store);
  let written = 0;
  let chunk = format === 'csv' ? `${CSV_COLUMNS.join(',')}\n` : '';
  for await (const record of store.audit.stream(filter)) {
    const shown = shownRecord(record);
    chunk += format === 'csv' ? `${CSV_COLUMNS.map((c) => csvField(shown[c])).join(',')}\n` : `${JSON.stringify(shown)}\n`;
    written++;
    if (chunk.length >= 64 * 1024) {
      await sink(chunk);
      chunk = '';
    }
  }
  if (chunk) await sink(chunk);
  return written;
}

/**
 * Retention: deletes the project's records older than its `auditRetentionDays`, a batch per
 * transaction (no long lock on the trail). Resolves to the number deleted.
 */
export async function applyRetention(store: Store, projectId: string, retentionDays: number, now: number, batch = 5000): Promise<number> {
  await sealPending(store);
  const before = now - retentionDays * 86_400_000;
  let deleted = 0;
  for (;;) {
    const n = await store.audit.trimBatch(projectId, before, batch);
    deleted += n;
    if (n === 0) return deleted;
  }
}

/**
 * The server's retention job: every project's trail trimmed to its auditRetentionDays, once shortly
 * after start-up and then every `everyMs` (hourly). Returns the stop function. Instances sharing a
 * database may all run it: each batch is its own transaction under the project's trail lock.
 */
export function startRetention(store: Store, now: () => number, onError: (error: unknown) => void, everyMs = 3_600_000, firstAfterMs = 60_000): () => void {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= (async () => {
      for (const { config } of await store.projects.list()) await applyRetention(store, config.id, config.auditRetentionDays, now());
    })()
      .catch(onError)
      .finally(() => (running = undefined));
  };
  const first = setTimeout(run, firstAfterMs);
  const timer = setInterval(run, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

export interface Stats {
  projectId: string;
  days: number;
  /** the first day counted, YYYY-MM-DD (UTC) */
  from: string;
  signups: Record<string, number>;
  logins: Record<string, number>;
  failedLogins: Record<string, number>;
  /** the passkey funnel per OS and browser family */
  funnel: { os: string; browser: string; offered: number; created: number; skipped: number; failed: number }[];
  adoption: {
    /** users who signed up or logged in in the period */
    activeUsers: number;
    /** of them, those who held a passkey then */
    activeUsersWithPasskey: number;
    /** activeUsersWithPasskey / activeUsers (0 without active users) */
    passkeyUserShare: number;
    /** log-ins by passkey (passkey-verify and autofill) / all log-ins */
    passkeyLoginShare: number;
    /** log-ins by code or link in a process that tried a passkey first */
    fallbacks: number;
  };
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000;
}

/** The adoption figures of the last `days` days (today included), from the daily rollups. */
export async function projectStats(store: Store, projectId: string, days: number, now: number): Promise<Stats> {
  await sealPending(store);
  const from = dayOf(now - (days - 1) * 86_400_000);
  const totals = await store.audit.totals(projectId, from);
  const signups: Record<string, number> = {};
  const logins: Record<string, number> = {};
  const failedLogins: Record<string, number> = {};
  const funnel = new Map<string, Stats['funnel'][number]>();
  for (const [metric, count] of [...totals].sort(([a], [b]) => a.localeCompare(b))) {
    const [kind, ...rest] = metric.split(':');
    const name = rest.join(':');
    if (kind === 'signup') signups[name] = count;
    else if (kind === 'login') logins[name] = count;
    else if (kind === 'login-failed') failedLogins[name] = count;
    else if (kind === 'funnel') {
      const [step, os, browser] = rest as [(typeof FUNNEL_STEPS)[number], string, string];
      const key = `${os}\u0000${browser}`;
      const row = funnel.get(key) ?? { os, browser, offered: 0, created: 0, skipped: 0, failed: 0 };
      row[step] = count;
      funnel.set(key, row);
    }
  }
  const active = await store.audit.activeUsers(projectId, from);
  const allLogins = Object.values(logins).reduce((a, b) => a + b, 0);
  const byPasskey = (logins.passkey ?? 0) + (logins['passkey-autofill'] ?? 0);
  return {
    projectId,
    days,
    from,
    signups,
    logins,
    failedLogins,
    funnel: [...funnel.values()],
    adoption: {
      activeUsers: active.active,
      activeUsersWithPasskey: active.withPasskey,
      passkeyUserShare: ratio(active.withPasskey, active.active),
      passkeyLoginShare: ratio(byPasskey, allLogins),
      fallbacks: totals.get('fallback') ?? 0,
    },
  };
}

/** The figures as the admin command prints them: a few plain tables. */
export function statsTable(stats: Stats): string {
  const table = (title: string, header: string[], rows: (string | number)[][]): string => {
    if (rows.length === 0) return `${title}\n  (none)\n`;
    const cells = [header, ...rows.map((r) => r.map(String))];
    const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
    return `${title}\n${cells.map((r) => `  ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`.trimEnd()).join('\n')}\n`;
  };
  const counts = (o: Record<string, number>) => Object.entries(o).map(([k, v]) => [k, v]);
  const a = stats.adoption;
  const percent = (x: number) => `${(x * 100).toFixed(1)} %`;
  return [
    `Project ${stats.projectId}, the last ${stats.days} days (from ${stats.from}, UTC)\n`,
    table('Sign-ups', ['method', 'count'], counts(stats.signups)),
    table('Log-ins', ['method', 'count'], counts(stats.logins)),
    table('Failed log-ins', ['reason', 'count'], counts(stats.failedLogins)),
    table('Passkey funnel', ['os / browser', 'offered', 'created', 'skipped', 'failed'], stats.funnel.map((f) => [`${f.os} / ${f.browser}`, f.offered, f.created, f.skipped, f.failed])),
    table('Adoption', ['figure', 'value'], [
      ['active users', a.activeUsers],
      ['with a passkey', `${a.activeUsersWithPasskey} (${percent(a.passkeyUserShare)})`],
      ['log-ins by passkey', percent(a.passkeyLoginShare)],
      ['fallbacks to a code', a.fallbacks],
    ]),
  ].join('\n');
}
