// SQLite behind the Database interface: one better-sqlite3 connection to a file in WAL mode.
//
// better-sqlite3 runs each statement synchronously, but a transaction here spans awaits (a WebAuthn
// verification, say). So transactions take turns through a queue, and a statement outside any
// transaction waits for the running one to end instead of slipping into it.
import BetterSqlite from 'better-sqlite3';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { bindParams, UniqueViolation, type Database } from './Database.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { migrate } from './migrate.ts';

interface Scope {
  done: boolean;
  savepoints: number;
  afterCommit: (() => void)[];
}

export class SqliteDatabase implements Database {
  readonly dialect = 'sqlite' as const;
  readonly forUpdate = '';
  private readonly scope = new AsyncLocalStorage<Scope>();
  private readonly statements = new Map<string, BetterSqlite.Statement>();
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  private constructor(private readonly db: BetterSqlite.Database) {}

  /** Opens (or creates) the file and brings its schema up to date. */
  static async open(path: string, migrations: Migration[] = MIGRATIONS): Promise<SqliteDatabase> {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const raw = new BetterSqlite(path);
    raw.pragma('journal_mode = WAL');
    // WAL's recommended setting: commits survive a crash of the process, the last ones may not
    // survive a power cut; the file never corrupts
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    raw.pragma('busy_timeout = 5000');
    const db = new SqliteDatabase(raw);
    await migrate(db, migrations);
    return db;
  }

  all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.statement(() => this.prepare(sql).all(...bindParams(params)) as T[]);
  }

  get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return this.statement(() => this.prepare(sql).get(...bindParams(params)) as T | undefined);
  }

  run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return this.statement(() => this.prepare(sql).run(...bindParams(params)).changes);
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
      this.db.exec(`SAVEPOINT ${name}`);
      try {
        const result = await fn();
        this.db.exec(`RELEASE ${name}`);
        return result;
      } catch (error) {
        this.db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
        throw error;
      }
    }
    await this.acquire();
    const scope: Scope = { done: false, savepoints: 0, afterCommit: [] };
    try {
      this.db.exec('BEGIN IMMEDIATE');
      let result: T;
      try {
        result = await this.scope.run(scope, fn);
      } catch (error) {
        scope.done = true;
        this.db.exec('ROLLBACK');
        throw error;
      }
      this.db.exec('COMMIT');
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

  afterCommit(fn: () => void): void {
    const scope = this.active();
    if (scope) scope.afterCommit.push(fn);
    else fn();
  }

  async close(): Promise<void> {
    await this.acquire();
    if (this.db.open) this.db.close();
    this.release();
  }

  private active(): Scope | undefined {
    const scope = this.scope.getStore();
    return scope && !scope.done ? scope : undefined;
  }

  /** Runs a statement now inside the caller's transaction, otherwise when no transaction is running. */
  private statement<T>(fn: () => T): Promise<T> {
    if (this.active() || !this.busy) return settle(fn);
    return this.acquire().then(() => {
      try {
        return settle(fn);
      } finally {
        this.release();
      }
    });
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
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return Promise.reject(new UniqueViolation(error));
    return Promise.reject(error);
  }
}
