// Webhooks: what happened to a project's users goes to the endpoints the operator registered for it
// (`npm run admin -- webhooks add`). `record` writes one row per endpoint that wants the event into
// webhook_deliveries, in the transaction of the change it tells about: a change that rolls back tells
// nothing, one that commits is told. A worker of its own (senders/DeliveryWorker.ts, as for codes and
// links) sends them after the commit, with a lease, retries with capped exponential backoff and a
// give-up horizon; so no request ever waits for a receiver, and a slow one holds up no code or link.
// Delivery is at least once: a receiver keeps the `webhook-id` of what it has handled. A server without
// any endpoint runs no worker and sends no query for webhooks (the worker starts with the first event,
// or at start-up when endpoints exist, which also picks up what a stopped instance left).
import { masked, type AuditEvent, type AuditTrail } from '../audit/AuditTrail.ts';
import type { Metrics } from '../metrics/Metrics.ts';
import { newId } from '../randomValues.ts';
import { DeliveryWorker, Undeliverable, type DeliveryEvent, type DeliverySettings, type Sealer } from '../senders/DeliveryWorker.ts';
import type { Logger } from '../senders/Messenger.ts';
import { PREFIX as SEALED_PREFIX } from '../session/KeyStore.ts';
import type { Store } from '../store/Store.ts';
import type { EventData, EventType, SessionEndReason, WebhookEvent } from './eventTypes.ts';
import type { Resolver, TargetRules } from './webhookTargets.ts';
import { WebhookSender } from './WebhookSender.ts';

export interface WebhookSettings extends DeliverySettings {
  /** how long an event is tried before it is given up (from when it happened) */
  giveUpMs: number;
  /** production: receivers on loopback and private networks are allowed */
  allowPrivateNetworks: boolean;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  batchSize: 20,
  sendTimeoutMs: 10_000,
  pollMs: 1_000,
  retryBaseMs: 5_000,
  retryMaxMs: 3_600_000,
  giveUpMs: 3 * 24 * 3_600_000,
  allowPrivateNetworks: false,
};

export interface WebhookEventsOptions {
  store: Store;
  /** seals the events waiting and the endpoints' secrets (the KeyStore) */
  keys: Sealer;
  log: Logger;
  now: () => number;
  metrics: Metrics;
  production: boolean;
  /** each one given replaces its default (DEFAULT_WEBHOOK_SETTINGS) */
  settings?: Partial<WebhookSettings>;
  /** called with each attempt's outcome (tests count them) */
  onDelivery?: (event: DeliveryEvent<string>) => void;
  /** how endpoints' host names are resolved (the system's resolver; tests hand in their own) */
  resolver?: Resolver;
  /** the audit trail: every event recorded here is recorded there too, in the same transaction */
  trail: Pick<AuditTrail, 'record'>;
}

/**
 * What the parts of the server that change users need of webhooks and the audit trail: recording an
 * event (both), or what only the trail keeps (tests may hand in their own).
 */
export type EventRecorder = Pick<WebhookEvents, 'record' | 'audit'>;

/** What the trail keeps of a webhook event (`extra` adds to it or renames it at the call site). */
export function auditOf<T extends EventType>(type: T, data: EventData[T]): AuditEvent {
  const d = data as Partial<EventData['user.logged_in'] & EventData['identifier.added'] & EventData['passkey.added']>;
  const base = { userId: d.userId! };
  if (d.identifier && 'id' in d.identifier) {
    return { ...base, event: type, target: `identifier:${d.identifier.id}`, details: { type: d.identifier.type, value: masked(d.identifier.type, d.identifier.value), status: d.identifier.status } };
  }
  if (d.passkey) return { ...base, event: type === 'passkey.added' ? 'passkey.created' : type, target: `passkey:${d.passkey.id}`, details: { aaguid: d.passkey.aaguid, status: d.passkey.status } };
  if (type === 'user.logged_in') {
    return {
      ...base,
      event: 'login.succeeded',
      ...(d.passkeyId ? { target: `passkey:${d.passkeyId}` } : {}),
      details: { method: d.method, identifierType: d.identifier!.type, identifier: masked(d.identifier!.type, d.identifier!.value) },
    };
  }
  if (type === 'session.ended') {
    const ended = data as EventData['session.ended'];
    return { ...base, event: type, target: `session:${ended.sessionId}`, details: { reason: ended.reason } };
  }
  return { ...base, event: type, target: `user:${d.userId}` };
}

/** Tells `session.ended` for each of the user's sessions that ended, in the caller's transaction. */
export async function recordSessionsEnded(
  events: EventRecorder,
  projectId: string,
  userId: string,
  sessionIds: readonly string[],
  reason: SessionEndReason,
  /** what the trail keeps beside (the session a person ended another one from) */
  extra: Partial<AuditEvent> = {},
): Promise<void> {
  for (const sessionId of sessionIds) await events.record(projectId, 'session.ended', { userId, sessionId, reason }, extra);
}

interface EventWriting {
  store: Store;
  keys: Sealer;
  now: number;
  giveUpMs: number;
}

/**
 * Writes an event's deliveries, one per endpoint of the project that receives `type`, in the caller's
 * transaction; whether there was any.
 */
