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
  /** webhooks: each row names the user its event is about (user_id, migration 20) */
  userColumn: boolean;
  /**
   * webhooks: a row given up keeps its sealed message until it is pruned, so that an operator can send
   * it again; e-mails and SMS drop it at once (a code that expired is worth nothing)
   */
  keepsGivenUp: boolean;
  /**
   * rows not to be claimed for now, though due (webhooks: those of a disabled endpoint); '' for none.
   * `hold` moves a channel's waiting rows out of the due range, so that the due scan never walks them;
   * this condition covers the one in flight while it was held (its retry time set after the hold).
   */
  held: string;
}

export const MESSAGE_DELIVERIES: DeliveryScope = { table: 'deliveries', channel: 'channel', userColumn: false, keepsGivenUp: false, held: '' };
export const WEBHOOK_DELIVERIES: DeliveryScope = {
  table: 'webhook_deliveries',
  channel: 'endpoint_id',
  userColumn: true,
  keepsGivenUp: true,
  held: ' AND NOT EXISTS (SELECT 1 FROM webhook_endpoints held WHERE held.id = webhook_deliveries.endpoint_id AND held.disabled_at IS NOT NULL)',
};

export interface NewDelivery<C extends string = DeliveryChannel> {
  id: string;
  projectId: string;
  channel: C;
  /** sealed JSON of the message */
  payload: string;
  createdAt: number;
  expiresAt: number;
  /** webhooks: the user the event is about, if any */
  userId?: string | null;
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

/** A webhook delivery about one user, with its endpoint (the console's user page). */
export interface UserDelivery extends ListedDelivery {
  endpointId: string;
  endpointUrl: string;
}

/** The next attempt of a held row: never, until it is released (the largest time a Date can hold). */
export const HELD_UNTIL = 8_640_000_000_000_000;

const DUE = `status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)`;

export class DeliveriesRepo<C extends string = DeliveryChannel> {
  private readonly table: string;
  /** due and not held */
  private readonly due: string;

  constructor(
    private readonly db: Database,
    private readonly scope: DeliveryScope = MESSAGE_DELIVERIES,
  ) {
    this.table = scope.table;
    this.due = DUE + scope.held;
  }

  async insert(d: NewDelivery<C>): Promise<void> {
    const user = this.scope.userColumn ? [', user_id', ', ?'] : ['', ''];
    await this.db.run(
      `INSERT INTO ${this.table} (id, project_id, ${this.scope.channel}, payload, status, attempts, next_attempt_at, created_at, expires_at${user[0]})
       VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?${user[1]})`,
      [d.id, d.projectId, d.channel, d.payload, d.createdAt, d.createdAt, d.expiresAt, ...(this.scope.userColumn ? [d.userId ?? null] : [])],
    );
  }

  /** Whether any row is due (a plain read, so that an idle poll writes nothing). */
  async anyDue(now: number): Promise<boolean> {
    return (await this.db.get(`SELECT 1 AS due FROM ${this.table} WHERE ${this.due} LIMIT 1`, [now, now])) !== undefined;
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
       WHERE id IN (SELECT id FROM ${this.table} WHERE ${this.due} ORDER BY next_attempt_at LIMIT ?${skipLocked}) AND ${this.due}
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

  /** Given up (its code expired, or it cannot be sent): the row is kept for a while, the message too where the scope keeps it. */
  async giveUp(id: string, claim: string, status: 'expired' | 'failed', error: string | undefined, now: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE ${this.table} SET status = ?,${this.scope.keepsGivenUp ? '' : ' payload = NULL,'} claim = NULL, claimed_until = NULL, last_error = ?, finished_at = ? WHERE id = ? AND claim = ?`,
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
    const rows = await this.db.all<ListedRow>(
      `SELECT id, status, attempts, last_error, payload, created_at, next_attempt_at FROM ${this.table} WHERE ${this.scope.channel} = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
      [channel, limit],
    );
    return rows.map(listed);
  }

  /** The row of one id in a channel, if any. */
  async getInChannel(id: string): Promise<{ id: string; channel: C; status: string } | undefined> {
    const row = await this.db.get<{ id: string; channel: C; status: string }>(`SELECT id, ${this.scope.channel} AS channel, status FROM ${this.table} WHERE id = ?`, [id]);
    return row;
  }

  /**
   * Sent again at once: a waiting row (not one being sent now) keeps its give-up horizon; a row given up
   * that still holds its message waits again, until `expiresAt`, its attempts counted on. False when the
   * row is being sent now or its message is no longer kept.
   */
  async sendAgain(id: string, now: number, expiresAt: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE ${this.table} SET next_attempt_at = ?, expires_at = CASE WHEN status = 'pending' THEN expires_at ELSE ? END,
         status = 'pending', finished_at = NULL
       WHERE id = ? AND payload IS NOT NULL AND (status <> 'pending' OR claimed_until IS NULL OR claimed_until <= ?)`,
      [now, expiresAt, id, now],
    );
    return changed > 0;
  }

  /** Holds the waiting rows of a channel (a disabled webhook endpoint): none is due until released. */
  async hold(channel: C): Promise<number> {
    return this.db.run(`UPDATE ${this.table} SET next_attempt_at = ? WHERE ${this.scope.channel} = ? AND status = 'pending'`, [HELD_UNTIL, channel]);
  }

  /** Releases what `hold` held: due at once (the worker gives up those whose horizon passed meanwhile). */
  async release(channel: C, now: number): Promise<number> {
    return this.db.run(`UPDATE ${this.table} SET next_attempt_at = ? WHERE ${this.scope.channel} = ? AND status = 'pending' AND next_attempt_at = ?`, [now, channel, HELD_UNTIL]);
  }

  /** The newest webhook deliveries about one user of a project, with their endpoint's address. */
  async listByUser(projectId: string, userId: string, limit: number): Promise<UserDelivery[]> {
    const rows = await this.db.all<ListedRow & { endpoint_id: string; url: string }>(
      `SELECT d.id, d.status, d.attempts, d.last_error, d.payload, d.created_at, d.next_attempt_at, d.endpoint_id, e.url
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.project_id = ? AND d.user_id = ? ORDER BY d.created_at DESC, d.id DESC LIMIT ?`,
      [projectId, userId, limit],
    );
    return rows.map((r) => ({ ...listed(r), endpointId: r.endpoint_id, endpointUrl: r.url }));
  }
}

interface ListedRow {
  id: string;
  status: ListedDelivery['status'];
  attempts: number | string;
  last_error: string | null;
  payload: string | null;
  created_at: number | string;
  next_attempt_at: number | string;
}

function listed(r: ListedRow): ListedDelivery {
  return { id: r.id, status: r.status, attempts: Number(r.attempts), lastError: r.last_error, payload: r.payload, createdAt: Number(r.created_at), nextAttemptAt: Number(r.next_attempt_at) };
}
