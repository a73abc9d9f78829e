// The audit trail (server/README.md, "Audit trail"): one record per event of a project, written in the
// transaction of the change it records, hash-chained per project (store/AuditRepo.ts). Who acted, from
// where and in which request comes from the request's scope, set once per request by the HTTP layer
// (the admin command sets its own), so a call site names only what happened. Every record also feeds the
// daily adoption figures (rollups.ts) in the same transaction: a record and its counts commit together.
//
// Never in a record: a secret, code, token or link (the call sites hand in none, and `details` is built
// here from named fields only); addresses are masked as the logs mask them.
import { AsyncLocalStorage } from 'node:async_hooks';
import { userAgentSource } from '../flow/userAgentSource.ts';
import { maskedRecipient } from '../senders/DeliveryWorker.ts';
import type { AuditEntry } from '../store/AuditRepo.ts';
import type { Store } from '../store/Store.ts';
import { rollupOf } from './rollups.ts';

/** Who acts and from where: one per request (or admin command). */
export interface AuditScope {
  requestId?: string;
  ip?: string;
  userAgent?: string;
  /** set by the Backend API (secret:sec-…) and the admin command (admin); a visitor's requests leave it unset */
  actor?: string;
}

const scopes = new AsyncLocalStorage<AuditScope>();

/** Runs `fn` with `scope` as the audit scope of everything it calls. */
export function withAuditScope<T>(scope: AuditScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** The scope of the running request, if any (a change of the scope object shows in later records of the request). */
export function currentAuditScope(): AuditScope | undefined {
  return scopes.getStore();
}

/** What a call site says about one event. */
export interface AuditEvent {
  event: string;
  /** default done */
  outcome?: 'done' | 'refused';
  /** why refused: wrong_code, link_expired, rate_limited, user_disabled, session_reuse … */
  reason?: string;
  /** the user it happened to */
  userId?: string;
  /** what it happened to: passkey:cre-…, session:ses-…, identifier:ide-…, secret:sec-… */
  target?: string;
  /** named facts: a method, an identifier type; never a secret (`masked` for addresses) */
  details?: Record<string, string | number | boolean | null | undefined>;
  /** overrides the scope's actor (a sign-up's user acts on its own account) */
  actor?: string;
}

/** An e-mail address or phone number as the logs show it (`a…@example.com`, `…4567`); a username as it is. */
export function masked(type: string, value: string): string {
  return type === 'username' ? value : maskedRecipient(value);
}

/** The UTC day of a time, YYYY-MM-DD. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A record made, waiting for its transaction's commit. */
interface Pending {
  entry: AuditEntry;
  metrics: string[];
  /** a sign-up or log-in: the user it makes active that day, and whether its method was a passkey */
  activeUser?: string;
  byPasskey: boolean;
}

/** The browser and OS of a scope's User-Agent, parsed once per request (a later change of the scope's agent is seen). */
const parsedAgents = new WeakMap<AuditScope, { userAgent: string; browser: string; os: string }>();

function agentOf(scope: AuditScope): { browser: string; os: string } | undefined {
  const { userAgent } = scope;
  if (userAgent === undefined) return undefined;
  let parsed = parsedAgents.get(scope);
  if (parsed?.userAgent !== userAgent) {
    parsed = { userAgent, ...userAgentSource(userAgent) };
    parsedAgents.set(scope, parsed);
  }
  return parsed;
}

const DONE = Promise.resolve();

export class AuditTrail {
  /** the records of each open transaction, written together right before it commits */
  private readonly pending = new WeakMap<object, Pending[]>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /**
   * Appends one record to the project's trail and counts it in the day's figures, in the caller's
   * transaction (else in one of its own): the records of a transaction are written together right
   * before it commits, so the project's chain and its counters are held locked from then to the commit
   * only; a rollback (of the transaction, or of a savepoint the record was made in) takes them along.
   * What it costs a request is kept small (SQLite runs one transaction at a time, so every statement
   * and every millisecond here is one every other request waits for): the agent is parsed once per
   * request, and a transaction's records, counters and active users are written in one statement each.
   */
  record(projectId: string, e: AuditEvent): Promise<void> {
    const scope = scopes.getStore() ?? {};
    const at = this.now();
    const ua = agentOf(scope);
    const actor = e.actor ?? scope.actor ?? (e.userId ? `user:${e.userId}` : scope.ip === undefined ? 'system' : 'visitor');
    const details: Record<string, string | number | boolean | null> = {};
    for (const [key, value] of Object.entries(e.details ?? {})) if (value !== undefined) details[key] = value;
    const entry: AuditEntry = {
      projectId,
      at,
      event: e.event,
      outcome: e.outcome ?? 'done',
      reason: e.reason ?? null,
      actor,
      userId: e.userId ?? null,
      target: e.target ?? null,
      ip: scope.ip ?? null,
      browser: ua?.browser ?? null,
      os: ua?.os ?? null,
      requestId: scope.requestId ?? null,
      details: JSON.stringify(details),
    };
    const rollup = rollupOf(entry, details);
    const made: Pending = { entry, metrics: rollup.metrics, byPasskey: String(details.method).startsWith('passkey') };
    if (rollup.activeUser) made.activeUser = rollup.activeUser;
    const { db } = this.store;
    const transaction = db.currentTransaction();
    if (!transaction) {
      return this.store.transaction(() => {
        this.add(db.currentTransaction()!, made);
        return DONE;
      });
    }
    // a hook per record (it only notes the record): a savepoint rolled back drops it, and the record with it
    db.beforeCommit(() => {
      this.add(transaction, made);
      return DONE;
    });
    return DONE;
  }

  /** Run at commit: notes a record; the first of a transaction gives the hook that writes them all, after every record's own. */
  private add(transaction: object, made: Pending): void {
    let waiting = this.pending.get(transaction);
    if (!waiting) {
      waiting = [];
      this.pending.set(transaction, waiting);
      const all = waiting;
      this.store.db.beforeCommit(() => this.write(all));
    }
    waiting.push(made);
  }

  /**
   * Writes a transaction's records: first the users' activity (a row of each user's own, that no one
   * else waits for), then per project its records in the order they were made (the chain locked from
   * here to the commit) with the day's counters (one statement on PostgreSQL).
   */
  private async write(records: Pending[]): Promise<void> {
    const active = records.filter((r) => r.activeUser !== undefined);
    if (active.length > 0) {
      await this.store.audit.activeAll(active.map((r) => ({ projectId: r.entry.projectId, day: dayOf(r.entry.at), userId: r.activeUser!, byPasskey: r.byPasskey })));
    }
    const projects = new Set(records.map((r) => r.entry.projectId));
    for (const projectId of projects) {
      const own = projects.size === 1 ? records : records.filter((r) => r.entry.projectId === projectId);
      const days = new Map<string, string[]>();
      for (const r of own) {
        if (r.metrics.length === 0) continue;
        const day = dayOf(r.entry.at);
        days.set(day, [...(days.get(day) ?? []), ...r.metrics]);
      }
      await this.store.audit.appendAll(projectId, own.map((r) => r.entry), days);
    }
  }
}