async function writeEvent<T extends EventType>(w: EventWriting, projectId: string, type: T, data: EventData[T]): Promise<boolean> {
  const endpoints = await w.store.webhookEndpoints.receiving(projectId, type);
  if (endpoints.length === 0) return false;
  const event: WebhookEvent<T> = { type, timestamp: new Date(w.now).toISOString(), data: { projectId, ...data } };
  const body = JSON.stringify(event);
  for (const endpoint of endpoints) {
    await w.store.webhookDeliveries.insert({
      id: newId('evt'),
      projectId,
      channel: endpoint.id,
      payload: w.keys.seal(body),
      createdAt: w.now,
      expiresAt: w.now + w.giveUpMs,
      // the console's user page lists the deliveries about a user
      userId: (data as { userId?: string }).userId ?? null,
    });
  }
  return true;
}

/**
 * A recorder for a process that runs no delivery worker (the admin command's import): it only writes
 * the deliveries, which the servers' workers on the same database send (they poll while endpoints exist).
 */
export function writingOnly(store: Store, keys: Sealer, trail: Pick<AuditTrail, 'record'>, now: () => number, giveUpMs = DEFAULT_WEBHOOK_SETTINGS.giveUpMs): EventRecorder {
  return {
    record: async (projectId, type, data) => {
      await trail.record(projectId, auditOf(type, data));
      await writeEvent({ store, keys, now: now(), giveUpMs }, projectId, type, data);
    },
    audit: (projectId, event) => trail.record(projectId, event),
  };
}

/** How long a scrape of /metrics waits for the backlog's count before it shows the last one. */
const BACKLOG_WAIT_MS = 1_000;

export class WebhookEvents {
  private readonly worker: DeliveryWorker<WebhookEvent, string>;
  private readonly settings: WebhookSettings;
  /** an endpoint exists (found at start-up, or an event was recorded): the worker runs */
  private inUse = false;
  private lastBacklog = 0;

  constructor(private readonly options: WebhookEventsOptions) {
    const settings = (this.settings = { ...DEFAULT_WEBHOOK_SETTINGS, ...options.settings });
    const rules: TargetRules = { production: options.production, allowPrivateNetworks: settings.allowPrivateNetworks };
    const sender = new WebhookSender(rules, settings.sendTimeoutMs, options.resolver);
    const { store, keys } = options;
    this.worker = new DeliveryWorker<WebhookEvent, string>({
      queue: store.webhookDeliveries,
      keys,
      async send(d, event) {
        const endpoint = await store.webhookEndpoints.get(d.channel);
        if (!endpoint) throw new Undeliverable(`the endpoint ${d.channel} was removed`);
        let secret: string;
        try {
          secret = keys.unseal(endpoint.sealedSecret, `secret of webhook endpoint ${endpoint.id}`);
        } catch (error) {
          throw new Undeliverable(error instanceof Error ? error.message : String(error));
        }
        await sender.send({ url: endpoint.url, secret, id: d.id, body: JSON.stringify(event), now: options.now() });
      },
      describe: (d, event) => `webhook ${d.id} (${event.type}) to endpoint ${d.channel}`,
      log: options.log,
      now: options.now,
      settings,
      onOutcome: (event) => {
        options.metrics.webhook(event.outcome === 'sent' ? 'sent' : event.outcome === 'retry' ? 'retried' : 'given_up');
        options.onDelivery?.(event);
      },
    });
  }

  /**
   * Records that `type` happened to a user of `projectId`: in the caller's transaction, one delivery per
   * endpoint of the project that receives `type` (nothing when none does). Call it inside the
   * `store.transaction` that makes the change, so that both commit or neither does.
   */
  async record<T extends EventType>(projectId: string, type: T, data: EventData[T], extra: Partial<AuditEvent> = {}): Promise<void> {
    const { store, keys } = this.options;
    const audited = auditOf(type, data);
    await this.audit(projectId, { ...audited, ...extra, details: { ...audited.details, ...extra.details } });
    if (!(await writeEvent({ store, keys, now: this.options.now(), giveUpMs: this.settings.giveUpMs }, projectId, type, data))) return;
    store.afterCommit(() => {
      this.run();
      this.worker.nudge();
    });
  }

  /** Records what only the audit trail keeps (a failed attempt, a code sent, a session ended): in the caller's transaction. */
  audit(projectId: string, event: AuditEvent): Promise<void> {
    return this.options.trail.record(projectId, event);
  }

  /**
   * The events waiting to be delivered, all instances together (for /metrics): 0 without webhooks; the
   * last count when the database does not answer within a second.
   */
  async backlog(): Promise<number> {
    if (!this.inUse) return 0;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<number>((resolve) => (timer = setTimeout(() => resolve(this.lastBacklog), BACKLOG_WAIT_MS)));
    const count = this.options.store.webhookDeliveries.pendingCount().then((n) => (this.lastBacklog = n));
    try {
      return await Promise.race([count, late]);
    } catch {
      return this.lastBacklog;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Seals endpoint secrets a development database stored in the clear (once KEY_ENCRYPTION_SECRET is set); the count. */
  sealStoredSecrets(encrypting: boolean): Promise<number> {
    if (!encrypting) return Promise.resolve(0);
    return this.options.store.webhookEndpoints.rewritePlainSecrets(SEALED_PREFIX, (value) => this.options.keys.seal(value));
  }

  /** Starts delivering where endpoints exist: events left by a restart or another instance go first. */
  async start(): Promise<void> {
    if (await this.options.store.webhookEndpoints.any()) this.run();
  }

  private run(): void {
    this.inUse = true;
    this.worker.start();
  }

  /** Stops once the attempts under way have ended (each bounded by sendTimeoutMs). */
  close(): Promise<void> {
    return this.worker.stop();
  }
}
