// Wires the local Frontend API together: store -> senders -> flow engine -> HTTP routes.
//
// Two modes. Development (the default, `npm start`): a SQLite file, the dev outbox, the OAuth
// simulator (both in server/dev/, loaded in this mode only), the seeded demo projects. Production: what
// productionReadiness.ts checks is required, nothing under /_dev exists, no project is seeded, no message
// is kept, and every answer carries security headers.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AaguidCatalogue, DEFAULT_CATALOGUE } from './aaguids/AaguidCatalogue.ts';
import { Account } from './account/Account.ts';
import { startRetention } from './audit/auditReader.ts';
import { scheduleSeal } from './audit/sealer.ts';
import { AuditTrail, withAuditScope } from './audit/AuditTrail.ts';
import { AccountIdentifiers } from './account/AccountIdentifiers.ts';
import { Reauthentication } from './account/Reauthentication.ts';
import { createConsoleApp, type ConsoleEnv } from './console/consoleApp.ts';
import { ensureConsoleProject } from './console/operators.ts';
import { DEFAULT_SERVER_RATE_LIMITS, type ServerRateLimits } from './config/rateLimits.ts';
import { DEFAULT_SEED_FILE, loadSeedProjects } from './config/seedProjects.ts';
import { DEFAULT_WEBHOOK_SETTINGS, WebhookEvents, type WebhookSettings } from './events/WebhookEvents.ts';
import type { Resolver } from './events/webhookTargets.ts';
import { FlowEngine } from './flow/FlowEngine.ts';
import { registerAccountRoutes } from './http/accountRoutes.ts';
import type { AppEnv } from './http/AppEnv.ts';
import { registerAuthRoutes } from './http/authRoutes.ts';
import { registerConfigRoutes } from './http/configRoutes.ts';
import { cors } from './http/cors.ts';
import { createBackendApp } from './http/backendApiRoutes.ts';
import { handleErrors } from './http/errorHandling.ts';
import { registerHealthRoutes } from './http/healthRoutes.ts';
import { registerMeRoutes } from './http/meRoutes.ts';
import { observeRequests, registerMetricsRoute } from './http/observability.ts';
import { registerReauthRoutes } from './http/reauthRoutes.ts';
import { declaredLengthLimit, dropUnreadBody } from './http/requestBody.ts';
import { requestResolver } from './http/requestContext.ts';
import { securityHeaders } from './http/securityHeaders.ts';
import { RateLimiter } from './limits/RateLimiter.ts';
import { Metrics } from './metrics/Metrics.ts';
import { checkProductionReadiness, crossSiteNotice, crossSiteProjects } from './productionReadiness.ts';
import { newId } from './randomValues.ts';
import type { DeliveryEvent, DeliverySettings } from './senders/DeliveryWorker.ts';
import { Messenger, type Logger, type SmtpSettings } from './senders/Messenger.ts';
import type { SmsSender } from './senders/SmsSender.ts';
import { KeyStore } from './session/KeyStore.ts';
import { KeyRing } from './session/KeyRing.ts';
import { Sessions } from './session/Sessions.ts';
import { socialSettings, type ProviderOverrides } from './social/providerSettings.ts';
import { SocialProviders } from './social/SocialProviders.ts';
import type { DatabaseTimeouts } from './store/DatabaseUnavailable.ts';
import { Store } from './store/Store.ts';

