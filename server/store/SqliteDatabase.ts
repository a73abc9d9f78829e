// SQLite behind the Database interface: one better-sqlite3 connection to a file in WAL mode.
//
// better-sqlite3 runs each statement synchronously, but a transaction here spans awaits (a WebAuthn
// verification, say). So transactions take turns through a queue, and a statement outside any
// transaction waits for the running one to end instead of slipping into it.
import type BetterSqlite from 'better-sqlite3';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { addAtCommit, addBeforeCommit, bindParams, runHooks, UniqueViolation, type AtCommitWrite, type Database, type PoolState } from './Database.ts';
import { DatabaseUnavailable, DEFAULT_DATABASE_TIMEOUTS } from './DatabaseUnavailable.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { migrate } from './migrate.ts';
import { DEFAULT_CHECKPOINTER, WalCheckpointer, type CheckpointerOptions } from './walCheckpointer.ts';

/** The WAL's checkpoints on a thread of their own (walCheckpointer.ts), from the `startAfterWrites`th write on. */
export interface SqliteCheckpointing extends CheckpointerOptions {
  /** writes (committed transactions, statements outside one) before the thread starts: a short-lived database never pays for it */
  startAfterWrites: number;
}

/** SQLite's own threshold, in pages, when the checkpoints run inside a commit */
const AUTOCHECKPOINT_PAGES = 1000;

interface Scope {
  done: boolean;
  savepoints: number;
  afterCommit: (() => void)[];
  beforeCommit: (() => Promise<void>)[];
  /** writeAtCommit's statements, in order */
  atCommit: AtCommitWrite[];
}

/**
 * better-sqlite3 is loaded only when a SQLite file is opened: it is a native module and an optional
 * dependency of the package, so a deployer on PostgreSQL installs without building it.
 */
async function loadBetterSqlite(): Promise<typeof BetterSqlite> {
  try {
    return (await import('better-sqlite3')).default;
  } catch (error) {
    throw new Error('SQLite needs the optional package better-sqlite3 (npm install better-sqlite3@12), or set DATABASE_URL to a PostgreSQL database', { cause: error });
  }
}

export class SqliteDatabase implements Database {
  readonly dialect = 'sqlite' as const;
  readonly forUpdate = '';
  private readonly scope = new AsyncLocalStorage<Scope>();
  private readonly statements = new Map<string, BetterSqlite.Statement>();
  private busy = false;
  private readonly waiting: (() => void)[] = [];
  /** writes left before the checkpointer starts; undefined: none for this database */
  private writesBeforeCheckpointer: number | undefined;
  private checkpointer: WalCheckpointer | undefined;

  private constructor(
    private readonly db: BetterSqlite.Database,
    private readonly busyMs: number,
    private readonly checkpointing: SqliteCheckpointing | false,
  ) {}

  /**
   * Opens (or creates) the file and brings its schema up to date. `busyMs`: how long a write waits for
   * another connection (another process on the same file) to release its lock before the call fails
   * with DatabaseUnavailable.
   */
  static async open(
    path: string,
    migrations: Migration[] = MIGRATIONS,
    options: { busyMs?: number; checkpointing?: SqliteCheckpointing | false } = {},
  ): Promise<SqliteDatabase> {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const raw = new (await loadBetterSqlite())(path);
    raw.pragma('journal_mode = WAL');
    // WAL's recommended setting: commits survive a crash of the process, the last ones may not
    // survive a power cut; the file never corrupts
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    // SQLite's own busy handler sleeps inside the synchronous call, which would stop the whole event
    // loop (every other request, the liveness probe) while another connection holds the lock; the wait
    // is done here instead, asynchronously, between short attempts (see retryWhileBusy)
    raw.pragma('busy_timeout = 0');
    // an in-memory database has no log to checkpoint
    const checkpointing = path === ':memory:' ? false : (options.checkpointing ?? { ...DEFAULT_CHECKPOINTER, startAfterWrites: 200 });
    const db = new SqliteDatabase(raw, options.busyMs ?? DEFAULT_DATABASE_TIMEOUTS.busyMs, checkpointing);
    await migrate(db, migrations);
    // counted from here: the migrations' own writes are not the service's
    if (checkpointing !== false) db.writesBeforeCheckpointer = checkpointing.startAfterWrites;
    return db;
  }

