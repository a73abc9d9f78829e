// The console's routes under /api/projects/:p and /api/operators (console-contract). Each is registered
// with the permission it needs (`allow`, consoleApp.ts: the project must be visible, the role must
// allow it, destructive ones need a recent sign-in), and each write goes through the operation the
// Backend API or the admin command uses for it: BackendApi for users, identifiers, passkeys and
// sessions; config/projectChanges.ts for settings, secrets, keys and webhook endpoints; Operators.
import type { Hono, MiddlewareHandler } from 'hono';
import { signupFieldAnswers, timestamp } from '../account/Account.ts';
import { currentAuditScope } from '../audit/AuditTrail.ts';
import { exportRecords, shownRecord } from '../audit/auditReader.ts';
import { sealPending } from '../audit/sealer.ts';
import { stats } from '../backend/auditApi.ts';
import { BackendApi } from '../backend/BackendApi.ts';
import { issueApiSecret, registerWebhookEndpoint, revokeApiSecret, rotateSigningKey, setWebhookEndpointEnabled, updateProject } from '../config/projectChanges.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import { parseEventTypes } from '../events/eventTypes.ts';
import type { AuditFilter } from '../store/AuditRepo.ts';
import { HELD_UNTIL, type ListedDelivery } from '../store/DeliveriesRepo.ts';
import type { WebhookEndpointSummary } from '../store/WebhookEndpointsRepo.ts';
import type { ConsoleDeps, ConsoleEnv } from './consoleApp.ts';
import { ConsoleError, notFound } from './consoleErrors.ts';
import type { Operators } from './operators.ts';
import type { Permission } from './permissions.ts';
import { decodeCursor, searchUsers, shownIdentifiers } from './userSearch.ts';

export interface ConsoleRouteDeps extends ConsoleDeps {
  operators: Operators;
}

const MAX_LIMIT = 100;

function limitOf(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d{1,3}$/.test(raw) || n < 1 || n > MAX_LIMIT) throw new ConsoleError(400, 'invalid', 'The parameters are invalid', { limit: `must be a whole number from 1 to ${MAX_LIMIT}` });
  return n;
}

async function body(c: { req: { json(): Promise<unknown> } }): Promise<Record<string, unknown>> {
  const value = await c.req.json().catch(() => undefined);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConsoleError(400, 'invalid', 'The body must be a JSON object');
  return value as Record<string, unknown>;
}

function timeOf(raw: string | undefined, field: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw.length === 10 ? `${raw}T00:00:00Z` : raw) : NaN;
  if (Number.isNaN(ms)) throw new ConsoleError(400, 'invalid', 'The parameters are invalid', { [field]: 'must be a date (2026-01-31) or an RFC 3339 time' });
  return ms;
}

/** An endpoint as the console lists it: no secret; `enabled`, and since when it is disabled. */
function shownEndpoint(e: WebhookEndpointSummary) {
  const { createdAt, disabledAt, ...rest } = e;
  return { ...rest, events: e.events ?? 'every event', created: timestamp(createdAt), enabled: disabledAt === null, disabled: disabledAt === null ? null : timestamp(disabledAt) };
}

