// PostgreSQL behind the Database interface (DATABASE_URL=postgres://…): a connection pool, the same
// SQL and the same migrations as SQLite. Any number of API instances can share one database.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { addAtCommit, addBeforeCommit, bindParams, runHooks, UniqueViolation, type AtCommitWrite, type Database, type PoolState } from './Database.ts';
import { DatabaseUnavailable, DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './DatabaseUnavailable.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { migrate } from './migrate.ts';

interface Scope {
  client: pg.PoolClient;
  done: boolean;
  savepoints: number;
  afterCommit: (() => void)[];
  beforeCommit: (() => Promise<void>)[];
  /** writeAtCommit's statements, in order */
  atCommit: AtCommitWrite[];
}

export interface PostgresOptions {
  /** connections in the pool (default 10) */
  poolSize?: number;
  /** a schema of its own (created if missing), e.g. one per test server */
  schema?: string;
  /** bounds on every wait (default DEFAULT_DATABASE_TIMEOUTS; each one given replaces its default) */
  timeouts?: Partial<DatabaseTimeouts>;
}

const INT8_OID = 20;

export class PostgresDatabase implements Database {
  readonly dialect = 'postgres' as const;
  readonly forUpdate = ' FOR UPDATE';
  private readonly scope = new AsyncLocalStorage<Scope>();
  /** set inside outsideTransaction: its statements use the side pool */
  private readonly detached = new AsyncLocalStorage<true>();
  /**
   * Each statement's PostgreSQL text and the name it is prepared under: a connection parses and plans
   * it the first time it runs it, then only binds and executes (a named statement in pg).
   */
  private readonly prepared = new Map<string, { name: string; text: string }>();

  /**
   * `pool` serves transactions and plain statements; `side`, a few connections of its own, serves
   * outsideTransaction. A transaction holding a connection of `pool` may wait for `side`, never the
   * other way round, so the two cannot deadlock however many requests run at once.
   */
  private constructor(
    private readonly pool: pg.Pool,
    private readonly side: pg.Pool,
  ) {}

  static async open(url: string, migrations: Migration[] = MIGRATIONS, options: PostgresOptions = {}): Promise<PostgresDatabase> {
    const schema = options.schema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
    const timeouts = { ...DEFAULT_DATABASE_TIMEOUTS, ...options.timeouts };
    if (schema) {
      const setup = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeouts.connectMs, statement_timeout: timeouts.statementMs });
      setup.on('error', () => {}); // a connection lost here fails the query below, which open() reports
      try {
        await setup.connect();
        await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      } catch (error) {
        throw translate(error);
      } finally {
        await setup.end().catch(() => {});
      }
    }
    const size = options.poolSize ?? 10;
    // pg-pool hands its connectionTimeoutMillis to both the wait for a free connection and each new
    // connection; a client class of our own gives the connection its own bound.
    class BoundedClient extends pg.Client {
      constructor(config?: pg.ClientConfig) {
        super({ ...config, connectionTimeoutMillis: timeouts.connectMs });
      }
    }
    const newPool = (max: number) => {
      const pool = new pg.Pool({
        connectionString: url,
        max,
        Client: BoundedClient,
        connectionTimeoutMillis: timeouts.poolCheckoutMs,
        // the server ends what waits too long: a statement, a lock wait, a transaction left idle (each
        // an error the request answers 503 with), so no request waits without bound
        statement_timeout: timeouts.statementMs,
        lock_timeout: timeouts.lockMs,
        idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
        // a peer that vanished without closing the socket (network cut) is noticed
        keepAlive: true,
        ...(schema ? { options: `-c search_path=${schema}` } : {}),
        // timestamps are milliseconds in BIGINT columns: numbers, not strings
        types: {
          getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
            oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
        },
      });
      pool.on('error', () => {}); // an idle connection that dies is replaced on the next query
      return pool;
    };
    const db = new PostgresDatabase(newPool(size), newPool(Math.max(2, Math.ceil(size / 4))));
    try {
      await migrate(db, migrations);
    } catch (error) {
      await db.close();
      throw error;
    }
    return db;
  }

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }

  async get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.query(sql, params)).rows[0] as T | undefined;
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.query(sql, params)).rowCount ?? 0;
  }

  async exec(sql: string): Promise<void> {
    try {
      await (this.active()?.client ?? this.pool).query(toPostgresDdl(sql));
    } catch (error) {
      throw translate(error);
    }
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    const outer = this.active();
    if (outer) {
      const name = `sp${++outer.savepoints}`;
      const hooks = outer.beforeCommit.length;
      const writes = outer.atCommit.length;
      await outer.client.query(`SAVEPOINT ${name}`);
      try {
        const result = await fn();
        await outer.client.query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        outer.beforeCommit.length = hooks;
        outer.atCommit.length = writes;
        await outer.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    }
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw translate(error);
    }
    const scope: Scope = { client, done: false, savepoints: 0, afterCommit: [], beforeCommit: [], atCommit: [] };
    let broken = false;
    // A checked-out client is not covered by pool.on('error'): pg-pool removes its idle listener at
    // checkout. Without a listener of ours, a connection the server ends mid-transaction (a restart:
    // 57P01) is an unhandled 'error' event and ends the process. The failing query rejects as well, so
    // the request fails with it; the listener only keeps the process alive and drops the connection.
    const onLost = () => {
      broken = true;
    };
    client.on('error', onLost);
    try {
      await client.query('BEGIN');
      let result: T;
      try {
        result = await this.scope.run(scope, fn);
        await this.scope.run(scope, () => runHooks(scope.beforeCommit));
        await this.scope.run(scope, () => this.writeAll(scope.atCommit));
      } catch (error) {
        scope.done = true;
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw error;
      }
      scope.done = true;
      await client.query('COMMIT');
      for (const callback of scope.afterCommit) callback();
      return result;
    } catch (error) {
      const translated = translate(error);
      if (translated instanceof DatabaseUnavailable) broken = true;
      throw translated;
    } finally {
      scope.done = true;
      client.removeListener('error', onLost);
      client.release(broken);
    }
  }

  async lockKey(key: string): Promise<void> {
    const scope = this.active();
    if (!scope) throw new Error('lockKey needs a transaction');
    await scope.client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
  }

  outsideTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.scope.exit(() => this.detached.run(true, fn));
  }

  currentTransaction(): object | undefined {
    return this.active();
  }

  beforeCommit(fn: () => Promise<void>): void {
    addBeforeCommit(this.active(), fn);
  }

  writeAtCommit(sql: string, params: readonly unknown[]): void {
    addAtCommit(this.active(), sql, params);
  }

  /**
   * A transaction's writeAtCommit statements, together: `WITH w0 AS (…), w1 AS (…) SELECT 1`. Every
   * data-modifying CTE runs to completion whether the outer SELECT reads it or not, and a failing one
   * fails the statement, so the transaction rolls back as it would for one of them alone. PostgreSQL
   * runs the CTEs of one statement in an order of its own, so two writes of the same table (audit
   * records staged by two hooks, whose ids must follow their order) never share a statement: a write
   * of a table already in the statement begins the next one. The text is the same for the same writes
   * (a sign-up's completion: its process's state and its audit records), so it is prepared once per
   * connection like any other.
   */
  private async writeAll(writes: readonly AtCommitWrite[]): Promise<void> {
    let group: AtCommitWrite[] = [];
    const tables = new Set<string>();
    const send = async () => {
      if (group.length === 1) await this.run(group[0]!.sql, group[0]!.params);
      else if (group.length > 1) await this.run(`WITH ${group.map((w, i) => `w${i} AS (${w.sql})`).join(', ')} SELECT 1`, group.flatMap((w) => w.params));
      group = [];
      tables.clear();
    };
    for (const write of writes) {
      if (tables.has(write.table)) await send();
      tables.add(write.table);
      group.push(write);
    }
    await send();
  }

  afterCommit(fn: () => void): void {
    const scope = this.active();
    if (scope) scope.afterCommit.push(fn);
    else fn();
  }

  pools(): PoolState[] {
    const state = (name: string, pool: pg.Pool): PoolState => ({
      name,
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    });
    return [state('main', this.pool), state('side', this.side)];
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.side.end()]);
  }

  private active(): Scope | undefined {
    const scope = this.scope.getStore();
    return scope && !scope.done ? scope : undefined;
  }

  private async query(sql: string, params: readonly unknown[]): Promise<pg.QueryResult> {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      const text = numberedPlaceholders(sql);
      // a bound on what each connection keeps prepared: statements beyond it run unnamed
      statement = this.prepared.size < PREPARED_KEPT ? { name: `s${this.prepared.size + 1}`, text } : { name: '', text };
      this.prepared.set(sql, statement);
    }
    try {
      return await (this.active()?.client ?? (this.detached.getStore() ? this.side : this.pool)).query({ ...(statement.name ? { name: statement.name } : {}), text: statement.text, values: bindParams(params) as unknown[] });
    } catch (error) {
      throw translate(error);
    }
  }
}

