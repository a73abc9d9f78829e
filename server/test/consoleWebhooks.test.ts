/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The console's webhook endpoints and deliveries beyond adding them (consoleRoutes.test.ts): disabling
// and enabling an endpoint (console and admin command, one operation), the deliveries about a user on
// the user page, and sending a given-up delivery again. A server of its own: the give-up test moves its
// clock by days.
import { describe, expect, it, vi } from 'vitest';
import { sealPending } from '../audit/sealer.ts';
import { runAdmin } from '../admin.ts';
import { DEFAULT_WEBHOOK_SETTINGS } from '../events/WebhookEvents.ts';
import { HELD_UNTIL } from '../store/DeliveriesRepo.ts';
import { signedInOperator } from './helpers/consoleClient.ts';
import { signUpByEmailCode } from './helpers/passkeyUser.ts';
import { createProject, databaseEnv, serverForThisFile, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile({ api: { consolePort: 0 } });

async function deliveriesOf(endpointId: string): Promise<{ id: string; status: string; attempts: number; payload: string | null; expires_at: number }[]> {
  const rows = await server.api.store.db.all<any>('SELECT id, status, attempts, payload, expires_at FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at', [endpointId]);
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), expires_at: Number(r.expires_at) }));
}

async function actorsOf(projectId: string, target: string): Promise<[string, string][]> {
  await sealPending(server.api.store);
  return (await server.api.store.audit.page({ projectId }, 0, 10_000)).filter((r) => r.target === target).map((r) => [r.event, r.actor]);
}

