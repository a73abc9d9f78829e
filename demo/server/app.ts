// Wires the local Frontend API together: store -> senders -> flow engine -> HTTP routes.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Account } from './account/Account.ts';
import type { SocialProvider } from './config/projectConfig.ts';
import { DEFAULT_SEED_FILE, loadSeedProjects } from './config/seedProjects.ts';
import { FlowEngine } from './flow/FlowEngine.ts';
import { ApiError } from './http/ApiError.ts';
import type { AppEnv } from './http/AppEnv.ts';
import { registerAuthRoutes } from './http/authRoutes.ts';
import { registerConfigRoutes } from './http/configRoutes.ts';
import { cors } from './http/cors.ts';
import { registerDevRoutes } from './http/devRoutes.ts';
import { errorResponse } from './http/errorEnvelope.ts';
import { registerMeRoutes } from './http/meRoutes.ts';
import { requestResolver } from './http/requestContext.ts';
import { newId } from './randomValues.ts';
import { Messenger, type Logger, type SmtpSettings } from './senders/Messenger.ts';
import { Sessions } from './session/Sessions.ts';
import { TokenSigner } from './session/TokenSigner.ts';
import { ProviderClient, socialSettings, type ProviderSettings } from './social/providerClient.ts';
import { registerOAuthSimulator } from './social/simulator.ts';
import { Store } from './store/Store.ts';

export interface ApiOptions {
  databasePath: string;
  /** public base URL of this API (frontendApiUrl); default: the origin each request came to */
  publicUrl?: string;
  /** origin of the demo pages; replaces ${DEMO_ORIGIN} in projects.json (default http://localhost:5173) */
  demoOrigin?: string;
  /** clock in milliseconds (tests inject one) */
  now?: () => number;
  smtp?: SmtpSettings;
  /** projects file (default demo/server/projects.json) */
  seedFile?: string | URL;
  logger?: Logger;
  /**
   * Social sign-in providers: endpoints and client credentials per provider. Unset fields keep the
   * defaults, which point at the local simulator (see socialOverridesFromEnv for the environment).
   */
  socialProviders?: Partial<Record<SocialProvider, Partial<ProviderSettings>>>;
  /** serve the OAuth simulator under /_dev/oauth/ (default true) */
  oauthSimulator?: boolean;
  /** the client secret the simulator expects (default SIMULATOR_CLIENT_SECRET) */
  simulatorClientSecret?: string;
}

export interface Api {
  app: Hono<AppEnv>;
  store: Store;
  close(): Promise<void>;
}

const consoleLogger: Logger = {
  info: (message) => console.info(message),
  error: (message, error) => console.error(message, error),
};

export function createApi(options: ApiOptions): Api {
  const now = options.now ?? Date.now;
  const demoOrigin = (options.demoOrigin ?? 'http://localhost:5173').replace(/\/$/, '');
  const publicUrl = options.publicUrl?.replace(/\/$/, '');
  const log = options.logger ?? consoleLogger;

  const seeds = loadSeedProjects(options.seedFile ?? DEFAULT_SEED_FILE, demoOrigin);
  const store = Store.open(options.databasePath);
  store.transaction(() => seeds.forEach((project) => store.projects.upsertSeed(project, now())));
  const signer = TokenSigner.load(store.keys, now());
  const secretKey = store.keys.secret('verification-hmac', () => randomBytes(32).toString('hex'), now());
  const messenger = new Messenger(store, log, options.smtp);
  const sessions = new Sessions(store, signer);
  const social = new ProviderClient(socialSettings(options.socialProviders));
  const engine = new FlowEngine({ store, messenger, sessions, now, secretKey, social, log });
  const account = new Account({ store, sessions, now });
  const resolve = requestResolver(store, sessions, now, publicUrl);

  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('requestId', newId('req'));
    c.set('startedAt', performance.now());
    await next();
  });
  app.use('*', cors(store));
  registerConfigRoutes(app, resolve, signer);
  registerAuthRoutes(app, engine, resolve);
  registerMeRoutes(app, account, resolve);
  registerDevRoutes(app, store, demoOrigin, now);
  if (options.oauthSimulator !== false) {
    registerOAuthSimulator(app, { now, ...(options.simulatorClientSecret ? { clientSecret: options.simulatorClientSecret } : {}) });
  }

  app.notFound((c) => errorResponse(c, ApiError.notFound(`No route for ${c.req.method} ${new URL(c.req.url).pathname}`)));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    log.error(`[${c.get('requestId')}] ${c.req.method} ${c.req.path} failed`, error);
    return errorResponse(c, new ApiError(500, 'internal_error', 'Internal server error'));
  });

  let closed = false;
  return {
    app,
    store,
    async close() {
      if (closed) return;
      closed = true;
      await messenger.close();
      store.close();
    },
  };
}

export interface StartOptions extends ApiOptions {
  port: number;
  host?: string;
}

export interface RunningApi {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the API on a port (0 = ephemeral). */
export async function startApi(options: StartOptions): Promise<RunningApi> {
  const api = createApi(options);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: api.app.fetch, port: options.port, ...(options.host ? { hostname: options.host } : {}) }, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const host = !options.host || options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) (server as { closeAllConnections(): void }).closeAllConnections();
      }).then(() => api.close());
      return closing;
    },
  };
}
