// Messages waiting to go out: e-mails and SMS (deliveries, migration 9), and webhook events
// (webhook_deliveries, migration 12). A row is written in the transaction of the change it tells about
// (a code or link, a sign-up); a worker claims due rows with a lease, sends them, and deletes them once
// sent. The claim is one atomic statement on either engine: on PostgreSQL the rows are locked with SKIP
// LOCKED, so instances claiming at once each take different rows; SQLite has one writer. Both tables
// have the same shape; only the column that says where a row goes differs.
import type { Database } from './Database.ts';

export type DeliveryChannel = 'email' | 'sms';

/** Where a kind of message waits: its table, and the column naming where it goes (its `channel`). */
export interface DeliveryScope {
  table: 'deliveries' | 'webhook_deliveries';
  /** e-mails and SMS: `channel` (email, sms); webhooks: `endpoint_id` (the endpoint's id) */
  channel: 'channel' | 'endpoint_id';
}

export const MESSAGE_DELIVERIES: DeliveryScope = { table: 'deliveries', channel: 'channel' };
export const WEBHOOK_DELIVERIES: DeliveryScope = { table: 'webhook_deliveries', channel: 'endpoint_id' };

export interface NewDelivery<C extends string = DeliveryChannel> {
  id: string;
  projectId: string;
  channel: C;
  /** sealed JSON of the message */
  payload: string;
  createdAt: number;
  expiresAt: number;
}

export interface ClaimedDelivery<C extends string = DeliveryChannel> {
  id: string;
  projectId: string;
  channel: C;
  payload: string | null;
  /** this one included */
  attempts: number;
  expiresAt: number;
}

interface ClaimedRow<C extends string> {
  id: string;
  project_id: string;
  channel: C;
  payload: string | null;
  attempts: number;
  expires_at: number;
}

/** A row as the console lists it. */
export interface ListedDelivery {
  id: string;
  status: 'pending' | 'expired' | 'failed';
  attempts: number;
  lastError: string | null;
  /** sealed; null once given up */
  payload: string | null;
  createdAt: number;
  nextAttemptAt: number;
}

const DUE = `status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)`;

export class DeliveriesRepo<C extends string = DeliveryChannel> {
  private readonly table: string;

  constructor(
    private readonly db: Database,
    private readonly scope: DeliveryScope = MESSAGE_DELIVERIES,
  ) {
    this.table = scope.table;
  }

  async insert(d: NewDelivery<C>): Promise<void> {
    await this.db.run(
      `INSERT INTO ${this.table} (id, project_id, ${this.scope.channel}, payload, status, attempts, next_attempt_at, created_at, expires_at)
       VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
      [d.id, d.projectId, d.channel, d.payload, d.createdAt, d.createdAt, d.expiresAt],
    );
  }

  /** Whether any row is due (a plain read, so that an idle poll writes nothing). */
  async anyDue(now: number): Promise<boolean> {
    return (await this.db.get(`SELECT 1 AS due FROM ${this.table} WHERE ${DUE} LIMIT 1`, [now, now])) !== undefined;
  }

  /**
   * Claims up to `limit` due rows for `claim` until `leaseUntil`, counting an attempt on each: one
   * statement, so no two claimers get the same row (the due condition is checked again on the row
   * being updated).
   */
  async claim(claim: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedDelivery<C>[]> {
    const skipLocked = this.db.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
    const rows = await this.db.all<ClaimedRow<C>>(
      `UPDATE ${this.table} SET claim = ?, claimed_until = ?, attempts = attempts + 1
       WHERE id IN (SELECT id FROM ${this.table} WHERE ${DUE} ORDER BY next_attempt_at LIMIT ?${skipLocked}) AND ${DUE}
       RETURNING id, project_id, ${this.scope.channel} AS channel, payload, attempts, expires_at`,
      [claim, leaseUntil, now, now, limit, now, now],
    );
    return rows.map((r) => ({ id: r.id, projectId: r.project_id, channel: r.channel, payload: r.payload, attempts: Number(r.attempts), expiresAt: Number(r.expires_at) }));
  }

  /** Sent: the row goes, message and all. False when the claim was lost (its lease ran out and another took it). */
  async sent(id: string, claim: string): Promise<boolean> {
    return (await this.db.run(`DELETE FROM ${this.table} WHERE id = ? AND claim = ?`, [id, claim])) > 0;
  }

  /** Failed for now: released, due again at `nextAttemptAt`. */
  async retryAt(id: string, claim: string, nextAttemptAt: number, error: string): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE ${this.table} SET claim = NULL, claimed_until = NULL, next_attempt_at = ?, last_error = ? WHERE id = ? AND claim = ?`,
      [nextAttemptAt, error, id, claim],
    );
    return changed > 0;
  }

  /** Given up (its code expired, or it cannot be sent): the message is removed, the row kept for a while. */
  async giveUp(id: string, claim: string, status: 'expired' | 'failed', error: string | undefined, now: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE ${this.table} SET status = ?, payload = NULL, claim = NULL, claimed_until = NULL, last_error = ?, finished_at = ? WHERE id = ? AND claim = ?`,
      [status, error ?? null, now, id, claim],
    );
    return changed > 0;
  }

  /** How many rows wait to be sent (the backlog /metrics shows). */
  async pendingCount(): Promise<number> {
    const row = await this.db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${this.table} WHERE status = 'pending'`);
    return Number(row?.n ?? 0);
  }

  /** Removes rows given up before `before`; the count. */
  prune(before: number): Promise<number> {
    return this.db.run(`DELETE FROM ${this.table} WHERE status <> 'pending' AND finished_at < ?`, [before]);
  }

  /** The newest rows of one channel (the console's deliveries of a webhook endpoint), with the payload still held (sealed) or null. */
  async listByChannel(channel: C, limit: number): Promise<ListedDelivery[]> {
    const rows = await this.db.all<{ id: string; status: ListedDelivery['status']; attempts: number | string; last_error: string | null; payload: string | null; created_at: number | string; next_attempt_at: number | string }>(
      `SELECT id, status, attempts, last_error, payload, created_at, next_attempt_at FROM ${this.table} WHERE ${this.scope.channel} = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
      [channel, limit],
    );
    return rows.map((r) => ({ id: r.id, status: r.status, attempts: Number(r.attempts), lastError: r.last_error, payload: r.payload, createdAt: Number(r.created_at), nextAttemptAt: Number(r.next_attempt_at) }));
  }

  /** The row of one id in a channel, if any. */
  async getInChannel(id: string): Promise<{ id: string; channel: C; status: string } | undefined> {
    const row = await this.db.get<{ id: string; channel: C; status: string }>(`SELECT id, ${this.scope.channel} AS channel, status FROM ${this.table} WHERE id = ?`, [id]);
    return row;
  }

  /** A waiting row tried again at once (not one being sent now); false when it is not waiting. */
  async dueNow(id: string, now: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE ${this.table} SET next_attempt_at = ? WHERE id = ? AND status = 'pending' AND (claimed_until IS NULL OR claimed_until <= ?)`,
      [now, id, now],
    );
    return changed > 0;
  }
}