describe('disabling a webhook endpoint', () => {
  it('sends nothing new while disabled, holds what waits, sends it once enabled again; support may not', async () => {
    const P = await createProject(server.url, {});
    const { console, id } = await signedInOperator(server, uniqueEmail('hooks-admin'), 'admin', [P]);
    const support = (await signedInOperator(server, uniqueEmail('hooks-support'), 'support', [P])).console;
    const hook = (await console.call('POST', `/api/projects/${P}/webhooks`, { url: 'http://127.0.0.1:9/down', events: ['user.created'] })).body;
    await signUpByEmailCode(server.url, P);
    // the worker tried it once (nothing listens on port 9) and waits 5 s of the server's clock to try again
    await vi.waitFor(async () => expect((await deliveriesOf(hook.id))[0]?.attempts).toBe(1), { timeout: 10_000, interval: 50 });

    const refused = await support.call('PATCH', `/api/projects/${P}/webhooks/${hook.id}`, { enabled: false });
    expect([refused.status, refused.body.error.type]).toEqual([403, 'forbidden']);
    expect((await console.call('PATCH', `/api/projects/${P}/webhooks/${hook.id}`, { enabled: 'no' })).body.error.fields.enabled).toBeDefined();
    expect((await console.call('PATCH', `/api/projects/${P}/webhooks/whe-nothing`, { enabled: false })).status).toBe(404);
    expect((await console.call('PATCH', `/api/projects/pro-1/webhooks/${hook.id}`, { enabled: false })).status).toBe(404); // not this admin's project
    expect((await console.call('GET', `/api/projects/${P}/webhooks`)).body.webhooks[0]).toMatchObject({ id: hook.id, enabled: true, disabled: null });

    const disabled = await console.call('PATCH', `/api/projects/${P}/webhooks/${hook.id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ id: hook.id, enabled: false, disabled: expect.any(String), pending: 1 });
    expect(disabled.body.secret ?? disabled.body.sealedSecret).toBeUndefined();

    // what waits is held: out of the due range (no attempt planned), so the worker's poll never walks it
    const [held] = (await console.call('GET', `/api/projects/${P}/webhooks/${hook.id}/deliveries`)).body.deliveries;
    expect(held).toMatchObject({ status: 'pending', attempts: 1, nextAttempt: null });
    server.clock.advance(10_000);
    expect(await server.api.store.webhookDeliveries.anyDue(server.clock.now)).toBe(false);
    // and one whose retry time was set after the hold (an attempt in flight as it was disabled) is not claimed either
    await server.api.store.db.run('UPDATE webhook_deliveries SET next_attempt_at = ? WHERE endpoint_id = ?', [server.clock.now - 1, hook.id]);
    expect(await server.api.store.webhookDeliveries.anyDue(server.clock.now)).toBe(false);
    expect(await server.api.store.webhookDeliveries.claim('clm-test', server.clock.now, server.clock.now + 1000, 10)).toEqual([]);
    await server.api.store.db.run('UPDATE webhook_deliveries SET next_attempt_at = ? WHERE endpoint_id = ?', [HELD_UNTIL, hook.id]);
    // a new event: no delivery for the disabled endpoint
    await signUpByEmailCode(server.url, P);
    expect(await deliveriesOf(hook.id)).toHaveLength(1);

    expect((await console.call('PATCH', `/api/projects/${P}/webhooks/${hook.id}`, { enabled: true })).body).toMatchObject({ enabled: true, disabled: null });
    await vi.waitFor(async () => expect((await deliveriesOf(hook.id))[0]?.attempts).toBe(2), { timeout: 10_000, interval: 50 });
    // enabling what is enabled changes and records nothing
    expect((await console.call('PATCH', `/api/projects/${P}/webhooks/${hook.id}`, { enabled: true })).status).toBe(200);
    expect(await actorsOf(P, `webhook_endpoint:${hook.id}`)).toEqual([
      ['webhook_endpoint.added', `operator:${id}`],
      ['webhook_endpoint.disabled', `operator:${id}`],
      ['webhook_endpoint.enabled', `operator:${id}`],
    ]);

    // the admin command: the same operation, `admin` the actor
    const env = databaseEnv(server.dir);
    expect(await runAdmin(['webhooks', 'disable', hook.id], env, server.clock.now)).toEqual({ id: hook.id, enabled: false });
    expect((await runAdmin(['webhooks', 'list', P], env)) as any[]).toEqual([expect.objectContaining({ id: hook.id, disabledAt: expect.any(String) })]);
    expect(await runAdmin(['webhooks', 'enable', hook.id], env, server.clock.now)).toEqual({ id: hook.id, enabled: true });
    await expect(runAdmin(['webhooks', 'enable', 'whe-nothing'], env)).rejects.toThrow('there is no webhook endpoint whe-nothing');
    expect((await actorsOf(P, `webhook_endpoint:${hook.id}`)).slice(-2)).toEqual([
      ['webhook_endpoint.disabled', 'admin'],
      ['webhook_endpoint.enabled', 'admin'],
    ]);
  });
});

describe('deliveries about a user', () => {
  it('are on the user page with their endpoint; a given-up one is sent again, its attempts counted on', async () => {
    const P = await createProject(server.url, {});
    const { console } = await signedInOperator(server, uniqueEmail('deliveries'), 'owner');
    const hook = (await console.call('POST', `/api/projects/${P}/webhooks`, { url: 'http://127.0.0.1:9/again', events: ['user.created', 'session.ended'] })).body;
    const { client } = await signUpByEmailCode(server.url, P);
    const userId = (await client.request('GET', '/v2/me')).body.id as string;
    const other = await signUpByEmailCode(server.url, P);
    await vi.waitFor(async () => expect((await deliveriesOf(hook.id)).map((d) => d.attempts)).toEqual([1, 1]), { timeout: 10_000, interval: 50 });

    const page = (await console.call('GET', `/api/projects/${P}/users/${userId}`)).body;
    expect(page.deliveries).toEqual([
      expect.objectContaining({ event: 'user.created', status: 'pending', attempts: 1, lastError: expect.any(String), endpointId: hook.id, endpointUrl: 'http://127.0.0.1:9/again' }),
    ]);
    const [delivery] = page.deliveries;
    const otherId = (await other.client.request('GET', '/v2/me')).body.id as string;
    expect((await console.call('GET', `/api/projects/${P}/users/${otherId}`)).body.deliveries[0].id).not.toBe(delivery.id);

    // past the give-up horizon: the worker gives it up, and keeps its event so that it can go again
    server.clock.advance(DEFAULT_WEBHOOK_SETTINGS.giveUpMs + 1000);
    await vi.waitFor(async () => expect((await deliveriesOf(hook.id)).map((d) => d.status)).toEqual(['expired', 'expired']), { timeout: 10_000, interval: 50 });
    const owner = (await signedInOperator(server, uniqueEmail('deliveries-later'), 'owner')).console; // the first sign-in expired meanwhile
    const given = (await owner.call('GET', `/api/projects/${P}/users/${userId}`)).body.deliveries[0];
    // (the claim that found it expired counted an attempt)
    expect(given).toMatchObject({ id: delivery.id, event: 'user.created', status: 'expired', attempts: 2, nextAttempt: null });

    // a support operator may not send it again
    const support = (await signedInOperator(server, uniqueEmail('deliveries-support'), 'support', [P])).console;
    expect((await support.call('POST', `/api/projects/${P}/deliveries/${delivery.id}/redeliver`)).status).toBe(403);

    expect((await owner.call('POST', `/api/projects/${P}/deliveries/${delivery.id}/redeliver`)).body).toEqual({ ok: true });
    const again = (await deliveriesOf(hook.id)).find((d) => d.id === delivery.id)!;
    expect(again.expires_at).toBe(server.clock.now + DEFAULT_WEBHOOK_SETTINGS.giveUpMs);
    await vi.waitFor(async () => expect((await deliveriesOf(hook.id)).find((d) => d.id === delivery.id)).toMatchObject({ status: 'pending', attempts: 3 }), { timeout: 10_000, interval: 50 });
    expect((await actorsOf(P, `webhook_delivery:${delivery.id}`)).at(-1)).toEqual(['webhook_delivery.redelivered', expect.stringMatching(/^operator:opr-/)]);

    // one given up before its event was kept (rows of an older server) cannot go again
    await server.api.store.db.run("UPDATE webhook_deliveries SET status = 'failed', payload = NULL WHERE id <> ? AND endpoint_id = ?", [delivery.id, hook.id]);
    const [old] = (await deliveriesOf(hook.id)).filter((d) => d.id !== delivery.id);
    const refused = await owner.call('POST', `/api/projects/${P}/deliveries/${old!.id}/redeliver`);
    expect([refused.status, refused.body.error.type]).toEqual([409, 'not_waiting']);

    // nor one of a disabled endpoint (enable it first)
    await owner.call('PATCH', `/api/projects/${P}/webhooks/${hook.id}`, { enabled: false });
    const held = await owner.call('POST', `/api/projects/${P}/deliveries/${delivery.id}/redeliver`);
    expect([held.status, held.body.error.type]).toEqual([409, 'endpoint_disabled']);
  });
});