export interface ApiOptions {
  /** a SQLite file path, or a postgres:// URL */
  database: string;
  /** PostgreSQL only: a schema of its own (tests give each server one) */
  databaseSchema?: string;
  /** PostgreSQL only: connections for transactions (default 10; a quarter more serve the limit counters) */
  databasePoolSize?: number;
  /** bounds on every wait for the database (default DEFAULT_DATABASE_TIMEOUTS; each one given replaces its default) */
  databaseTimeouts?: Partial<DatabaseTimeouts>;
  /** `production` requires publicUrl, smtp, sms and keyEncryptionSecret (default `development`) */
  mode?: 'development' | 'production';
  /** public base URL of this API (frontendApiUrl); default: the origin each request came to */
  publicUrl?: string;
  /** origin of the demo pages; replaces ${DEMO_ORIGIN} in projects.json (default http://localhost:5173) */
  demoOrigin?: string;
  /** clock in milliseconds (tests inject one) */
  now?: () => number;
  smtp?: SmtpSettings;
  /** where SMS go besides the dev outbox (production: required) */
  sms?: SmsSender;
  /** encrypts the signing key, secrets and messages waiting to be sent in the database (production: required, 32+ characters) */
  keyEncryptionSecret?: string;
  /** how messages waiting in the deliveries table go out (default DEFAULT_DELIVERY_SETTINGS; each one given replaces its default) */
  delivery?: Partial<DeliverySettings>;
  /** called with the outcome of each delivery attempt (sent, retry, expired, failed): the hook for counters */
  onDelivery?: (event: DeliveryEvent) => void;
  /** how webhook events go out (default DEFAULT_WEBHOOK_SETTINGS; each one given replaces its default) */
  webhooks?: Partial<WebhookSettings>;
  /** called with the outcome of each webhook attempt; `channel` is the endpoint's id */
  onWebhookDelivery?: (event: DeliveryEvent<string>) => void;
  /** how webhook endpoints' host names are resolved at each attempt (default: the system's resolver; tests hand in their own) */
  webhookResolver?: Resolver;
  /** proxies in front that append to X-Forwarded-For (default 0: the socket address is the client) */
  trustedProxies?: number;
  /** the limits across all projects (default DEFAULT_SERVER_RATE_LIMITS; each one given replaces its default) */
  serverLimits?: Partial<ServerRateLimits>;
  /** projects file (default server/projects.json); development only */
  seedFile?: string | URL;
  logger?: Logger;
  /** one JSON line per request through `logger.info` (default: on in production, off in development) */
  logRequests?: boolean;
  /** serve GET /metrics for Prometheus (default false) */
  metricsEnabled?: boolean;
  /** the bearer token GET /metrics requires (production: required with metricsEnabled) */
  metricsToken?: string;
  /**
   * Social sign-in providers: issuer, endpoints and the server-wide client per provider. Unset fields
   * keep the defaults: the local simulator in development, the real providers in production (see
   * socialOverridesFromEnv for the environment). A project's own client (admin command) wins.
   */
  socialProviders?: ProviderOverrides;
  /** serve the OAuth simulator under /_dev/oauth/ (development only; default true) */
  oauthSimulator?: boolean;
  /** the client secret the simulator expects (default SIMULATOR_CLIENT_SECRET) */
  simulatorClientSecret?: string;
  /** client ids the simulator knows with a secret of their own (tests of per-project clients) */
  simulatorClients?: Record<string, string>;
  /** false: no audit trail at all. Only `npm run bench` sets it, to measure what recording costs; never a setting of a running server */
  auditTrail?: boolean;
  /** where the console's built app and the widget's bundle are (default dist/; tests give their own) */
  consoleDistDir?: string;
  /** the authenticators' names and icons by AAGUID, a JSON file (default aaguids/catalogue.json; README, "Authenticator names and icons") */
  aaguidCatalogue?: string | URL;
}

export interface Api {
  app: Hono<AppEnv>;
  /** the Backend API (the host's backend, HTTP Basic with an API secret): served on a listener of its own */
  backendApp: Hono<AppEnv>;
  /** the console (server/console/) for an origin it is served at: on a listener of its own */
  consoleApp(origin: string, frontendApiUrl: string): Hono<ConsoleEnv>;
  /** development only: the console's development owner (made if missing) and a one-time sign-in link for it */
  devConsoleLink?: (consoleUrl: string) => Promise<string>;
  store: Store;
  /** the counters and gauges GET /metrics serves; other parts of the server count through it */
  metrics: Metrics;
  close(): Promise<void>;
}

