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
  /**
   * Transaction control not sent yet (BEGIN, SAVEPOINT, RELEASE, ROLLBACK TO): it goes with the next
   * statement (query, Pipelined), not in a round trip of its own; what nothing followed is dropped.
   */
  pending: string[];
  /** the next statement is the transaction's last write at commit: the COMMIT goes with it (writeAll) */
  commitNext: boolean;
  /** the COMMIT has been sent */
  committed: boolean;
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

/** Whether the transaction's BEGIN has been sent: until then it heads the pending control. */
const begun = (scope: Scope) => scope.pending[0] !== 'BEGIN';

/** pg's connection where a query writes its messages (pg/lib/connection.js, pg 8). */
interface WireConnection {
  parsedStatements: Record<string, string>;
  parse(message: { text: string; name?: string }): void;
  bind(message: { statement?: string; portal?: string; values?: unknown[] }): void;
  execute(message: { portal?: string; rows?: number }): void;
  sync(): void;
  flush(): void;
}

/** What Pipelined extends of pg's Query: where it writes a statement's messages. */
interface QueryInternals extends pg.Submittable {
  portal: string;
  callback?: (error: Error | null, results?: pg.QueryResult | pg.QueryResult[]) => void;
  prepare(connection: WireConnection): void;
  _getRows(connection: WireConnection, rows: number | undefined): void;
}

const PgQuery = pg.Query as unknown as new (config: pg.QueryConfig & { queryMode?: 'extended' }) => QueryInternals;

/** Parse, Bind and Execute of a statement without parameters or rows (BEGIN, COMMIT), unnamed. */
function sendBare(connection: WireConnection, text: string): void {
  connection.parse({ text });
  connection.bind({});
  connection.execute({});
}

/**
 * A statement with the transaction control pending before it (BEGIN, SAVEPOINT, RELEASE, ROLLBACK TO)
 * and the COMMIT after it, in one pipeline: their messages go in one write before one Sync, and
 * PostgreSQL answers them in one round trip, where pg alone takes one round trip per statement (each a
 * write to the socket and a wake-up of the server and of this process; across a network, one network
 * round trip more per statement). pg's Query writes a statement's messages in prepare() and _getRows()
 * (Execute, then Sync); the control goes before them, COMMIT between Execute and Sync. An error stops
 * PostgreSQL at that message until the Sync: after a failing statement the COMMIT is not run, and the
 * transaction is rolled back as before. The results come one per statement; `own` is the statement's.
 */
class Pipelined extends PgQuery {
  constructor(
    config: pg.QueryConfig,
    private readonly before: readonly string[],
    private readonly after: string | undefined,
  ) {
    super({ ...config, queryMode: 'extended' });
  }

  override prepare(connection: WireConnection): void {
    for (const text of this.before) sendBare(connection, text);
    super.prepare(connection);
  }

  override _getRows(connection: WireConnection, rows: number | undefined): void {
    if (rows) return super._getRows(connection, rows);
    connection.execute({ portal: this.portal });
    if (this.after) sendBare(connection, this.after);
    connection.sync();
  }

