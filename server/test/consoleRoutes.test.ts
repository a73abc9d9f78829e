/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The console's routes beyond the gate (console.test.ts has who gets in and the roles): the user search,
// a user's page and actions, the trail and its export, the figures, settings, secrets, keys, webhooks and
// operators, each through the operation the Backend API or the admin command uses.
import { describe, expect, it } from 'vitest';
import { sealPending } from '../audit/sealer.ts';
import { newUserRecord } from '../backend/userRecords.ts';
import { CONSOLE_PROJECT_ID } from '../console/operators.ts';
import { signedInOperator } from './helpers/consoleClient.ts';
import { signUpByEmailCode } from './helpers/passkeyUser.ts';
import { createProject, outbox, serverForThisFile, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile({ api: { consolePort: 0 } });

/** Users with an e-mail address, a phone number and an external id each, stored as an import stores them. */
async function seed(projectId: string, people: { email: string; phone?: string; externalId?: string }[]): Promise<string[]> {
  const project = (await server.api.store.projects.get(projectId))!;
  const users = people.map((p) => ({ ...newUserRecord(project, { fullName: p.email, status: 'active', externalId: p.externalId ?? null }, server.clock.now), signupAnswers: [] }));
  await server.api.store.users.insertUsers(project, users);
  const identifiers = people.flatMap((p, i) => [
    { id: `ide-${users[i]!.id.slice(4)}1`, userId: users[i]!.id, type: 'email' as const, value: p.email, normalized: p.email.toLowerCase(), status: 'verified' as const, primary: true },
    ...(p.phone ? [{ id: `ide-${users[i]!.id.slice(4)}2`, userId: users[i]!.id, type: 'phone' as const, value: p.phone, normalized: p.phone, status: 'pending' as const, primary: true }] : []),
  ]);
  await server.api.store.users.insertIdentifiers(projectId, identifiers, server.clock.now);
  return users.map((u) => u.id);
}

describe('the user search', () => {
  it('finds by the first letters of an address, phone, user id or external id, whatever the case, keyset paged', async () => {
    const projectId = await createProject(server.url, { identifiers: { email: {}, phone: { required: false } } });
    const { console } = await signedInOperator(server, uniqueEmail('searcher'), 'admin', [projectId]);
    const ids = await seed(projectId, [
      { email: 'Ada.Lovelace@Example.com', phone: '+4915112345678', externalId: 'CRM-0001' },
      { email: 'adam@example.com', externalId: 'crm-0002' },
      { email: 'grace@example.com', phone: '+14155550100' },
      { email: 'alan@example.org' },
    ]);
    const search = async (q: string, more = '') =>
      (await console.call('GET', `/api/projects/${projectId}/users?q=${encodeURIComponent(q)}${more}`)).body as { users: any[]; nextCursor: string | null };
    const emails = async (q: string) => (await search(q)).users.map((u) => u.identifiers[0].value).sort();

    expect(await emails('ADA')).toEqual(['Ada.Lovelace@Example.com', 'adam@example.com']);
    expect(await emails('ada.')).toEqual(['Ada.Lovelace@Example.com']);
    expect(await emails('+49 151')).toEqual(['Ada.Lovelace@Example.com']);
    expect(await emails('CRM-')).toEqual(['Ada.Lovelace@Example.com', 'adam@example.com']);
    expect(await emails(ids[2]!.slice(0, 12))).toContain('grace@example.com');
    expect(await emails(ids[3]!)).toEqual(['alan@example.org']);
    expect(await emails('example.com')).toEqual([]); // a prefix, not a substring
    expect((await search('ada')).users[0]).toMatchObject({ fullName: expect.any(String), status: 'active', created: expect.any(String) });

    // keyset pages: every user once, in the order of what matched (Ada…, adam…, alan…)
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await search('a', `&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.users.map((u) => u.id));
      cursor = page.nextCursor;
    }
    expect(seen).toEqual([ids[0], ids[1], ids[3]]);
    expect((await console.call('GET', `/api/projects/${projectId}/users?cursor=usr-1`)).body.error.fields.cursor).toBeDefined();
    expect((await console.call('GET', `/api/projects/${projectId}/users?limit=1000`)).body.error).toMatchObject({ type: 'invalid', fields: { limit: expect.any(String) } });
  });
});

describe('a user', () => {
  it('shows identifiers, passkeys, sessions and the trail; ends a session, removes an identifier, deletes the account', async () => {
    const { console, id } = await signedInOperator(server, uniqueEmail('admin'), 'admin', ['pro-1']);
    const { client, email } = await signUpByEmailCode(server.url, 'pro-1');
    const userId = (await client.request('GET', '/v2/me')).body.id as string;
    const page = (await console.call('GET', `/api/projects/pro-1/users/${userId}`)).body;
    expect(page.user).toMatchObject({ id: userId, status: 'active' });
    expect(page.identifiers).toEqual([expect.objectContaining({ type: 'email', value: email, status: 'verified', primary: true })]);
    expect(page.sessions).toHaveLength(1);
    expect(page.trail.map((r: any) => r.event)).toContain('session.created');

    expect((await console.call('POST', `/api/projects/pro-1/users/${userId}/sessions/${page.sessions[0].id}/end`)).status).toBe(200);
    expect((await client.request('POST', '/v2/me/refresh')).status).toBe(401);
    expect((await console.call('POST', `/api/projects/pro-1/users/${userId}/sessions/ses-1/end`)).body.error.type).toBe('not_found');

    expect((await console.call('DELETE', `/api/projects/pro-1/users/${userId}/identifiers/${page.identifiers[0].id}`)).status).toBe(200);
    expect(await server.api.store.users.listIdentifiers(userId)).toEqual([]);
    expect((await console.call('DELETE', `/api/projects/pro-1/users/${userId}`)).status).toBe(200);
    expect(await server.api.store.users.get(userId)).toBeUndefined();
    const trail = (await console.call('GET', `/api/projects/pro-1/audit?user=${userId}&actor=operator:${id}`)).body.events.map((r: any) => r.event);
    expect(trail).toEqual(['session.ended', 'identifier.removed', 'user.deleted']);
  });
});

describe('resending a verification', () => {
  it('starts the account page\'s own verification: the person finishes it there with the code; limited like their own request', async () => {
    const { console, id } = await signedInOperator(server, uniqueEmail('support-verify'), 'support', ['pro-1']);
    const { client } = await signUpByEmailCode(server.url, 'pro-1');
    const userId = (await client.request('GET', '/v2/me')).body.id as string;
    const second = uniqueEmail('unverified');
    expect((await client.request('POST', '/v2/me/identifier', { identifierType: 'email', value: second })).status).toBe(200);
    const pending = (await console.call('GET', `/api/projects/pro-1/users/${userId}`)).body.identifiers.find((i: any) => i.value === second);
    expect(pending.status).toBe('pending');
    const send = (identifierId: string, user = userId) => console.call('POST', `/api/projects/pro-1/users/${user}/identifiers/${identifierId}/send-verification`);

    expect((await send(pending.id)).body).toEqual({ ok: true });
    const [message] = await outbox(server.url, second);
    expect(message!.code).toMatch(/^\d{6}$/);
    // as the person's own request: one code per 30 s
    const early = await send(pending.id);
    expect([early.status, early.body.error.type]).toEqual([429, 'too_many_requests']);
    expect(await outbox(server.url, second)).toHaveLength(1);
    // nor for another user's identifier, a verified one, or another project's user
    const verified = (await console.call('GET', `/api/projects/pro-1/users/${userId}`)).body.identifiers.find((i: any) => i.status === 'verified');
    expect((await send(verified.id)).body.error.type).toBe('invalid');
    const stranger = await signUpByEmailCode(server.url, 'pro-1');
    expect((await send(pending.id, (await stranger.client.request('GET', '/v2/me')).body.id)).status).toBe(404);

    // the person enters the code on their account page, signed in as ever
    expect((await client.request('POST', '/v2/me/identifier/verify/finish', { identifierID: pending.id, code: message!.code })).status).toBe(200);
    expect((await server.api.store.users.getIdentifier(pending.id))!.status).toBe('verified');
    await sealPending(server.api.store);
    const sent = (await server.api.store.audit.page({ projectId: 'pro-1', userId }, 0, 1000)).find((r) => r.event === 'code.sent' && r.target === `identifier:${pending.id}`);
    expect(sent).toMatchObject({ actor: `operator:${id}` });
  });
});

describe('the trail, the figures, the project', () => {
  it('filters and exports the trail, answers the figures with a daily series', async () => {
    const { console, id } = await signedInOperator(server, uniqueEmail('reader'), 'owner');
    await signUpByEmailCode(server.url, 'pro-1');
    const page = (await console.call('GET', '/api/projects/pro-1/audit?event=signup.succeeded&limit=1')).body;
    expect(page.events).toHaveLength(1);
    const csv = await console.call('GET', '/api/projects/pro-1/audit/export?format=csv&event=signup.succeeded');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="pro-1-audit.csv"');
    expect(String(csv.body).split('\n')[1]).toContain('signup.succeeded');
    expect((await console.call('GET', '/api/projects/pro-1/audit?since=yesterday')).body.error.fields.since).toBeDefined();
    // the export applies every filter of the list: outcome and actor too
    const lines = async (query: string) => {
      const res = await console.call('GET', `/api/projects/${CONSOLE_PROJECT_ID}/audit/export?${query}`);
      return (typeof res.body === 'string' ? res.body : JSON.stringify(res.body)).split('\n').filter(Boolean);
    };
    const all = (await lines('format=jsonl')).map((line) => JSON.parse(line));
    const done = (await lines('format=jsonl&outcome=done')).map((line) => JSON.parse(line));
    const refused = (await lines('format=jsonl&outcome=refused')).map((line) => JSON.parse(line));
    expect(done.every((r) => r.outcome === 'done') && refused.every((r) => r.outcome === 'refused')).toBe(true);
    expect(done.length + refused.length).toBe(all.length);
    const mine = (await lines(`format=jsonl&actor=operator:${id}`)).map((line) => JSON.parse(line));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((r) => r.actor === `operator:${id}`)).toBe(true);
    expect(all.length).toBeGreaterThan(mine.length);
    expect(await lines(`format=csv&actor=operator:${id}&outcome=done`)).toHaveLength(mine.filter((r) => r.outcome === 'done').length + 1);
    const stats = (await console.call('GET', '/api/projects/pro-1/stats?days=7')).body;
    expect(stats.daily.at(-1)).toMatchObject({ date: new Date(server.clock.now).toISOString().slice(0, 10), signUps: { 'email-otp': expect.any(Number) } });
    // the operator's own sign-in is in the console project's trail
    expect((await console.call('GET', `/api/projects/${CONSOLE_PROJECT_ID}/audit?actor=operator:${id}`)).body.events[0].event).toBe('console.signed_in');
  });

  it('changes settings with the admin command\'s validation, makes and revokes secrets, rotates keys, adds a webhook endpoint', async () => {
    const { console, id } = await signedInOperator(server, uniqueEmail('setup'), 'admin', ['pro-4']);
    const bad = await console.call('PATCH', '/api/projects/pro-4/settings', { shortSessionLifetimeSeconds: 1 });
    expect([bad.status, bad.body.error.type, bad.body.error.fields]).toEqual([400, 'invalid', { shortSessionLifetimeSeconds: 'must be >= 10' }]);
    expect((await console.call('PATCH', '/api/projects/pro-4/settings', { allowedOrigins: ['not an origin'] })).body.error.fields).toEqual({ 'allowedOrigins[0]': 'must be an origin like https://example.com' });
    const ok = await console.call('PATCH', '/api/projects/pro-4/settings', { appName: 'Renamed Shop' });
    expect(ok.body.appName).toBe('Renamed Shop');
    expect((await server.api.store.projects.get('pro-4'))!.appName).toBe('Renamed Shop');

    const secret = (await console.call('POST', '/api/projects/pro-4/secrets')).body;
    expect((await console.call('GET', '/api/projects/pro-4/secrets')).body.secrets.find((s: any) => s.id === secret.id)).toMatchObject({ revoked: null, label: 'console' });
    expect((await console.call('DELETE', `/api/projects/pro-1/secrets/${secret.id}`)).status).toBe(404); // not a project of this admin
    expect((await console.call('DELETE', `/api/projects/pro-4/secrets/${secret.id}`)).status).toBe(200);
    expect((await server.api.store.apiSecrets.get(secret.id))!.revokedAt).not.toBeNull();

    const before = (await console.call('GET', '/api/projects/pro-4/keys')).body.keys.length;
    expect((await console.call('POST', '/api/projects/pro-4/keys/rotate')).body.kid).toEqual(expect.any(String));
    expect((await console.call('GET', '/api/projects/pro-4/keys')).body.keys.length).toBe(before + 1);

    const refused = await console.call('POST', '/api/projects/pro-4/webhooks', { url: 'ftp://hooks.example/' });
    expect(refused.body.error).toMatchObject({ type: 'invalid', fields: { url: expect.any(String) } });
    const hook = (await console.call('POST', '/api/projects/pro-4/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['user.created'] })).body;
    expect(hook.secret).toMatch(/^whsec_/);
    expect((await console.call('GET', '/api/projects/pro-4/webhooks')).body.webhooks.map((w: any) => w.id)).toEqual([hook.id]);
    await sealPending(server.api.store);
    const events = (await server.api.store.audit.page({ projectId: 'pro-4' }, 0, 1000)).filter((r) => r.actor === `operator:${id}`).map((r) => r.event);
    expect(events).toEqual(['project.settings_changed', 'api_secret.created', 'api_secret.revoked', 'signing_key.created', 'webhook_endpoint.added']);
  });

  it('lets the owner invite, change and remove operators', async () => {
    const { console } = await signedInOperator(server, uniqueEmail('boss'), 'owner');
    const invited = (await console.call('POST', '/api/operators', { email: 'Helper@Example.com', role: 'support', projects: ['pro-1'] })).body;
    expect(invited).toMatchObject({ email: 'helper@example.com', role: 'support', projects: ['pro-1'] });
    expect((await console.call('POST', '/api/operators', { email: 'x@example.com', role: 'support', projects: [] })).body.error.fields.projects).toBeDefined();
    expect((await console.call('PATCH', `/api/operators/${invited.id}`, { role: 'admin' })).body.role).toBe('admin');
    expect((await console.call('DELETE', `/api/operators/${invited.id}`)).status).toBe(200);
    expect((await console.call('GET', '/api/operators')).body.operators.map((o: any) => o.email)).not.toContain('helper@example.com');
    expect((await console.call('DELETE', '/api/operators/opr-1')).body.error.type).toBe('not_found');
  });

  it('lists an endpoint\'s deliveries with their event and attempts, and sends a waiting one again at once', async () => {
    const { console, id } = await signedInOperator(server, uniqueEmail('hooks'), 'owner');
    const hook = (await console.call('POST', '/api/projects/pro-1/webhooks', { url: 'http://127.0.0.1:9/down', events: ['user.created'] })).body;
    await signUpByEmailCode(server.url, 'pro-1');
    const [delivery] = (await console.call('GET', `/api/projects/pro-1/webhooks/${hook.id}/deliveries`)).body.deliveries;
    expect(delivery).toMatchObject({ event: 'user.created', status: 'pending', endpointUrl: 'http://127.0.0.1:9/down' });
    await server.api.store.db.run('UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?', [server.clock.now + 3_600_000, delivery.id]);
    expect((await console.call('POST', `/api/projects/pro-2/deliveries/${delivery.id}/redeliver`)).status).toBe(404);
    expect((await console.call('POST', `/api/projects/pro-1/deliveries/${delivery.id}/redeliver`)).body).toEqual({ ok: true });
    const row = await server.api.store.db.get<{ next_attempt_at: number }>('SELECT next_attempt_at FROM webhook_deliveries WHERE id = ?', [delivery.id]);
    expect(Number(row!.next_attempt_at)).toBeLessThanOrEqual(server.clock.now);
    await sealPending(server.api.store);
    expect((await server.api.store.audit.page({ projectId: 'pro-1' }, 0, 10_000)).find((r) => r.target === `webhook_delivery:${delivery.id}`)?.actor).toBe(`operator:${id}`);
  });
});