const consoleLogger: Logger = {
  info: (message) => console.info(message),
  error: (message, error) => (error === undefined ? console.error(message) : console.error(message, error)),
};

export async function createApi(options: ApiOptions): Promise<Api> {
  const now = options.now ?? Date.now;
  const production = options.mode === 'production';
  const demoOrigin = (options.demoOrigin ?? 'http://localhost:5173').replace(/\/$/, '');
  const publicUrl = options.publicUrl?.replace(/\/$/, '');
  const log = options.logger ?? consoleLogger;
  // before the database is opened: a catalogue that cannot be used stops the start-up, naming the file
  const aaguids = AaguidCatalogue.load(options.aaguidCatalogue ?? DEFAULT_CATALOGUE);

  const store = await Store.open(options.database, {
    ...(options.databaseSchema ? { schema: options.databaseSchema } : {}),
    ...(options.databasePoolSize ? { poolSize: options.databasePoolSize } : {}),
    ...(options.databaseTimeouts ? { timeouts: options.databaseTimeouts } : {}),
  });
  try {
    if (production) {
      await checkProductionReadiness(options, store);
      const projects = (await store.projects.list()).map((p) => p.config);
      for (const line of crossSiteNotice(crossSiteProjects(projects, publicUrl!), publicUrl!)) log.info(line);
    } else {
      const seeds = loadSeedProjects(options.seedFile ?? DEFAULT_SEED_FILE, demoOrigin);
      await store.transaction(async () => {
        for (const project of seeds) await store.projects.upsertSeed(project, now());
      });
    }
    const keys = new KeyStore(store, options.keyEncryptionSecret);
    const sealed = await keys.sealStoredKeys();
    if (sealed > 0) log.info(`Encrypted ${sealed} key(s) that were stored in the clear`);
    const keyRing = new KeyRing(store, keys, now);
    await keyRing.open();
    const secretKey = await keys.secret('verification-hmac', now());
    const rotationSecret = await keys.secret('long-session-rotation', now());
    const metrics = new Metrics(() => store.db.pools());
    const messenger = new Messenger(store, log, {
      ...(options.smtp ? { smtp: options.smtp } : {}),
      ...(options.sms ? { sms: options.sms } : {}),
      outbox: !production,
      metrics,
      keys,
      now,
      ...(options.delivery ? { delivery: options.delivery } : {}),
      ...(options.onDelivery ? { onDelivery: options.onDelivery } : {}),
    });
    const sealError = (error: unknown) => log.error('audit trail: sealing staged records failed (tried again)', error);
    const trail: Pick<AuditTrail, 'record'> = options.auditTrail === false ? { record: () => Promise.resolve() } : new AuditTrail(store, now, sealError);
    const events = new WebhookEvents({
      store,
      trail,
      keys,
      log,
      now,
      metrics,
      production,
      ...(options.webhooks ? { settings: options.webhooks } : {}),
      ...(options.onWebhookDelivery ? { onDelivery: options.onWebhookDelivery } : {}),
      ...(options.webhookResolver ? { resolver: options.webhookResolver } : {}),
    });
    metrics.webhookBacklog(() => events.backlog());
    const sealedSecrets = await events.sealStoredSecrets(options.keyEncryptionSecret !== undefined);
    if (sealedSecrets > 0) log.info(`Encrypted ${sealedSecrets} webhook secret(s) that were stored in the clear`);
    const sessions = new Sessions(store, keyRing, rotationSecret, events, (ended) =>
      log.error(`A retired long session of ${ended.id} (project ${ended.projectId}) was presented again: the session is ended`),
      trail,
    );
    const social = new SocialProviders(socialSettings(options.socialProviders, production ? 'production' : 'development'), {
      production,
      log,
      async projectClient(projectId, provider) {
        const own = await store.oauthClients.get(projectId, provider);
        return own && { clientId: own.clientId, clientSecret: keys.unseal(own.sealedSecret, `${provider} client secret of ${projectId}`) };
      },
    });
    const limiter = new RateLimiter(store, now, { ...DEFAULT_SERVER_RATE_LIMITS, ...options.serverLimits });
    const engine = new FlowEngine({ store, messenger, sessions, limiter, now, secretKey, social, events, log });
    const account = new Account({ store, sessions, now, aaguids, events });
    const identifiers = new AccountIdentifiers({ store, limiter, messenger, secretKey, now, events });
    const reauth = new Reauthentication({ store, limiter, messenger, secretKey, now });
    const resolve = requestResolver(store, sessions, now, {
      production,
      ...(publicUrl ? { publicUrl } : {}),
      ...(options.trustedProxies ? { trustedProxies: options.trustedProxies } : {}),
    });

    const app = new Hono<AppEnv>();
    app.use('*', async (c, next) => {
      c.set('requestId', newId('req'));
      c.set('startedAt', performance.now());
      await next();
    });
    // who acts and from where, for the audit trail: the address as the abuse limits see it
    app.use('*', (c, next) => withAuditScope({ requestId: c.get('requestId'), ip: resolve.clientIp(c), userAgent: c.req.header('user-agent') ?? '' }, next));
    app.use('*', observeRequests(metrics, (options.logRequests ?? production) ? (line) => log.info(line) : undefined));
    app.use('*', securityHeaders({ production, https: publicUrl?.startsWith('https:') ?? false }));
    // before CORS: no answer of /metrics carries CORS headers
    if (options.metricsEnabled) registerMetricsRoute(app, metrics, options.metricsToken);
    app.use('*', cors(store, await store.projects.allAllowedOrigins()));
    app.use('*', declaredLengthLimit());
    registerHealthRoutes(app, store, keyRing, publicUrl);
    registerConfigRoutes(app, resolve, keyRing, store);
    registerAuthRoutes(app, engine, resolve);
    registerMeRoutes(app, account, resolve);
    registerAccountRoutes(app, account, identifiers, resolve);
    registerReauthRoutes(app, reauth, resolve);
    let devConsoleLinks: import('./dev/index.ts').DevConsoleLinks | undefined;
    if (!production) {
      // the development-only room (server/dev/): loaded here alone, never by a production server
      const { mountDevelopmentRoom, DevConsoleLinks } = await import('./dev/index.ts');
      devConsoleLinks = new DevConsoleLinks({ store, events, now });
      mountDevelopmentRoom(app, {
        store,
        demoOrigin,
        now,
        ...(options.oauthSimulator !== undefined ? { oauthSimulator: options.oauthSimulator } : {}),
        ...(options.simulatorClientSecret ? { simulatorClientSecret: options.simulatorClientSecret } : {}),
        ...(options.simulatorClients ? { simulatorClients: options.simulatorClients } : {}),
        ...(publicUrl ? { publicUrl } : {}),
      });
    }

    handleErrors(app, metrics, log, trail);

    const backendApp = createBackendApp({
      store,
      limiter,
      metrics,
      log,
      now,
      production,
      https: publicUrl?.startsWith('https:') ?? false,
      logRequests: options.logRequests ?? production,
      events,
    });

    const consoleApp = (origin: string, frontendApiUrl: string) =>
      createConsoleApp({
        store,
        keyRing,
        events,
        trail,
        now,
        log,
        origin,
        frontendApiUrl: publicUrl ?? frontendApiUrl,
        production,
        allowPrivateNetworks: options.webhooks?.allowPrivateNetworks ?? false,
        aaguids,
        keys,
        webhookGiveUpMs: options.webhooks?.giveUpMs ?? DEFAULT_WEBHOOK_SETTINGS.giveUpMs,
        identifiers,
        ...(options.consoleDistDir ? { distDir: options.consoleDistDir } : {}),
        ...(devConsoleLinks ? { extend: devConsoleLinks.register.bind(devConsoleLinks) } : {}),
      });

    messenger.start();
    await events.start();
    const stopRetention = startRetention(store, now, (error) => log.error('audit trail retention failed', error));
    // records staged by a server that stopped before its sealer ran (or by the admin command)
    if (options.auditTrail !== false) scheduleSeal(store, sealError);
    let closed = false;
    return {
      app,
      backendApp,
      consoleApp,
      ...(devConsoleLinks ? { devConsoleLink: devConsoleLinks.ownerLink.bind(devConsoleLinks) } : {}),
      store,
      metrics,
      async close() {
        if (closed) return;
        closed = true;
        stopRetention();
        await Promise.all([messenger.close(), events.close()]);
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

export interface StartOptions extends ApiOptions {
  port: number;
  host?: string;
  /** with metricsEnabled: serve GET /metrics on this port (0 = ephemeral) instead of the API's */
  metricsPort?: number;
  /** the host or address the metrics port binds (default: `host`) */
  metricsHost?: string;
  /** serve the Backend API on this port (0 = ephemeral); without it there is no Backend API listener */
  backendApiPort?: number;
  /** the host or address the Backend API port binds (default: `host`), e.g. 127.0.0.1 to keep it off the network */
  backendApiHost?: string;
  /** serve the console on this port (0 = ephemeral); without it there is no console */
  consolePort?: number;
  /** the host or address the console port binds (default: `host`), e.g. 127.0.0.1 or a private network's */
  consoleHost?: string;
  /** the console's origin as browsers see it behind a proxy (default: the listener's) */
  consolePublicUrl?: string;
  /** how long close() lets the calls in flight finish before it cuts their connections (default 15 s) */
  shutdownGraceMs?: number;
}

export interface RunningApi {
  url: string;
  port: number;
  /** the base URL of the metrics port, when there is one */
  metricsUrl?: string;
  /** the base URL of the Backend API, when it has a listener */
  backendApiUrl?: string;
  /** the console's origin, when it has a listener */
  consoleUrl?: string;
  /** development with a console: a one-time link that signs this machine's browser in as the development owner */
  consoleSignInLink?: () => Promise<string>;
  store: Store;
  /** the Frontend API's and the Backend API's apps: their `routes` list what each answers (tests go through them all) */
  app: Hono<AppEnv>;
  backendApp: Hono<AppEnv>;
  close(): Promise<void>;
}

type Server = ReturnType<typeof serve>;

/** How long a closing server lets the calls in flight finish before it cuts their connections. */
export const SHUTDOWN_GRACE_MS = 15_000;

interface Listener {
  server: Server;
  url: string;
  /** stops accepting, lets the calls in flight finish (up to `graceMs`), closes every connection */
  stop(graceMs: number): Promise<void>;
}

/**
 * How long the listeners keep an idle connection open: longer than the idle time of HTTP clients'
 * pools (Node's own agent, which Corbado's SDK uses through axios and Playwright's route.fetch, drops
 * its idle sockets after 5 s, the server's default) and of reverse proxies (60 s is common). With equal
 * times a client reuses the socket just as the server closes it, and its call fails with a reset.
 */
export const KEEP_ALIVE_MS = 65_000;

function listen(fetch: (request: Request, env?: unknown) => Response | Promise<Response>, port: number, hostname: string | undefined, keepAliveMs?: number): Promise<Listener> {
  return new Promise((resolve, reject) => {
    // a body still arriving after the answer is dropped with requestBody.ts's bounds, not @hono/node-server's
    // (500 ms, then a reset that can take the answer with it)
    const server = serve({ fetch, port, autoCleanupIncoming: false, ...(hostname ? { hostname } : {}) }, () => {
      if (keepAliveMs !== undefined) {
        (server as HttpServer).keepAliveTimeout = keepAliveMs;
        (server as HttpServer).headersTimeout = keepAliveMs + 1000;
      }
      const bound = (server.address() as AddressInfo).port;
      const host = !hostname || hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname;
      resolve({ server, url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`, stop: (graceMs) => drain(server as HttpServer, state, graceMs) });
    });
    // the answers not yet finished, so that a closing server can tell their connections not to stay open
    const state: DrainState = { closing: false, inFlight: new Set() };
    (server as HttpServer).prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      dropUnreadBody(request, response);
      if (state.closing) response.shouldKeepAlive = false;
      state.inFlight.add(response);
      response.once('close', () => state.inFlight.delete(response));
    });
    server.once('error', reject);
  });
}

interface DrainState {
  closing: boolean;
  inFlight: Set<ServerResponse>;
}

/**
 * A graceful stop: no new connections; the calls in flight are answered (each with `Connection: close`,
 * so keep-alive clients do not hold the process), idle connections are closed at once, and whatever is
 * still open after `graceMs` is cut. Cutting every connection at once answered the calls in flight of an
 * instance stopped under load with a reset (found by test/faults/operatorScenario.test.ts).
 */
function drain(server: HttpServer, state: DrainState, graceMs: number): Promise<void> {
  state.closing = true;
  for (const response of state.inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Starts the API on a port (0 = ephemeral), and the metrics on a port of their own when one is given. */
export async function startApi(options: StartOptions): Promise<RunningApi> {
  const separateMetrics = options.metricsEnabled === true && options.metricsPort !== undefined;
  const api = await createApi({ ...options, metricsEnabled: options.metricsEnabled === true && !separateMetrics });
  const servers: Listener[] = [];
  const stopAll = () => Promise.all(servers.map((listener) => listener.stop(options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS)));
  try {
    const main = await listen(api.app.fetch, options.port, options.host, KEEP_ALIVE_MS);
    servers.push(main);
    let metricsUrl: string | undefined;
    if (separateMetrics) {
      const metricsApp = new Hono<AppEnv>();
      registerMetricsRoute(metricsApp, api.metrics, options.metricsToken);
      metricsApp.notFound((c) => c.text('Not found\n', 404));
      const metrics = await listen(metricsApp.fetch, options.metricsPort!, options.metricsHost ?? options.host);
      servers.push(metrics);
      metricsUrl = metrics.url;
    }
    let backendApiUrl: string | undefined;
    if (options.backendApiPort !== undefined) {
      const backend = await listen(api.backendApp.fetch, options.backendApiPort, options.backendApiHost ?? options.host, KEEP_ALIVE_MS);
      servers.push(backend);
      backendApiUrl = backend.url;
    }
    let consoleUrl: string | undefined;
    if (options.consolePort !== undefined) {
      // the app needs its origin (the listener's, when no public one is given): it is made once bound
      const made: { app?: Hono<ConsoleEnv> } = {};
      const listener = await listen((request, env) => made.app?.fetch(request, env) ?? new Response('Starting\n', { status: 503 }), options.consolePort, options.consoleHost ?? options.host, KEEP_ALIVE_MS);
      servers.push(listener);
      consoleUrl = options.consolePublicUrl ?? listener.url;
      await ensureConsoleProject(api.store, consoleUrl, (options.now ?? Date.now)());
      made.app = api.consoleApp(consoleUrl, main.url);
    }
    let closing: Promise<void> | undefined;
    return {
      url: main.url,
      port: (main.server.address() as AddressInfo).port,
      ...(metricsUrl ? { metricsUrl } : {}),
      ...(backendApiUrl ? { backendApiUrl } : {}),
      ...(consoleUrl ? { consoleUrl } : {}),
      ...(consoleUrl && api.devConsoleLink ? { consoleSignInLink: () => api.devConsoleLink!(consoleUrl!) } : {}),
      store: api.store,
      app: api.app,
      backendApp: api.backendApp,
      close() {
        closing ??= stopAll().then(() => api.close());
        return closing;
      },
    };
  } catch (error) {
    await stopAll();
    await api.close();
    throw error;
  }
}
