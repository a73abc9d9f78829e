// The Backend API's listener (BACKEND_API_PORT): Corbado's Backend API v2 under /v2, for the host's own
// backend and nothing else. Every call is HTTP Basic with the project id and an API secret, counted per
// secret against the project's `backendApiRequestsPerSecret`. Never CORS: no answer carries a CORS
// header, a preflight is refused, and so is any call that names an Origin (a browser's), so no web
// page can use a secret a browser may have cached. None of the Frontend API is served here.
import { Hono, type Context } from 'hono';
import { ApiError } from '../ApiError.ts';
import { currentAuditScope, withAuditScope } from '../audit/AuditTrail.ts';
import { authenticate } from '../backend/ApiSecrets.ts';
import { AUDIT_FILTERS, listAuditEvents, stats } from '../backend/auditApi.ts';
import { BackendApi, CREDENTIAL_FILTERS, CREDENTIAL_SORTS, IDENTIFIER_FILTERS, IDENTIFIER_SORTS } from '../backend/BackendApi.ts';
import { parseListQuery } from '../backend/listQuery.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { RateLimiter } from '../limits/RateLimiter.ts';
import type { Metrics } from '../metrics/Metrics.ts';
import { newId } from '../randomValues.ts';
import type { Logger } from '../senders/Messenger.ts';
import type { EventRecorder } from '../events/WebhookEvents.ts';
import type { Store } from '../store/Store.ts';
import type { AppEnv } from './AppEnv.ts';
import { errorResponse, genericOk } from './errorEnvelope.ts';
import { handleErrors } from './errorHandling.ts';
import { observeRequests } from './observability.ts';
import { declaredLengthLimit, readJson } from './requestBody.ts';
import { socketAddress } from './requestContext.ts';
import { securityHeaders } from './securityHeaders.ts';

export interface BackendAppDeps {
  store: Store;
  limiter: RateLimiter;
  metrics: Metrics;
  log: Logger;
  now: () => number;
  production: boolean;
  https: boolean;
  /** one JSON line per request (as the Frontend API's) */
  logRequests: boolean;
  /** webhooks: what the host's backend changes is told to its endpoints too */
  events: EventRecorder;
}

function list(c: Context<AppEnv>) {
  return {
    filter: c.req.queries('filter[]') ?? [],
    sort: c.req.query('sort'),
    page: c.req.query('page'),
    pageSize: c.req.query('pageSize'),
  };
}

function project(c: Context<AppEnv>): ProjectConfig {
  return c.get('project')!;
}

export function createBackendApp(deps: BackendAppDeps): Hono<AppEnv> {
  const api = new BackendApi({ store: deps.store, now: deps.now, events: deps.events });
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('requestId', newId('req'));
    c.set('startedAt', performance.now());
    await next();
  });
  // the audit trail's scope: the secret that authenticated the call acts (set below)
  app.use('*', (c, next) => withAuditScope({ requestId: c.get('requestId'), ip: socketAddress(c) ?? 'unknown', userAgent: c.req.header('user-agent') ?? '' }, next));
  app.use('*', observeRequests(deps.metrics, deps.logRequests ? (line) => deps.log.info(line) : undefined));
  app.use('*', securityHeaders({ production: deps.production, https: deps.https }));
  app.use('*', async (c, next) => {
    if (c.req.method === 'OPTIONS' || c.req.header('origin') !== undefined) {
      return errorResponse(c, new ApiError(403, 'forbidden_origin', 'Forbidden', 'The Backend API answers servers only: no browser origin, no CORS'));
    }
    await next();
  });
  app.use('*', declaredLengthLimit());
  app.use('/v2/*', async (c, next) => {
    let authenticated;
    try {
      authenticated = await authenticate(deps.store, c.req.header('authorization'), c.req.header('x-corbado-projectid'));
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      const res = errorResponse(c, error);
      res.headers.set('WWW-Authenticate', 'Basic realm="Corbado Backend API", charset="UTF-8"');
      return res;
    }
    c.set('project', authenticated.project);
    currentAuditScope()!.actor = `secret:${authenticated.secret.id}`;
    await deps.limiter.take(authenticated.project, [{ limit: 'backendApiRequestsPerSecret', subject: authenticated.secret.id }]);
    await next();
  });

  app.post('/v2/users', async (c) => c.json(await api.createUser(project(c), await readJson(c))));
  app.get('/v2/users/:userID', async (c) => c.json(await api.getUser(project(c), c.req.param('userID'))));
  app.patch('/v2/users/:userID', async (c) => c.json(await api.updateUser(project(c), c.req.param('userID'), await readJson(c))));
  app.delete('/v2/users/:userID', async (c) => {
    await api.deleteUser(project(c), c.req.param('userID'));
    return c.json(genericOk(c));
  });

  app.post('/v2/users/:userID/identifiers', async (c) => c.json(await api.createIdentifier(project(c), c.req.param('userID'), await readJson(c))));
  app.patch('/v2/users/:userID/identifiers/:identifierID', async (c) =>
    c.json(await api.updateIdentifier(project(c), c.req.param('userID'), c.req.param('identifierID'), await readJson(c))),
  );
  app.delete('/v2/users/:userID/identifiers/:identifierID', async (c) => {
    await api.deleteIdentifier(project(c), c.req.param('userID'), c.req.param('identifierID'));
    return c.json(genericOk(c));
  });
  app.get('/v2/identifiers', async (c) =>
    c.json(await api.listIdentifiers(project(c), parseListQuery(list(c), { filters: IDENTIFIER_FILTERS, sorts: IDENTIFIER_SORTS }))),
  );

  app.get('/v2/users/:userID/credentials', async (c) =>
    c.json(await api.listCredentials(project(c), c.req.param('userID'), parseListQuery(list(c), { filters: CREDENTIAL_FILTERS, sorts: CREDENTIAL_SORTS }))),
  );
  app.delete('/v2/users/:userID/credentials/:credentialID', async (c) => {
    await api.deleteCredential(project(c), c.req.param('userID'), c.req.param('credentialID'));
    return c.json(genericOk(c));
  });

  app.get('/v2/users/:userID/longSessions', async (c) => {
    const { page, pageSize } = parseListQuery(list(c), { filters: [], sorts: [] });
    return c.json(await api.listLongSessions(project(c), c.req.param('userID'), page, pageSize));
  });
  app.get('/v2/users/:userID/longSessions/:longSessionID', async (c) =>
    c.json(await api.getLongSession(project(c), c.req.param('userID'), c.req.param('longSessionID'))),
  );
  app.patch('/v2/users/:userID/longSessions/:longSessionID', async (c) =>
    c.json(await api.updateLongSession(project(c), c.req.param('userID'), c.req.param('longSessionID'), await readJson(c))),
  );
  app.get('/v2/longSessions/:longSessionID', async (c) => c.json(await api.getLongSession(project(c), undefined, c.req.param('longSessionID'))));

  // beyond Corbado's contract: the audit trail and the adoption figures (server/README.md, "Audit trail")
  app.get('/v2/auditEvents', async (c) =>
    c.json(await listAuditEvents(deps.store, project(c), parseListQuery(list(c), { filters: AUDIT_FILTERS, sorts: [] }), { since: c.req.query('since'), until: c.req.query('until'), cursor: c.req.query('cursor'), page: c.req.query('page') })),
  );
  app.get('/v2/stats', async (c) => c.json(await stats(deps.store, project(c), c.req.query('days'), deps.now())));

  handleErrors(app, deps.metrics, deps.log, { record: (projectId, event) => deps.events.audit(projectId, event) });
  return app;
}