  run(client: pg.PoolClient): Promise<pg.QueryResult> {
    const own = this.before.length;
    return new Promise((resolve, reject) => {
      this.callback = (error, results) => (error ? reject(error) : resolve(Array.isArray(results) ? results[own]! : results!));
      void client.query(this);
    });
  }
}

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
      const scope = this.active();
      if (scope) await this.flush(scope);
      await (scope?.client ?? this.pool).query(toPostgresDdl(sql));
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
      // sent with the next statement, as is its end; a savepoint in which no statement ran was never sent
      const savepoint = `SAVEPOINT ${name}`;
      outer.pending.push(savepoint);
      const end = (command: string) => {
        if (outer.pending.at(-1) === savepoint) outer.pending.pop();
        else outer.pending.push(`${command} SAVEPOINT ${name}`);
      };
      try {
        const result = await fn();
        end('RELEASE');
        return result;
      } catch (error) {
        outer.beforeCommit.length = hooks;
        outer.atCommit.length = writes;
        end('ROLLBACK TO');
        throw error;
      }
    }
    let broken = false;
    // A checked-out client is not covered by pool.on('error'): pg-pool removes its idle listener at
    // checkout. Without a listener of ours, a connection the server ends mid-transaction (a restart:
    // 57P01) is an unhandled 'error' event and ends the process. The failing query rejects as well, so
    // the request fails with it; the listener only keeps the process alive and drops the connection.
    const onLost = () => {
      broken = true;
    };
    // The listener goes on in pg-pool's own callback, never after an await: the pool hands a connection
    // to a waiting transaction while it handles the answer that freed it, and a server shutting down
    // sends its FATAL message in the same packet as that answer, before any promise continuation runs
    // (a crash seen on a fresh clone's CI; server/test/faults/pgLostAtHandOver.test.ts).
    let client: pg.PoolClient;
    try {
      client = await new Promise<pg.PoolClient>((resolve, reject) =>
        this.pool.connect((error, taken) => {
          if (error || !taken) return reject(error ?? new Error('pg-pool gave no connection'));
          taken.on('error', onLost);
          resolve(taken);
        }),
      );
    } catch (error) {
      throw translate(error);
    }
    const scope: Scope = { client, pending: ['BEGIN'], commitNext: false, committed: false, done: false, savepoints: 0, afterCommit: [], beforeCommit: [], atCommit: [] };
    try {
      // BEGIN goes with the first statement, COMMIT with the last write at commit (Pipelined)
      let result: T;
      try {
        result = await this.scope.run(scope, fn);
        await this.scope.run(scope, () => runHooks(scope.beforeCommit));
        await this.scope.run(scope, () => this.writeAll(scope));
      } catch (error) {
        scope.done = true;
        // (after a COMMIT that failed, PostgreSQL has ended the transaction: this ROLLBACK only warns)
        if (begun(scope)) {
          await client.query('ROLLBACK').catch(() => {
            broken = true;
          });
        }
        throw error;
      }
      scope.done = true;
      // a transaction that ran no statement has nothing to end; what is pending goes with the COMMIT
      if (begun(scope) && !scope.committed) {
        await client.query([...scope.pending.splice(0), 'COMMIT'].join('; ')).catch((error: unknown) => {
          // a pending RELEASE that failed leaves the transaction open: the connection goes, not back to the pool
          broken = true;
          throw error;
        });
      }
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
    await this.query('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
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
  private async writeAll(scope: Scope): Promise<void> {
    let group: AtCommitWrite[] = [];
    const tables = new Set<string>();
    const send = async () => {
      if (group.length === 1) await this.run(group[0]!.sql, group[0]!.params);
      else await this.run(`WITH ${group.map((w, i) => `w${i} AS (${w.sql})`).join(', ')} SELECT 1`, group.flatMap((w) => w.params));
      group = [];
      tables.clear();
    };
    for (const write of scope.atCommit) {
      if (tables.has(write.table)) await send();
      tables.add(write.table);
      group.push(write);
    }
    if (group.length === 0) return;
    // the last one carries the COMMIT (query, Pipelined); the transaction sends it alone otherwise
    scope.commitNext = true;
    try {
      await send();
    } finally {
      scope.commitNext = false;
    }
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

  /** Sends the pending transaction control now, in a round trip of its own (DDL, a statement's first use on a connection). */
  private async flush(scope: Scope): Promise<void> {
    if (scope.pending.length === 0) return;
    await scope.client.query(scope.pending.splice(0).join('; '));
  }

  /**
   * Runs a statement: in the caller's transaction if any, the first one with its BEGIN and the last
   * write at commit (writeAll) with the COMMIT after it (Pipelined). A named statement that this connection has not
   * parsed yet is not sent with BEGIN: pg notes a statement parsed at the first ParseComplete of the
   * round trip, which would be BEGIN's, so its BEGIN goes first (the first use per connection only).
   */
  private async query(sql: string, params: readonly unknown[]): Promise<pg.QueryResult> {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      const text = numberedPlaceholders(sql);
      // a bound on what each connection keeps prepared: statements beyond it run unnamed
      statement = this.prepared.size < PREPARED_KEPT ? { name: `s${this.prepared.size + 1}`, text } : { name: '', text };
      this.prepared.set(sql, statement);
    }
    const config = { ...(statement.name ? { name: statement.name } : {}), text: statement.text, values: bindParams(params) as unknown[] };
    try {
      const scope = this.active();
      if (!scope) return await (this.detached.getStore() ? this.side : this.pool).query(config);
      const { client } = scope;
      if (statement.name && !(client as unknown as { connection: WireConnection }).connection.parsedStatements[statement.name]) await this.flush(scope);
      const before = scope.pending.splice(0);
      const after = scope.commitNext ? 'COMMIT' : undefined;
      scope.commitNext = false;
      if (after) scope.committed = true;
      if (before.length === 0 && !after) return await client.query(config);
      return await new Pipelined(config, before, after).run(client);
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