export function registerConsoleRoutes(app: Hono<ConsoleEnv>, allow: (permission: Permission) => MiddlewareHandler<ConsoleEnv>, deps: ConsoleRouteDeps): void {
  const { store, now, trail } = deps;
  const users = new BackendApi({ store, now, events: deps.events });
  const project = (c: { get(key: 'project'): ProjectConfig | undefined }) => c.get('project')!;
  /** A webhook delivery as the console lists it (an endpoint's, or those about a user). */
  const shownDelivery = (d: ListedDelivery, endpoint: { id: string; url: string }) => ({
    id: d.id,
    // the event's type, from its sealed body while the row still holds it (one given up before migration 20 has none)
    event: d.payload === null ? null : ((JSON.parse(deps.keys.unseal(d.payload, `webhook delivery ${d.id}`)) as { type?: string }).type ?? null),
    status: d.status,
    attempts: d.attempts,
    lastError: d.lastError,
    endpointId: endpoint.id,
    endpointUrl: endpoint.url,
    created: timestamp(d.createdAt),
    // null once given up, and while its endpoint is disabled (held: no attempt is planned)
    nextAttempt: d.status === 'pending' && d.nextAttemptAt !== HELD_UNTIL ? timestamp(d.nextAttemptAt) : null,
  });
  const P = '/api/projects/:p';

  /** The project's user of the path (404 for another project's or an unknown one). */
  const userOf = async (projectId: string, userId: string) => {
    const user = await store.users.get(userId);
    if (!user || user.projectId !== projectId) throw notFound();
    return user;
  };

  // ---- users

  app.get(`${P}/users`, allow('project.read'), async (c) => {
    const limit = limitOf(c.req.query('limit'), 25);
    const after = decodeCursor(c.req.query('cursor') ?? '');
    if (!after) throw new ConsoleError(400, 'invalid', 'The parameters are invalid', { cursor: 'is not one this search answered' });
    return c.json(await searchUsers(store, project(c).id, c.req.query('q'), after, limit));
  });

  app.get(`${P}/users/:u`, allow('project.read'), async (c) => {
    const p = project(c);
    const user = await userOf(p.id, c.req.param('u'));
    await sealPending(store);
    const [identifiers, credentials, social, signupFields, sessions, trailRecords, deliveries] = await Promise.all([
      shownIdentifiers(store, [user.id]),
      store.credentials.listByUser(user.id),
      store.socialAccounts.listByUser(user.id),
      signupFieldAnswers(store, p, user.id),
      store.sessions.listLive(user.id, p.id, now()),
      store.audit.latest({ projectId: p.id, userId: user.id }, 50),
      store.webhookDeliveries.listByUser(p.id, user.id, 20),
    ]);
    return c.json({
      user: { id: user.id, fullName: user.fullName, status: user.status, externalId: user.externalId, created: timestamp(user.createdAt) },
      identifiers: identifiers.map(({ userId: _, ...i }) => i),
      passkeys: credentials.map((k) => {
        const details = deps.aaguids.details(k.aaguid);
        return { id: k.id, name: details.name, aaguidName: details.name, iconUrl: details.iconLight, created: timestamp(k.createdAt), lastUsed: timestamp(k.lastUsedAt), synced: k.backupState };
      }),
      socialAccounts: social.map((a) => ({ id: a.id, provider: a.provider, email: a.email, created: timestamp(a.createdAt), lastUsed: timestamp(a.lastUsedAt) })),
      signupFields: signupFields.map((f) => ({
        id: f.id,
        answer: f.type === 'checkbox' ? (f.accepted ?? false) : (f.value ?? ''),
        consent: { label: f.shown?.label ?? null, url: f.shown?.url ?? null, language: f.shown?.language ?? null, source: f.source ?? null, at: f.answeredAt },
      })),
      sessions: sessions.map((s) => ({ id: s.id, browser: s.browser || 'Unknown browser', os: s.os || 'Unknown OS', created: timestamp(s.createdAt), lastUsed: timestamp(s.lastUsedAt ?? s.createdAt) })),
      deliveries: deliveries.map((d) => shownDelivery(d, { id: d.endpointId, url: d.endpointUrl })),
      trail: trailRecords.map(shownRecord),
    });
  });

  app.post(`${P}/users/:u/sessions/end-all`, allow('sessions.end'), async (c) => {
    const p = project(c);
    const user = await userOf(p.id, c.req.param('u'));
    for (const s of await store.sessions.listLive(user.id, p.id, now())) await users.updateLongSession(p, user.id, s.id, { status: 'revoked' });
    return c.json({ ok: true });
  });
  app.post(`${P}/users/:u/sessions/:s/end`, allow('sessions.end'), async (c) => {
    await users.updateLongSession(project(c), c.req.param('u'), c.req.param('s'), { status: 'revoked' });
    return c.json({ ok: true });
  });
  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    app.post(`${P}/users/:u/${action}`, allow('users.status'), async (c) => c.json(await users.updateUser(project(c), c.req.param('u'), { status })));
  }
  app.post(`${P}/users/:u/identifiers/:i/send-verification`, allow('identifiers.verify'), async (c) => {
    const p = project(c);
    const user = await userOf(p.id, c.req.param('u'));
    // the account page's own "Verify": the same code, limits and records; the person enters it there
    await deps.identifiers.verifyStart(p, { userId: user.id }, c.req.param('i'), currentAuditScope()?.ip ?? 'unknown', { language: p.language });
    return c.json({ ok: true });
  });
  app.delete(`${P}/users/:u/passkeys/:c`, allow('passkeys.delete'), async (c) => {
    await users.deleteCredential(project(c), c.req.param('u'), c.req.param('c'));
    return c.json({ ok: true });
  });
  app.delete(`${P}/users/:u/identifiers/:i`, allow('identifiers.delete'), async (c) => {
    await users.deleteIdentifier(project(c), c.req.param('u'), c.req.param('i'));
    return c.json({ ok: true });
  });
  app.delete(`${P}/users/:u`, allow('users.delete'), async (c) => {
    await users.deleteUser(project(c), c.req.param('u'));
    return c.json({ ok: true });
  });

  // ---- the trail and the figures

  const auditFilter = (c: { req: { query(name: string): string | undefined } }, projectId: string): AuditFilter => {
    const since = timeOf(c.req.query('since'), 'since');
    const until = timeOf(c.req.query('until'), 'until');
    const user = c.req.query('user');
    const event = c.req.query('event');
    return {
      projectId,
      ...(since !== undefined ? { since } : {}),
      ...(until !== undefined ? { until } : {}),
      ...(user ? { userId: user } : {}),
      ...(event ? { event } : {}),
    };
  };

  app.get(`${P}/audit`, allow('project.read'), async (c) => {
    const filter = auditFilter(c, project(c).id);
    const limit = limitOf(c.req.query('limit'), 50);
    const cursor = c.req.query('cursor') ?? '';
    if (cursor !== '' && !/^\d{1,15}$/.test(cursor)) throw new ConsoleError(400, 'invalid', 'The parameters are invalid', { cursor: 'is not one this list answered' });
    const outcome = c.req.query('outcome');
    const actor = c.req.query('actor');
    // outcome and actor are looked at here, page by page (the trail's indexes are by user, event and time)
    const events: ReturnType<typeof shownRecord>[] = [];
    let after = Number(cursor || 0);
    let more = true;
    await sealPending(store);
    for (let pages = 0; events.length < limit && more && pages < 20; pages++) {
      const records = await store.audit.page(filter, after, limit);
      more = records.length === limit;
      for (const r of records) {
        after = r.seq;
        if ((outcome && r.outcome !== outcome) || (actor && r.actor !== actor)) continue;
        events.push(shownRecord(r));
        if (events.length === limit) break;
      }
    }
    return c.json({ events, nextCursor: more || events.length === limit ? String(after) : null });
  });

  app.get(`${P}/audit/export`, allow('project.read'), (c) => {
    const format = c.req.query('format') ?? 'jsonl';
    if (format !== 'jsonl' && format !== 'csv') throw new ConsoleError(400, 'invalid', 'The parameters are invalid', { format: 'is csv or jsonl' });
    const outcome = c.req.query('outcome');
    const actor = c.req.query('actor');
    // every filter of the list: outcome and actor in the query itself (the export reads every record anyway)
    const filter = { ...auditFilter(c, project(c).id), ...(outcome ? { outcome } : {}), ...(actor ? { actor } : {}) };
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    const encoder = new TextEncoder();
    exportRecords(store, filter, format, (chunk) => writer.write(encoder.encode(chunk))).then(
      () => writer.close(),
      (error: unknown) => {
        deps.log.error('console audit export failed', error);
        void writer.abort(error);
      },
    );
    return new Response(readable, {
      headers: {
        'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/jsonl; charset=utf-8',
        'Content-Disposition': `attachment; filename="${project(c).id}-audit.${format}"`,
      },
    });
  });

  app.get(`${P}/stats`, allow('project.read'), async (c) => {
    const figures = await stats(store, project(c), c.req.query('days'), now());
    const daily = await store.audit.dailyCounts(project(c).id, figures.from);
    return c.json({
      ...figures,
      daily: daily.map(({ day, counts }) => {
        const of = (kind: string) => Object.fromEntries(Object.entries(counts).flatMap(([m, n]) => (m.startsWith(`${kind}:`) ? [[m.slice(kind.length + 1), n]] : [])));
        const logIns = of('login');
        const all = Object.values(logIns).reduce((a, b) => a + b, 0);
        const byPasskey = (logIns.passkey ?? 0) + (logIns['passkey-autofill'] ?? 0);
        return { date: day, signUps: of('signup'), logIns, passkeyAdoptionShare: all === 0 ? 0 : Math.round((byPasskey / all) * 1000) / 1000 };
      }),
    });
  });

  // ---- the project's setup

  app.get(`${P}/settings`, allow('settings.read'), (c) => c.json(project(c)));
  app.patch(`${P}/settings`, allow('settings.write'), async (c) => {
    const { id, ...current } = project(c);
    const changes = await body(c);
    delete changes.id;
    const updated = await updateProject(store, trail, id, { ...current, ...changes }, now());
    if (!updated) throw notFound();
    return c.json(updated);
  });

  app.get(`${P}/secrets`, allow('secrets.read'), async (c) =>
    c.json({
      secrets: (await store.apiSecrets.listByProject(project(c).id)).map((s) => ({
        id: s.id,
        endsWith: s.hint,
        label: s.label,
        created: timestamp(s.createdAt),
        revoked: s.revokedAt === null ? null : timestamp(s.revokedAt),
      })),
    }),
  );
  app.post(`${P}/secrets`, allow('secrets.write'), async (c) => {
    const made = await issueApiSecret(store, trail, project(c).id, 'console', now());
    return c.json({ id: made.id, secret: made.secret, created: timestamp(made.createdAt) });
  });
  app.delete(`${P}/secrets/:id`, allow('secrets.write'), async (c) => {
    if (!(await revokeApiSecret(store, trail, c.req.param('id'), project(c).id, now()))) throw notFound();
    return c.json({ ok: true });
  });

  app.get(`${P}/keys`, allow('keys.read'), async (c) => c.json(await deps.keyRing.jwks(project(c).id)));
  app.post(`${P}/keys/rotate`, allow('keys.rotate'), async (c) => c.json(await rotateSigningKey(deps.keyRing, trail, project(c))));

  app.get(`${P}/webhooks`, allow('webhooks.read'), async (c) =>
    c.json({
      webhooks: (await store.webhookEndpoints.summaries(project(c).id)).map(shownEndpoint),
    }),
  );
  app.post(`${P}/webhooks`, allow('webhooks.write'), async (c) => {
    const input = await body(c);
    if (typeof input.url !== 'string' || input.url.length > 2000) throw new ConsoleError(400, 'invalid', 'The webhook endpoint is invalid', { url: 'is required' });
    let events = null;
    let added;
    try {
      if (Array.isArray(input.events) && input.events.length > 0) events = parseEventTypes(input.events.map(String).join(','));
    } catch (error) {
      throw new ConsoleError(400, 'invalid', 'The webhook endpoint is invalid', { events: (error as Error).message.replace(/^--events/, 'events') });
    }
    try {
      const rules = { production: deps.production, allowPrivateNetworks: deps.allowPrivateNetworks };
      added = await registerWebhookEndpoint(store, deps.keys, trail, { projectId: project(c).id, url: input.url, events, rules }, now());
    } catch (error) {
      if (error instanceof ConsoleError || !(error instanceof Error) || error.constructor !== Error) throw error;
      throw new ConsoleError(400, 'invalid', 'The webhook endpoint is invalid', { url: error.message });
    }
    return c.json(added);
  });

  app.patch(`${P}/webhooks/:id`, allow('webhooks.status'), async (c) => {
    const { enabled } = await body(c);
    if (typeof enabled !== 'boolean') throw new ConsoleError(400, 'invalid', 'The webhook endpoint change is invalid', { enabled: 'must be true or false' });
    const endpoint = await setWebhookEndpointEnabled(store, trail, c.req.param('id'), project(c).id, enabled, now());
    const summary = endpoint && (await store.webhookEndpoints.summaries(endpoint.projectId)).find((e) => e.id === endpoint.id);
    if (!summary) throw notFound();
    return c.json(shownEndpoint(summary));
  });

  app.get(`${P}/webhooks/:id/deliveries`, allow('webhooks.read'), async (c) => {
    const endpoint = await store.webhookEndpoints.get(c.req.param('id'));
    if (!endpoint || endpoint.projectId !== project(c).id) throw notFound();
    const rows = await store.webhookDeliveries.listByChannel(endpoint.id, limitOf(c.req.query('limit'), 50));
    return c.json({ deliveries: rows.map((d) => shownDelivery(d, endpoint)) });
  });
  app.post(`${P}/deliveries/:d/redeliver`, allow('deliveries.redeliver'), async (c) => {
    const delivery = await store.webhookDeliveries.getInChannel(c.req.param('d'));
    const endpoint = delivery && (await store.webhookEndpoints.get(delivery.channel));
    if (!delivery || !endpoint || endpoint.projectId !== project(c).id) throw notFound();
    if (endpoint.disabledAt !== null) throw new ConsoleError(409, 'endpoint_disabled', 'The endpoint is disabled: enable it first');
    await store.transaction(async () => {
      // waiting: at once; given up: waiting again from now, for the webhooks' give-up horizon, its attempts counted on
      if (!(await store.webhookDeliveries.sendAgain(delivery.id, now(), now() + deps.webhookGiveUpMs))) {
        throw new ConsoleError(409, 'not_waiting', 'This delivery cannot be sent again (it is being sent now, or it was given up before its event was kept)');
      }
      await trail.record(endpoint.projectId, { event: 'webhook_delivery.redelivered', target: `webhook_delivery:${delivery.id}`, details: { status: delivery.status } });
    });
    return c.json({ ok: true });
  });

  // ---- operators (owner only)

  app.get('/api/operators', allow('operators'), async (c) => c.json({ operators: await deps.operators.list() }));
  app.post('/api/operators', allow('operators'), async (c) => c.json(await deps.operators.add(await body(c))));
  app.patch('/api/operators/:id', allow('operators'), async (c) => c.json(await deps.operators.update(c.req.param('id'), await body(c))));
  app.delete('/api/operators/:id', allow('operators'), async (c) => {
    await deps.operators.remove(c.req.param('id'));
    return c.json({ ok: true });
  });
}
