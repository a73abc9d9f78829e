// The one thing the repositories talk to: SQL with `?` placeholders, run on SQLite or PostgreSQL.
//
// Transactions are ambient: inside `transaction(fn)`, every statement of the same database object that
// runs in fn's async context (however deep the call chain) belongs to that transaction. So a
// repository method is the same code in and out of a transaction, and nobody above the store knows
// which engine runs below it.

export type Dialect = 'sqlite' | 'postgres';

/** One pool of connections as it is now (the metrics read it at each scrape). */
export interface PoolState {
  /** `main` (transactions, statements), `side` (PostgreSQL: the limit counters) */
  name: string;
  /** connections busy with a statement or a transaction */
  inUse: number;
  /** connections open and free */
  idle: number;
  /** calls waiting for a connection, or for their turn */
  waiting: number;
}

export interface Database {
  readonly dialect: Dialect;
  /** every row */
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** the first row, or undefined */
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** runs a statement; resolves to the number of rows it changed */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** several statements without parameters (migrations) */
  exec(sql: string): Promise<void>;
  /**
   * Runs fn in one transaction: committed when fn resolves, rolled back when it throws. Nested calls
   * become savepoints. SQLite serialises transactions (one writer); PostgreSQL runs them concurrently,
   * and `forUpdate`/`lockKey` make concurrent ones wait for each other where they must.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** Inside a transaction: the suffix that locks the selected rows until commit ('' on SQLite). */
  readonly forUpdate: string;
  /** Inside a transaction: waits until no other transaction holds `key` (no-op on SQLite). */
  lockKey(key: string): Promise<void>;
  /**
   * Runs `fn` on its own, outside the caller's transaction, each statement committed at once (for
   * counters that must not hold locks until a long transaction ends). SQLite has one connection and one
   * writer: there `fn` runs inside the caller's transaction, if any.
   */
  outsideTransaction<T>(fn: () => Promise<T>): Promise<T>;
  /** The transaction the caller runs in (an object that stands for it until it ends), or undefined outside one. */
  currentTransaction(): object | undefined;
  /**
   * Inside a transaction: runs `fn` in it right before it commits, after everything else it does (in
   * the order given; one that throws rolls the transaction back). A savepoint rolled back drops those
   * given inside it. The audit trail writes its records here, so that a project's chain is held locked
   * only from then to the commit.
   */
  beforeCommit(fn: () => Promise<void>): void;
  /**
   * Inside a transaction: an INSERT, UPDATE or DELETE whose outcome the caller does not read and that
   * nothing later in the transaction reads either, run right before the commit, after the beforeCommit
   * hooks (a savepoint rolled back drops those given inside it). On PostgreSQL the transaction's writes
   * go in one statement, each a data-modifying CTE, so that they cost one round trip together (they
   * must touch different rows: the CTEs see the same snapshot); SQLite runs them one by one.
   */
  writeAtCommit(sql: string, params: readonly unknown[]): void;
  /** Runs `fn` once the current transaction has committed (at once outside a transaction). */
  afterCommit(fn: () => void): void;
  /** The connection pools as they are now. */
  pools(): PoolState[];
  close(): Promise<void>;
}

/** Thrown for a unique-constraint violation, whatever the engine calls it. */
export class UniqueViolation extends Error {
  constructor(cause: unknown) {
    super('unique constraint violated', { cause });
    this.name = 'UniqueViolation';
  }
}

/**
 * Thrown instead of running a statement with a NUL character in a text parameter. PostgreSQL refuses
 * NUL in text (an error deep in the driver), SQLite would store it; both engines refuse it here alike,
 * and the HTTP layer answers 400. The input rules above the store refuse such values first; this is
 * the backstop for every value that has no rule of its own (an id in a path, a lookup key).
 */
export class NulInText extends Error {
  constructor() {
    super('a text parameter contains a NUL character');
    this.name = 'NulInText';
  }
}

/** `beforeCommit` of both engines: the hook joins the transaction's scope; outside one it is a mistake. */
export function addBeforeCommit(scope: { beforeCommit: (() => Promise<void>)[] } | undefined, fn: () => Promise<void>): void {
  if (!scope) throw new Error('beforeCommit needs a transaction');
  scope.beforeCommit.push(fn);
}

/** A statement given to `writeAtCommit`, with the table it writes. */
export interface AtCommitWrite {
  sql: string;
  params: readonly unknown[];
  table: string;
}

/**
 * `writeAtCommit` of both engines: a plain INSERT, UPDATE or DELETE (one that a CTE can hold) joins the
 * transaction's scope; anything else, or a call outside a transaction, is a mistake.
 */
export function addAtCommit(scope: { atCommit: AtCommitWrite[] } | undefined, sql: string, params: readonly unknown[]): void {
  const table = /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)/i.exec(sql)?.[1];
  if (!table) throw new Error(`writeAtCommit takes an INSERT, UPDATE or DELETE, not: ${sql.slice(0, 40)}`);
  if (!scope) throw new Error('writeAtCommit needs a transaction');
  scope.atCommit.push({ sql, params, table });
}

/** The hooks given to `beforeCommit`, one after the other (those they add run too). */
export async function runHooks(hooks: (() => Promise<void>)[]): Promise<void> {
  for (let i = 0; i < hooks.length; i++) await hooks[i]!();
}

/** Parameters as both engines bind them: undefined becomes NULL, a boolean 1 or 0 (flags are INTEGER columns). */
export function bindParams(params: readonly unknown[]): unknown[] {
  return params.map((p) => {
    if (typeof p === 'string' && p.includes('\u0000')) throw new NulInText();
    return p === undefined ? null : typeof p === 'boolean' ? (p ? 1 : 0) : p;
  });
}
