// Sends the messages waiting in a deliveries table (store/DeliveriesRepo.ts), in every instance: the
// e-mails and SMS of codes and links (senders/Messenger.ts), and the webhook events (events/WebhookDelivery.ts),
// each kind with a worker of its own, so that a slow webhook receiver never holds up a code.
//
// A loop claims due rows in batches with a lease, sends each within a timeout, deletes it once sent,
// and on failure lets it wait (exponential backoff, capped) while it is still worth sending; one whose
// time has run out (a code expired, a webhook past its give-up horizon) is never sent but marked
// expired. A row claimed by an instance that died is due again once its lease runs out. The loop wakes
// at once when a request commits a message (nudge), otherwise every pollMs; a failing database or
// receiver is logged and never ends the process.
import { newId } from '../randomValues.ts';
import type { ClaimedDelivery, DeliveriesRepo, DeliveryChannel } from '../store/DeliveriesRepo.ts';
import type { Logger } from './Messenger.ts';

export interface DeliverySettings {
  /** rows claimed (and sent at once) per round */
  batchSize: number;
  /** bound on one send; a send that takes longer counts as failed */
  sendTimeoutMs: number;
  /** how often the table is looked at when no request nudged the worker */
  pollMs: number;
  /** the wait after the first failed attempt; doubled after each further one */
  retryBaseMs: number;
  /** the longest wait between attempts */
  retryMaxMs: number;
}

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  batchSize: 20,
  sendTimeoutMs: 15_000,
  pollMs: 1_000,
  retryBaseMs: 2_000,
  retryMaxMs: 60_000,
};

/** How long a claim holds beyond the send timeout before another instance may take the row. */
const LEASE_MARGIN_MS = 30_000;
/** Rows given up are kept this long (for a look at last_error), then pruned. */
const KEEP_GIVEN_UP_MS = 7 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

/** What a message is on the wire; sealed in the table. */
export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  /** e-mails: the HTML part, sent with `text` as its plain alternative (rows stored before it have none) */
  html?: string;
}

export type DeliveryOutcome = 'sent' | 'retry' | 'expired' | 'failed';

/** One attempt's outcome: the place to hook counters (metrics) on. */
export interface DeliveryEvent<C extends string = DeliveryChannel> {
  outcome: DeliveryOutcome;
  /** e-mails and SMS: the channel; webhooks: the endpoint's id */
  channel: C;
  projectId: string;
  /** attempts so far, this one included */
  attempts: number;
}

export interface Sealer {
  seal(value: string): string;
  unseal(stored: string, what: string): string;
}

/** A send that can never succeed (its endpoint was removed, its address is refused): given up at once. */
export class Undeliverable extends Error {}

export interface DeliveryWorkerDeps<M, C extends string> {
  /** the table the messages wait in */
  queue: DeliveriesRepo<C>;
  keys: Sealer;
  /** sends one message; rejects when it failed (Undeliverable: for good) */
  send(delivery: ClaimedDelivery<C>, message: M): Promise<void>;
  /** the message as the operator's log names it, never its content: `e-mail dlv-… to a…@example.com` */
  describe(delivery: ClaimedDelivery<C>, message: M): string;
  log: Logger;
  now: () => number;
  settings: DeliverySettings;
  onOutcome?: (event: DeliveryEvent<C>) => void;
}

export class DeliveryWorker<M = OutgoingMessage, C extends string = DeliveryChannel> {
  private loop: Promise<void> | undefined;
  private stopped = false;
  private nudged = false;
  private wake: (() => void) | undefined;
  /** the database failed on the last round: said once, until it works again */
  private failing = false;
  private lastPrune = 0;

  constructor(private readonly deps: DeliveryWorkerDeps<M, C>) {}

  /** Starts the loop: what is due already (left by a restart or another instance) goes out first. */
  start(): void {
    this.loop ??= this.run();
  }

