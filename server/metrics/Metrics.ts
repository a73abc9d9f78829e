// What an operator scrapes from GET /metrics (README: "Metrics and request logs"): requests and their
// latency by route pattern, the database's connections, deliveries, limit refusals and 503 answers.
// Each API instance has a registry of its own (tests run several servers in one process); the parts
// of the server that count something are handed this object and call one of its small methods.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DEFAULT_RATE_LIMITS, DEFAULT_SERVER_RATE_LIMITS } from '../config/rateLimits.ts';
import type { PoolState } from '../store/Database.ts';

export type DeliveryOutcome = 'sent' | 'retried' | 'expired' | 'failed';
export type DeliveryChannel = 'email' | 'sms';
/** A webhook attempt: delivered, failed and to be tried again, or failed for good (or past the give-up horizon). */
export type WebhookOutcome = 'sent' | 'retried' | 'given_up';

const PREFIX = 'fapi_';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The limit a 429 that waits out a resend pause (not a counted window) is filed under. */
export const RESEND_COOLDOWN = 'resendCooldown';

/** The label of a server limit across projects, e.g. `server:emailSendsPerIdentifier`. */
export const serverLimitLabel = (name: string) => `server:${name}`;

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  private readonly deliveries: Counter<'outcome' | 'channel'>;
  private readonly refusals: Counter<'limit'>;
  private readonly unavailable: Counter;
  private readonly webhooks: Counter<'outcome'>;

  /** `pools`: the database's connection pools as they are now (read at each scrape). */
  constructor(pools: () => PoolState[]) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    this.requests = new Counter({
      name: `${PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time from the request to its answer, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.deliveries = new Counter({
      name: `${PREFIX}deliveries_total`,
      help: 'E-mail and SMS delivery attempts by outcome (sent, retried, expired unsent, failed for good) and channel',
      labelNames: ['outcome', 'channel'],
      registers,
    });
    for (const outcome of ['sent', 'retried', 'expired', 'failed'] as const) for (const channel of ['email', 'sms'] as const) this.deliveries.inc({ outcome, channel }, 0);
    this.refusals = new Counter({
      name: `${PREFIX}rate_limit_refusals_total`,
      help: 'Requests refused with 429 too_many_requests, by the limit that refused them',
      labelNames: ['limit'],
      registers,
    });
    for (const limit of Object.keys(DEFAULT_RATE_LIMITS)) this.refusals.inc({ limit }, 0);
    for (const limit of Object.keys(DEFAULT_SERVER_RATE_LIMITS)) this.refusals.inc({ limit: serverLimitLabel(limit) }, 0);
    this.refusals.inc({ limit: RESEND_COOLDOWN }, 0);
    this.unavailable = new Counter({
      name: `${PREFIX}service_unavailable_total`,
      help: 'Requests answered 503 service_unavailable because the database could not serve',
      registers,
    });
    this.webhooks = new Counter({
      name: `${PREFIX}webhook_deliveries_total`,
      help: 'Webhook delivery attempts by outcome: sent (2xx), retried (failed, tried again later), given_up (failed for good, or past the give-up horizon)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['sent', 'retried', 'given_up'] as const) this.webhooks.inc({ outcome }, 0);
    const poolGauge = (name: string, help: string, value: (pool: PoolState) => number) =>
      new Gauge({
        name: `${PREFIX}db_pool_${name}`,
        help,
        labelNames: ['pool'],
        registers,
        collect() {
          this.reset();
          for (const pool of pools()) this.set({ pool: pool.name }, value(pool));
        },
      });
    poolGauge('in_use', 'Database connections busy with a statement or transaction (SQLite: 1 while one runs)', (p) => p.inUse);
    poolGauge('idle', 'Database connections open and free', (p) => p.idle);
    poolGauge('waiting', 'Calls waiting for a database connection (SQLite: for their turn in the statement queue)', (p) => p.waiting);
  }

  /** One answered request; `route` is the pattern (`/v2/me/identifier/:id`), never the raw path. */
  request(method: string, route: string, status: number, seconds: number): void {
    const labels = { method: METHODS.has(method) ? method : 'other', route, status: String(status) };
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }

  /** One e-mail or SMS delivery attempt: sent, to be retried, expired before it could go, or given up on. */
  delivery(outcome: DeliveryOutcome, channel: DeliveryChannel): void {
    this.deliveries.inc({ outcome, channel });
  }

  /** Shows how many webhook events wait to be delivered, read from `backlog` at each scrape. */
  webhookBacklog(backlog: () => Promise<number>): void {
    new Gauge({
      name: `${PREFIX}webhook_backlog`,
      help: 'Webhook events waiting to be delivered, all instances together (read from the database at each scrape)',
      registers: [this.registry],
      async collect() {
        this.set(await backlog());
      },
    });
  }

  /** One webhook delivery attempt's outcome. */
  webhook(outcome: WebhookOutcome): void {
    this.webhooks.inc({ outcome });
  }

  /** One request refused by `limit` (a rate limit name, `server:<name>`, or RESEND_COOLDOWN). */
  limitRefused(limit: string): void {
    this.refusals.inc({ limit });
  }

  /** One request answered 503 because the database could not serve. */
  serviceUnavailable(): void {
    this.unavailable.inc();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