  all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.statement(() => this.prepare(sql).all(...bindParams(params)) as T[]);
  }

  get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return this.statement(() => this.prepare(sql).get(...bindParams(params)) as T | undefined);
  }

  run(sql: string, params: readonly unknown[] = []): Promise<number> {
    const done = this.statement(() => this.prepare(sql).run(...bindParams(params)).changes);
    if (!this.active()) this.wrote();
    return done;
  }

  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void> {
    return this.statement(() => {
      this.db.exec(sql);
    });
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    const outer = this.active();
    if (outer) {
      const name = `sp${++outer.savepoints}`;
      const hooks = outer.beforeCommit.length;
      const writes = outer.atCommit.length;
      this.db.exec(`SAVEPOINT ${name}`);
      try {
        const result = await fn();
        this.db.exec(`RELEASE ${name}`);
        return result;
      } catch (error) {
        // a full disk or an I/O error may have rolled the whole transaction back already
        outer.beforeCommit.length = hooks;
        outer.atCommit.length = writes;
        if (this.db.inTransaction) this.db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
        throw error;
      }
    }
    await this.acquire();
    const scope: Scope = { done: false, savepoints: 0, afterCommit: [], beforeCommit: [], atCommit: [] };
    try {
      await this.retryWhileBusy(() => this.db.exec('BEGIN IMMEDIATE'));
      let result: T;
      try {
        result = await this.scope.run(scope, fn);
        await this.scope.run(scope, () => runHooks(scope.beforeCommit));
        // in process a statement costs no round trip: one by one, in order
        for (const write of scope.atCommit) await this.scope.run(scope, () => this.run(write.sql, write.params));
        await settle(() => this.db.exec('COMMIT'));
        this.wrote();
      } catch (error) {
        scope.done = true;
        // SQLite rolls back by itself on some errors (SQLITE_FULL, SQLITE_IOERR); a ROLLBACK that fails
        // too leaves nothing more to do, and the caller learns of the first error
        if (this.db.inTransaction) {
          try {
            this.db.exec('ROLLBACK');
          } catch {
            // the first error is the one to report
          }
        }
        throw error;
      }
      scope.done = true;
      for (const callback of scope.afterCommit) callback();
      return result;
    } finally {
      scope.done = true;
      this.release();
    }
  }

  lockKey(): Promise<void> {
    return Promise.resolve(); // one writer at a time already
  }

  outsideTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return fn(); // one connection: a statement outside would wait for the very transaction it runs in
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

  afterCommit(fn: () => void): void {
    const scope = this.active();
    if (scope) scope.afterCommit.push(fn);
    else fn();
  }

  async close(): Promise<void> {
    this.writesBeforeCheckpointer = undefined;
    await this.checkpointer?.stop();
    this.checkpointer = undefined;
    await this.acquire();
    if (this.db.open) this.db.close();
    this.release();
  }

  /** The checkpointer thread, once running (tests). */
  walCheckpointer(): WalCheckpointer | undefined {
    return this.checkpointer;
  }

  /** Counts a write; the one that reaches `startAfterWrites` moves the checkpoints to their thread. */
  private wrote(): void {
    if (this.writesBeforeCheckpointer === undefined || this.writesBeforeCheckpointer-- > 0 || this.checkpointing === false) return;
    this.writesBeforeCheckpointer = undefined;
    const options = this.checkpointing;
    this.checkpointer = WalCheckpointer.start(this.db.name, options, () => {
      // the thread ended on its own: checkpoints run inside the commits again
      this.checkpointer = undefined;
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    });
    // SQLite's own checkpoint only as a backstop, should the thread fall far behind
    this.db.pragma(`wal_autocheckpoint = ${Math.max(AUTOCHECKPOINT_PAGES, options.restartFrames * 4)}`);
  }

  private active(): Scope | undefined {
    const scope = this.scope.getStore();
    return scope && !scope.done ? scope : undefined;
  }

  /** Runs a statement now inside the caller's transaction, otherwise when no transaction is running. */
  private statement<T>(fn: () => T): Promise<T> {
    if (this.active()) return settle(fn);
    // Nothing running: the statement runs now, synchronously, so nothing can slip in between (no
    // queue turn, no promise per step). Only when another connection holds the file's lock does it
    // need a turn of its own below: while it waits that lock out, a transaction starting here would
    // otherwise take its statement in.
    if (!this.busy) {
      const now = settle(fn);
      return now.catch((error: unknown) => (isBusy(error) ? this.statementInTurn(fn) : Promise.reject(error)));
    }
    return this.statementInTurn(fn);
  }

  private statementInTurn<T>(fn: () => T): Promise<T> {
    return this.acquire().then(async () => {
      try {
        return await this.retryWhileBusy(fn);
      } finally {
        this.release();
      }
    });
  }

  /**
   * Runs fn, and again after a short pause while another connection holds the file's write lock, for
   * at most busyMs; then DatabaseUnavailable. The pauses are timers, so other requests run meanwhile.
   */
  private async retryWhileBusy<T>(fn: () => T): Promise<T> {
    const deadline = performance.now() + this.busyMs;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      try {
        return await settle(fn);
      } catch (error) {
        const busy = isBusy(error);
        const left = deadline - performance.now();
        if (!busy || left <= 0) throw error;
        await sleep(Math.min(pause, left));
      }
    }
  }

  /** One connection: in use while a transaction or statement has its turn; the queue waits for it. */
  pools(): PoolState[] {
    return [{ name: 'main', inUse: this.busy ? 1 : 0, idle: this.busy ? 0 : 1, waiting: this.waiting.length }];
  }

  private prepare(sql: string): BetterSqlite.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private acquire(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }
}

function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    const code = sqliteCode(error);
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return Promise.reject(new UniqueViolation(error));
    const reason = code && unavailableReason(code);
    return Promise.reject(reason ? new DatabaseUnavailable(reason, error) : error);
  }
}

/** Another connection holds the file's lock (DatabaseUnavailable from settle). */
function isBusy(error: unknown): boolean {
  return error instanceof DatabaseUnavailable && /^SQLITE_BUSY/.test(sqliteCode(error.cause) ?? '');
}

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Result codes (and their extended forms) that say the file cannot serve now, not that a call was wrong. */
function unavailableReason(code: string): string | undefined {
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return `the database file is locked by another connection (${code})`;
  if (code === 'SQLITE_FULL') return 'the disk or the database is full (SQLITE_FULL)';
  if (code.startsWith('SQLITE_IOERR')) return `the disk failed to read or write (${code})`;
  if (code.startsWith('SQLITE_CANTOPEN')) return `the database file cannot be opened (${code})`;
  return undefined;
}
