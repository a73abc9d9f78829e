// The audit trail's sealer: chains the records that changes staged, after those changes committed.
//
// A change's transaction writes its records to audit_pending (AuditTrail.ts): one row each, in the same
// transaction, so nothing is recorded that did not happen and nothing that happened is missing, but
// without reading or locking the project's chain head and without touching a counter, so that no other
// change of the project waits for it while it commits (on SQLite, one writer, every page it writes is
// one every other request waits for; on PostgreSQL the head stayed locked from its read to the commit).
// Then the sealer takes the staged records in staging order, a batch per transaction, and per project
// places them on the chain (seq, predecessor hash, hash), counts them in the day's figures, notes the
// users they made active, and deletes them from audit_pending. One sealer at a time works on a database
// (a lock that every instance sharing it takes), so the chain order is the order in which the batches
// found the records: on PostgreSQL a record whose transaction commits while a batch runs goes into the
// next one, after records staged later (`seq` is the chain's order; `at` may step back a few ms there).
//
// When: some milliseconds after a transaction that recorded something committed (its records then go
// with the others of that moment, one transaction for all), at start-up (records of a server that
// stopped first), and before anything reads the trail (`sealPending`), so that a reader sees every
// record committed before it asked, chained. A failed pass (the database away) leaves the records staged
// and is tried again later; nothing is lost, and readers that need the seal fail as the database does.
import type { StagedEntry } from '../store/AuditRepo.ts';
import type { Store } from '../store/Store.ts';
import { dayOf, rollupOf } from './rollups.ts';

/** records per sealing transaction */
export const SEAL_BATCH = 500;
/**
 * How long after a commit the sealer runs: the records of that moment go together. Every reader seals
 * first, so this is only how late a record gets its hash. 100 ms rather than 10: fewer, larger passes
 * write the chain's index pages and the activity rows once for more records (a throw-away harness,
 * 5,000 code verifies on SQLite, 16 clients, alternating: 954 completions/s against 901 with 10 ms and
 * 1,065 with no trail at all)
 */
export const SEAL_DELAY_MS = 100;
/** how long after a failed pass the sealer tries again */
export const SEAL_RETRY_MS = 2_000;

interface SealerState {
  running?: Promise<void>;
  /** the pass after the running one, shared by everyone who asked meanwhile */
  next?: Promise<void>;
  timer?: NodeJS.Timeout;
  /** records were staged since the last pass began */
  dirty: boolean;
  closed: boolean;
  onError: (error: unknown) => void;
}

const states = new WeakMap<Store, SealerState>();

function stateOf(store: Store): SealerState {
  let state = states.get(store);
  if (!state) {
    const created: SealerState = { dirty: false, closed: false, onError: () => undefined };
    state = created;
    states.set(store, created);
    // a store closing: no pass is started any more; the running one ends first, and records staged
    // since the last pass are sealed now rather than at the next start
    store.onClose(async () => {
      created.closed = true;
      clearTimeout(created.timer);
      created.timer = undefined;
      await (created.next ?? created.running)?.catch(() => undefined);
      if (created.dirty) await drain(store).catch(created.onError);
    });
  }
  return state;
}

/** One batch: the oldest staged records placed on their chains, counted, and unstaged. The number sealed. */
function sealBatch(store: Store): Promise<number> {
  return store.transaction(async () => {
    await store.db.lockKey('audit:sealer');
    const staged = await store.audit.staged(SEAL_BATCH);
    if (staged.length === 0) return 0;
    const active: { projectId: string; day: string; userId: string; byPasskey: boolean }[] = [];
    const projects = new Map<string, { entries: StagedEntry[]; days: Map<string, string[]> }>();
    for (const entry of staged) {
      const details = JSON.parse(entry.details) as Record<string, unknown>;
      const rollup = rollupOf(entry, details);
      const day = dayOf(entry.at);
      if (rollup.activeUser) active.push({ projectId: entry.projectId, day, userId: rollup.activeUser, byPasskey: String(details.method).startsWith('passkey') });
      let project = projects.get(entry.projectId);
      if (!project) projects.set(entry.projectId, (project = { entries: [], days: new Map() }));
      project.entries.push(entry);
      if (rollup.metrics.length > 0) {
        const metrics = project.days.get(day);
        if (metrics) metrics.push(...rollup.metrics);
        else project.days.set(day, [...rollup.metrics]);
      }
    }
    if (active.length > 0) await store.audit.activeAll(active);
    for (const [projectId, { entries, days }] of projects) await store.audit.appendAll(projectId, entries, days);
    await store.audit.unstage(staged.map((entry) => entry.id));
    return staged.length;
  });
}

async function drain(store: Store): Promise<void> {
  while ((await sealBatch(store)) === SEAL_BATCH);
}

/**
 * Seals every record staged before the call (and any staged meanwhile): resolves once they are on their
 * chains, rejects when the database fails (the records stay staged, and a pass is tried again
 * SEAL_RETRY_MS later). Concurrent calls share the passes.
 */
export function sealPending(store: Store): Promise<void> {
  const state = stateOf(store);
  if (!state.running) {
    // this pass takes what a scheduled one would have
    clearTimeout(state.timer);
    state.timer = undefined;
    state.dirty = false;
    const run = drain(store);
    state.running = run;
    run.then(
      () => {
        if (state.running === run) state.running = undefined;
      },
      (error: unknown) => {
        if (state.running === run) state.running = undefined;
        state.onError(error);
        retryLater(store, state);
      },
    );
    return run;
  }
  // a pass is under way and may have read its batch before the caller's records committed: one more after it
  state.next ??= state.running
    .catch(() => undefined)
    .then(() => {
      state.next = undefined;
      return sealPending(store);
    });
  return state.next;
}

function retryLater(store: Store, state: SealerState): void {
  state.dirty = true;
  passIn(store, state, SEAL_RETRY_MS);
}

/** A pass `ms` from now, unless one is due already or the store is closing. */
function passIn(store: Store, state: SealerState, ms: number): void {
  if (state.closed || state.timer) return;
  state.timer = setTimeout(() => {
    state.timer = undefined;
    sealPending(store).catch(() => undefined); // told and retried by sealPending itself
  }, ms);
  state.timer.unref();
}

/**
 * Notes that records were staged and committed: a pass runs SEAL_DELAY_MS later (one for all the
 * commits of that moment). `onError` hears of a pass that failed.
 */
export function scheduleSeal(store: Store, onError?: (error: unknown) => void): void {
  const state = stateOf(store);
  if (onError) state.onError = onError;
  state.dirty = true;
  passIn(store, state, SEAL_DELAY_MS);
}
