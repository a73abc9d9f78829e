// The database cannot serve right now: unreachable, restarting, out of space, or a bounded wait ran out.
// Raised by the store for either engine; the HTTP layer answers 503 with Retry-After, so that a client
// waits and tries again instead of seeing a crash or an endless wait. Nothing above the store needs to
// know which engine said what.
export class DatabaseUnavailable extends Error {
  constructor(
    /** what went wrong, for the log and readiness (never shown with secrets: engine messages only) */
    readonly reason: string,
    cause: unknown,
    /** seconds a client should wait before trying again */
    readonly retryAfterSeconds = 5,
  ) {
    super(`database unavailable: ${reason}`, { cause });
    this.name = 'DatabaseUnavailable';
  }
}

/** Bounds on every wait for the database (README: "Environment"); milliseconds. */
export interface DatabaseTimeouts {
  /** PostgreSQL: opening a connection */
  connectMs: number;
  /** PostgreSQL: waiting for a free connection of the pool */
  poolCheckoutMs: number;
  /** PostgreSQL: one statement (server-side statement_timeout) */
  statementMs: number;
  /** PostgreSQL: waiting for a row, table or advisory lock (lock_timeout) */
  lockMs: number;
  /** PostgreSQL: a transaction left open without a statement (idle_in_transaction_session_timeout) */
  idleInTransactionMs: number;
  /** SQLite: waiting for another connection's write lock on the file */
  busyMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 5_000,
  poolCheckoutMs: 5_000,
  statementMs: 10_000,
  lockMs: 5_000,
  idleInTransactionMs: 15_000,
  busyMs: 5_000,
};
