// Section `console` (BENCH_ONLY=console): the console's user search on a project of 1,000,000 users. The
// users (each with an e-mail address, every second with an external id, every fifth with a phone
// number) are seeded straight into a fresh database with set-based SQL, as the audit section seeds its
// trail. Then, in this process, on the server's own Store, the very function the console's route calls
// (server/console/userSearch.ts: the ids, the users and their identifiers of one page of 25) is timed for
// the kinds of query a support person types.
import { resolveProjectConfig } from '../../server/config/projectConfig.ts';
import { searchUsers } from '../../server/console/userSearch.ts';
import { Store } from '../../server/store/Store.ts';
import { percentile, round } from './stats.ts';

export interface ConsoleSearchResult {
  database: 'SQLite' | 'PostgreSQL';
  users: number;
  seedSeconds: number;
  /** per kind of query: runs, the users found on the first page, p50 and p95 */
  queries: { kind: string; runs: number; found: number; p50Ms: number; p95Ms: number }[];
  /** every query of every kind */
  allP95Ms: number;
}

const PROJECT = 'pro-8101';
const NAMES = ['anna', 'ben', 'chloe', 'david', 'emma', 'felix', 'grace', 'hugo', 'ida', 'jonas', 'karl', 'lena', 'max', 'nora', 'oskar', 'paula', 'quinn', 'rosa', 'sam', 'tara', 'ulf', 'vera', 'wim', 'xenia', 'yusuf', 'zoe'];
const FIRST_ID = 1_000_000_000_000_000_000n;

/** The SELECTs that make users and identifiers 1…count from a number series `x`. */
function seedStatements(now: number): { users: string; emails: string; phones: string } {
  const name = `CASE x % ${NAMES.length} ${NAMES.map((n, i) => `WHEN ${i} THEN '${n}'`).join(' ')} END`;
  const email = `${name} || '.' || x || '@mail' || (x % 13) || '.example'`;
  const userId = `'usr-' || (${FIRST_ID} + x)`;
  return {
    users: `SELECT ${userId}, '${PROJECT}', ${name}, 'h' || x, ${now} - x, 'active', CASE WHEN x % 2 = 0 THEN 'CRM-' || x ELSE NULL END`,
    emails: `SELECT 'ide-' || (${FIRST_ID} + x), ${userId}, '${PROJECT}', 'email', ${email}, ${email}, 'verified', 1, ${now} - x`,
    phones: `SELECT 'ide-' || (${FIRST_ID} * 2 + x), ${userId}, '${PROJECT}', 'phone', '+49151' || (10000000 + x), '+49151' || (10000000 + x), 'pending', 1, ${now} - x`,
  };
}

async function seed(store: Store, count: number, now: number, say: (line: string) => void): Promise<void> {
  await store.projects.insert(resolveProjectConfig(PROJECT, { allowedOrigins: ['https://shop.example'], identifiers: { email: {}, phone: { required: false } } }, undefined), now);
  const chunk = 250_000;
  const s = seedStatements(now);
  for (let from = 1; from <= count; from += chunk) {
    const to = Math.min(count, from + chunk - 1);
    const series = (select: string, where = '') =>
      store.db.dialect === 'postgres'
        ? `${select} FROM generate_series(${from}::bigint, ${to}::bigint) AS x${where}`
        : `WITH RECURSIVE c(x) AS (SELECT ${from} UNION ALL SELECT x + 1 FROM c WHERE x < ${to}) ${select} FROM c${where}`;
    await store.transaction(async () => {
      await store.db.run(`INSERT INTO users (id, project_id, full_name, user_handle, created_at, status, external_id) ${series(s.users)}`);
      await store.db.run(`INSERT INTO identifiers (id, user_id, project_id, type, value, normalized, status, is_primary, created_at) ${series(s.emails)}`);
      await store.db.run(`INSERT INTO identifiers (id, user_id, project_id, type, value, normalized, status, is_primary, created_at) ${series(s.phones, ' WHERE x % 5 = 0')}`);
    });
    say(`      ${to.toLocaleString('en')} of ${count.toLocaleString('en')} users`);
  }
}

/** Seeds `count` users into an empty database (a SQLite path or a postgres:// URL) and times the search. */
export async function consoleSearchBench(location: string, count: number, runs: number, say: (line: string) => void): Promise<ConsoleSearchResult> {
  const store = await Store.open(location, { timeouts: { statementMs: 3_600_000, idleInTransactionMs: 3_600_000 } });
  try {
    const database = store.db.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
    const now = Date.now();
    const seedStarted = performance.now();
    say(`    seeding ${count.toLocaleString('en')} users (${database}) …`);
    await seed(store, count, now, say);
    await store.db.exec('ANALYZE');
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);

    let n = 0;
    const pick = () => 1 + ((n += 7919) % count);
    const kinds: [string, () => string][] = [
      ['first letters of an address (5)', () => `${NAMES[pick() % NAMES.length]!}.${String(pick()).slice(0, 1)}`.slice(0, 5).toUpperCase()],
      ['two letters of an address', () => NAMES[pick() % NAMES.length]!.slice(0, 2)],
      ['a whole address', () => { const x = pick(); return `${NAMES[x % NAMES.length]}.${x}@mail${x % 13}.example`; }],
      ['a phone number, typed with spaces', () => `+49 151 ${10_000_000 + pick() * 5}`.slice(0, 12)],
      ['the start of a user id', () => `usr-${FIRST_ID + BigInt(pick())}`.slice(0, 14)],
      ['an external id', () => `crm-${pick() * 2}`],
      ['no query (the first page of all)', () => ''],
    ];
    const queries: ConsoleSearchResult['queries'] = [];
    const all: number[] = [];
    for (const [kind, query] of kinds) {
      for (let i = 0; i < 3; i++) await searchUsers(store, PROJECT, query(), ['', ''], 25); // warm-up
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < runs; i++) {
        const q = query();
        const started = performance.now();
        const page = await searchUsers(store, PROJECT, q, ['', ''], 25);
        times.push(performance.now() - started);
        found += page.users.length;
      }
      all.push(...times);
      times.sort((a, b) => a - b);
      queries.push({ kind, runs, found: Math.round(found / runs), p50Ms: round(percentile(times, 50), 2), p95Ms: round(percentile(times, 95), 2) });
    }
    all.sort((a, b) => a - b);
    return { database, users: count, seedSeconds, queries, allP95Ms: round(percentile(all, 95), 2) };
  } finally {
    await store.close();
  }
}