/** How many distinct statements run prepared (named) on each connection. */
const PREPARED_KEPT = 500;

function translate(error: unknown): unknown {
  if (error instanceof UniqueViolation || error instanceof DatabaseUnavailable) return error;
  if ((error as { code?: string }).code === '23505') return new UniqueViolation(error);
  const reason = unavailableReason(error);
  return reason ? new DatabaseUnavailable(reason, error) : error;
}

// Socket errors while connecting or talking to the server
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

// SQLSTATEs that say "not now" rather than "never": the same call may succeed once the server is back
// or the lock is free. Class 08 (connection exceptions) is matched as a whole.
const TRANSIENT_STATES: Record<string, string> = {
  '57P01': 'the server is shutting down (57P01)',
  '57P02': 'the server crashed (57P02)',
  '57P03': 'the server is starting up (57P03)',
  '53300': 'too many connections (53300)',
  '57014': 'statement timeout (57014)',
  '55P03': 'lock timeout (55P03)',
  '25P03': 'idle-in-transaction timeout (25P03)',
};

/** Why an error means the database is unavailable for now, or undefined for any other error. */
export function unavailableReason(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return `cannot reach the database (${code})`;
    if (code.startsWith('08')) return `connection failed (${code})`;
    if (TRANSIENT_STATES[code]) return TRANSIENT_STATES[code];
  }
  // pg's own errors carry no code: a socket closed under a query, a connect or checkout timeout, a
  // client already known broken
  const message = error instanceof Error ? error.message : '';
  // a table changed by a migration under a statement a connection prepared before (SELECT * gained a
  // column): this connection is dropped (DatabaseUnavailable), the next one prepares it afresh
  if (/cached plan must not change result type/.test(message)) return 'the schema changed under a prepared statement (0A000)';
  if (/Connection terminated|timeout exceeded when trying to connect|connection timeout|not queryable|Connection refused/i.test(message)) {
    return message;
  }
  return undefined;
}

/** `?` placeholders become `$1`, `$2`, … (never inside a quoted string). */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  let quoted = false;
  let out = '';
  for (const ch of sql) {
    if (ch === "'") quoted = !quoted;
    out += ch === '?' && !quoted ? `$${++n}` : ch;
  }
  return out;
}

/**
 * The migrations are written once, in the SQL both engines read, with SQLite's type names. PostgreSQL
 * gets 64-bit integers (timestamps are milliseconds), BYTEA for blobs and a sequence for AUTOINCREMENT.
 */
export function toPostgresDdl(sql: string): string {
  return sql
    .replace(/\bINTEGER PRIMARY KEY AUTOINCREMENT\b/g, 'BIGSERIAL PRIMARY KEY')
    .replace(/\bINTEGER\b/g, 'BIGINT')
    .replace(/\bBLOB\b/g, 'BYTEA');
}