  /** A message was committed: look at once. */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /** Stops claiming; resolves once the sends under way have ended (each bounded by sendTimeoutMs). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.nudged = false;
      try {
        await this.drain();
        if (this.failing) this.deps.log.info('Deliveries: the database answers again');
        this.failing = false;
      } catch (error) {
        if (!this.failing) this.deps.log.error('Deliveries: the database failed; trying again', reasonOf(error));
        this.failing = true;
      }
      if (!this.nudged && !this.stopped) await this.sleep(this.deps.settings.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.wake = done;
    });
  }

  /** Claims and handles batches until fewer than a batch are due. */
  private async drain(): Promise<void> {
    const { queue, settings } = this.deps;
    while (!this.stopped) {
      const now = this.deps.now();
      if (now - this.lastPrune >= PRUNE_EVERY_MS) {
        await queue.prune(now - KEEP_GIVEN_UP_MS);
        this.lastPrune = now;
      }
      if (!(await queue.anyDue(now))) return;
      const claim = newId('clm');
      const batch = await queue.claim(claim, now, now + settings.sendTimeoutMs + LEASE_MARGIN_MS, settings.batchSize);
      const results = await Promise.allSettled(batch.map((d) => this.deliver(d, claim)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      if (batch.length < settings.batchSize) return;
    }
  }

  /** One claimed row: sent and deleted, or put back for later, or given up. Rejects only when the database fails. */
  private async deliver(d: ClaimedDelivery<C>, claim: string): Promise<void> {
    const { queue, log, settings } = this.deps;
    const now = this.deps.now();
    if (d.expiresAt <= now) {
      await queue.giveUp(d.id, claim, 'expired', undefined, now);
      log.error(`Delivery ${d.id} (${d.channel}) expired before it could be sent`);
      return this.emit(d, 'expired');
    }
    let message: M;
    try {
      message = JSON.parse(this.deps.keys.unseal(d.payload ?? '', `message ${d.id}`)) as M;
    } catch (error) {
      await queue.giveUp(d.id, claim, 'failed', reasonOf(error), now);
      log.error(`Delivery ${d.id} (${d.channel}) cannot be read; given up`, reasonOf(error));
      return this.emit(d, 'failed');
    }
    const what = this.deps.describe(d, message);
    try {
      await withTimeout(this.deps.send(d, message), settings.sendTimeoutMs);
    } catch (error) {
      const reason = reasonOf(error);
      if (error instanceof Undeliverable) {
        await queue.giveUp(d.id, claim, 'failed', reason, this.deps.now());
        log.error(`Delivery of the ${what} cannot succeed; given up`, reason);
        return this.emit(d, 'failed');
      }
      const later = this.deps.now() + Math.min(settings.retryBaseMs * 2 ** (d.attempts - 1), settings.retryMaxMs);
      if (later >= d.expiresAt) {
        await queue.giveUp(d.id, claim, 'failed', reason, this.deps.now());
        log.error(`Delivery of the ${what} failed ${d.attempts} time(s); it expires before the next attempt, given up`, reason);
        return this.emit(d, 'failed');
      }
      await queue.retryAt(d.id, claim, later, reason);
      log.error(`Delivery of the ${what} failed (attempt ${d.attempts}); trying again in ${Math.round((later - this.deps.now()) / 1000)} s`, reason);
      return this.emit(d, 'retry');
    }
    // a false here: the lease ran out mid-send and another instance holds the row (it may send it again)
    await queue.sent(d.id, claim);
    this.emit(d, 'sent');
  }

  private emit(d: ClaimedDelivery<C>, outcome: DeliveryOutcome): void {
    try {
      this.deps.onOutcome?.({ outcome, channel: d.channel, projectId: d.projectId, attempts: d.attempts });
    } catch (error) {
      this.deps.log.error('Deliveries: the outcome listener failed', reasonOf(error));
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** An error's message, short: it is logged and kept in last_error (never the message text). */
function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/**
 * A recipient as the operator's log shows it: enough to tell whom a support call is about, never the
 * address or number in full (`a…@example.com`, `…4567`).
 */
export function maskedRecipient(to: string): string {
  const at = to.lastIndexOf('@');
  if (at > 0) return `${to[0]}…${to.slice(at)}`;
  return `…${to.slice(-4)}`;
}
