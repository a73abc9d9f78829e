// The audit trail (server/README.md, "Audit trail"): one record per event of a project, written in the
// transaction of the change it records. Who acted, from where and in which request comes from the
// request's scope, set once per request by the HTTP layer (the admin command sets its own), so a call
// site names only what happened. The transaction stages its records (store/AuditRepo.ts, audit_pending);
// once it has committed, the sealer (sealer.ts) places them on the project's hash chain and counts them
// in the daily adoption figures, so that a change never waits for another change's records.
//
// Never in a record: a secret, code, token or link (the call sites hand in none, and `details` is built
// here from named fields only); addresses are masked as the logs mask them.
import { AsyncLocalStorage } from 'node:async_hooks';
import { userAgentSource } from '../flow/userAgentSource.ts';
import { maskedRecipient } from '../senders/DeliveryWorker.ts';
import type { AuditEntry } from '../store/AuditRepo.ts';
import type { Store } from '../store/Store.ts';
import { scheduleSeal } from './sealer.ts';

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
  /** the records of each open transaction, staged together right before it commits */
  private readonly pending = new WeakMap<object, AuditEntry[]>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    /** hears of a sealing pass that failed (it is tried again) */
    private readonly onSealError?: (error: unknown) => void,
  ) {}

  /**
   * Appends one record to the project's trail, in the caller's transaction (else in one of its own):
   * the records of a transaction are staged together right before it commits, and a rollback (of the
   * transaction, or of a savepoint the record was made in) takes them along. What it costs a request is
   * kept small (SQLite runs one transaction at a time, so every statement and every millisecond here is
   * one every other request waits for): the agent is parsed once per request, and a transaction's
   * records are one INSERT of rows without an index but their id; the chain, the counters and the
   * users' activity are the sealer's, after the commit.
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
    const { db } = this.store;
    const transaction = db.currentTransaction();
    if (!transaction) {
      return this.store.transaction(() => {
        this.add(db.currentTransaction()!, entry);
        return DONE;
      });
    }
    // a hook per record (it only notes the record): a savepoint rolled back drops it, and the record with it
    db.beforeCommit(() => {
      this.add(transaction, entry);
      return DONE;
    });
    return DONE;
  }

  /** Run at commit: notes a record; the first of a transaction gives the hook that stages them all, after every record's own. */
  private add(transaction: object, entry: AuditEntry): void {
    let waiting = this.pending.get(transaction);
    if (!waiting) {
      waiting = [];
      this.pending.set(transaction, waiting);
      const all = waiting;
      this.store.db.beforeCommit(() => this.stage(all));
    }
    waiting.push(entry);
  }

  /** Stages a transaction's records (written at its commit); once it has committed, the sealer chains them. */
  private stage(entries: AuditEntry[]): Promise<void> {
    this.store.audit.stage(entries);
    this.store.afterCommit(() => scheduleSeal(this.store, this.onSealError));
    return DONE;
  }
}
