/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The console's server side (server/console/): who gets in, the cookie and CSRF rules, the roles on
// every call, and operator actions in the audit trail. Each refusal is checked in the database too.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sealPending } from '../audit/sealer.ts';
import { CONSOLE_SESSION_MS } from '../console/consoleApp.ts';
import { CONSOLE_PROJECT_ID } from '../console/operators.ts';
import { signUpByEmailCode } from './helpers/passkeyUser.ts';
import { ConsoleClient, consoleShortSession, signedInOperator } from './helpers/consoleClient.ts';
import { Client, serverForThisFile, uniqueEmail } from './helpers/testServer.ts';

const dist = mkdtempSync(join(tmpdir(), 'console-dist-'));
const server = serverForThisFile({ api: { consolePort: 0, consoleDistDir: dist } });

async function trailOf(projectId: string, target: string) {
  await sealPending(server.api.store);
  return (await server.api.store.audit.page({ projectId }, 0, 10_000)).filter((r) => r.target === target);
}

describe('who gets in', () => {
  it('refuses an address that is no operator at the widget, like an unknown user, and answers an operator with a strict cookie', async () => {
    const stranger = new Client(server.url, CONSOLE_PROJECT_ID, server.api.consoleUrl);
    await stranger.init({}, 'login-init');
    const refused = await stranger.step('/v2/auth/login/init', { identifierValue: uniqueEmail('stranger'), isPhone: false });
    expect(refused.data.fieldError.code).toBe('login_identifier_unknown_user');
    expect((await server.api.store.projects.get(CONSOLE_PROJECT_ID))!.publicSignup).toBe(false);

    const email = uniqueEmail('owner');
    const { console } = await signedInOperator(server, email, 'owner');
    expect(console.setCookie).toMatch(/^corbado_console=[\w-]{43}; Max-Age=28800; Path=\/; HttpOnly; SameSite=Strict$/);
    const session = await console.call('GET', '/api/session');
    expect(session.body).toMatchObject({ operator: { email, role: 'owner' }, csrfToken: console.csrfToken });
    expect(session.body.operator.projects.map((p: { id: string }) => p.id)).toContain(CONSOLE_PROJECT_ID);
  });

  it('answers 401 to a forged, expired or other project\'s short session, and 403 not_an_operator to an address no longer an operator', async () => {
    const anyone = new ConsoleClient(server.api.consoleUrl!);
    expect((await anyone.postSession('e30.e30.e30')).status).toBe(401);
    const shopper = await signUpByEmailCode(server.url, 'pro-1');
    const shop = (await shopper.client.request('POST', '/v2/me/refresh')).body.shortSession as string;
    expect(shop).toMatch(/^ey/);
    expect((await anyone.postSession(shop)).body.error.type).toBe('unauthenticated');

    const email = uniqueEmail('former');
    const { id } = await signedInOperator(server, email, 'owner');
    const jwt = await consoleShortSession(server, email);
    server.clock.advance(10 * 60_000); // the console project's short session lives 300 s
    expect((await anyone.postSession(jwt)).status).toBe(401);
    const fresh = await consoleShortSession(server, email);
    await server.api.store.operators.remove(id);
    const res = await anyone.postSession(fresh);
    expect([res.status, res.body.error.type]).toEqual([403, 'not_an_operator']);
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});

describe('writes: CSRF token, own origin, live session', () => {
  it('changes nothing without the token, from another origin, cross-site, or once the session expired', async () => {
    const { console, id } = await signedInOperator(server, uniqueEmail('csrf'), 'owner');
    const { client } = await signUpByEmailCode(server.url, 'pro-1');
    const userId = (await client.request('GET', '/v2/me')).body.id as string;
    const disable = `/api/projects/pro-1/users/${userId}/disable`;
    expect((await client.request('POST', '/v2/me/identifier', { identifierType: 'email', value: uniqueEmail('csrf-second') })).status).toBe(200);
    const status = async () => (await server.api.store.users.get(userId))!.status;

    for (const [options, type] of [
      [{ csrf: null }, 'csrf'],
      [{ csrf: 'not-the-token' }, 'csrf'],
      [{ origin: 'https://evil.example' }, 'csrf'],
      [{ origin: null }, 'csrf'],
      [{ origin: null, fetchSite: 'cross-site' }, 'csrf'],
      [{ fetchSite: 'same-site' }, 'csrf'],
    ] as const) {
      const res = await console.call('POST', disable, undefined, options);
      expect([res.status, res.body.error.type], JSON.stringify(options)).toEqual([403, type]);
      expect(await status()).toBe('active');
    }
    // without the cookie: 401
    expect((await new ConsoleClient(server.api.consoleUrl!).call('POST', disable, undefined, { csrf: console.csrfToken })).status).toBe(401);
    expect(await status()).toBe('active');

    const ok = await console.call('POST', disable);
    expect([ok.status, ok.body.status]).toEqual([200, 'disabled']);
    expect(await status()).toBe('disabled');
    expect((await trailOf('pro-1', `user:${userId}`)).find((r) => r.event === 'user.disabled')?.actor).toBe(`operator:${id}`);

    // every other kind of write is refused the same way, and changes nothing
    const hook = (await console.call('POST', '/api/projects/pro-1/webhooks', { url: 'http://127.0.0.1:9/csrf', events: ['user.created'] })).body;
    const second = (await server.api.store.users.listIdentifiers(userId)).find((i) => i.status === 'pending')!;
    const writes = [
      ['PATCH', `/api/projects/pro-1/webhooks/${hook.id}`, { enabled: false }],
      ['POST', `/api/projects/pro-1/users/${userId}/identifiers/${second.id}/send-verification`],
      ['POST', '/api/projects/pro-1/secrets'],
      ['PATCH', '/api/projects/pro-1/settings', { appName: 'Forged' }],
      ['DELETE', `/api/projects/pro-1/users/${userId}`],
      ['POST', '/api/operators', { email: uniqueEmail('forged'), role: 'owner', projects: [] }],
    ] as const;
    const state = async () =>
      JSON.stringify([
        await server.api.store.webhookEndpoints.get(hook.id),
        await server.api.store.apiSecrets.listByProject('pro-1'),
        await server.api.store.projects.get('pro-1'),
        await server.api.store.users.get(userId),
        (await server.api.store.operators.list()).length,
        await server.api.store.identifierSecrets.latest(second.id, 'email', 'email-otp'),
      ]);
    const before = await state();
    for (const [method, path, body] of writes) {
      for (const options of [{ csrf: null }, { origin: 'https://evil.example' }, { origin: null, fetchSite: 'cross-site' }] as const) {
        const res = await console.call(method, path, body, options);
        expect([res.status, res.body.error.type], `${method} ${path} ${JSON.stringify(options)}`).toEqual([403, 'csrf']);
      }
    }
    expect(await state()).toBe(before);

    server.clock.advance(CONSOLE_SESSION_MS + 1);
    const late = await console.call('POST', `/api/projects/pro-1/users/${userId}/enable`);
    expect([late.status, late.body.error.type]).toEqual([401, 'unauthenticated']);
    expect(await status()).toBe('disabled');
    for (const [method, path, body] of writes) {
      const res = await console.call(method, path, body);
      expect([res.status, res.body.error.type], `${method} ${path} expired`).toEqual([401, 'unauthenticated']);
    }
    expect(await state()).toBe(before);
  });
});

describe('roles', () => {
  it('a support operator reads, ends sessions and disables, but deletes, secrets, keys and settings answer 403 and change nothing', async () => {
    const { console } = await signedInOperator(server, uniqueEmail('support'), 'support', ['pro-1']);
    const { client, email } = await signUpByEmailCode(server.url, 'pro-1');
    const userId = (await client.request('GET', '/v2/me')).body.id as string;
    const secretsBefore = (await server.api.store.apiSecrets.listByProject('pro-1')).length;
    const configBefore = JSON.stringify(await server.api.store.projects.get('pro-1'));
    const endpointsBefore = (await server.api.store.webhookEndpoints.summaries('pro-1')).length;

    const found = await console.call('GET', `/api/projects/pro-1/users?q=${encodeURIComponent(email.slice(0, 8).toUpperCase())}`);
    expect(found.body.users.map((u: { id: string }) => u.id)).toContain(userId);
    for (const [method, path, body] of [
      ['DELETE', `/api/projects/pro-1/users/${userId}`],
      ['POST', '/api/projects/pro-1/secrets'],
      ['GET', '/api/projects/pro-1/secrets'],
      ['PATCH', '/api/projects/pro-1/settings', { appName: 'Taken over' }],
      ['POST', '/api/projects/pro-1/keys/rotate'],
      ['POST', '/api/projects/pro-1/webhooks', { url: 'https://hooks.example/x' }],
      ['GET', '/api/operators'],
    ] as const) {
      const res = await console.call(method, path, body);
      expect([res.status, res.body.error?.type], `${method} ${path}`).toEqual([403, 'forbidden']);
    }
    expect(await server.api.store.users.get(userId)).toBeDefined();
    expect((await server.api.store.apiSecrets.listByProject('pro-1')).length).toBe(secretsBefore);
    expect(JSON.stringify(await server.api.store.projects.get('pro-1'))).toBe(configBefore);
    expect((await server.api.store.webhookEndpoints.summaries('pro-1')).length).toBe(endpointsBefore);

    expect((await console.call('POST', `/api/projects/pro-1/users/${userId}/sessions/end-all`)).status).toBe(200);
    expect(await server.api.store.sessions.listLive(userId, 'pro-1', server.clock.now)).toEqual([]);
  });

  it('an admin of another project finds nothing of this project by any search or id (404, as for what does not exist)', async () => {
    const { console } = await signedInOperator(server, uniqueEmail('admin2'), 'admin', ['pro-2']);
    const { client, email } = await signUpByEmailCode(server.url, 'pro-1');
    const userId = (await client.request('GET', '/v2/me')).body.id as string;
    expect((await console.call('GET', '/api/projects')).body.projects.map((p: { id: string }) => p.id)).toEqual(['pro-2']);
    for (const path of [
      `/api/projects/pro-1/users?q=${encodeURIComponent(email)}`,
      `/api/projects/pro-1/users/${userId}`,
      '/api/projects/pro-1/audit',
      '/api/projects/pro-1/stats',
      '/api/projects/pro-1/settings',
      '/api/projects/pro-4242/users',
      `/api/projects/${CONSOLE_PROJECT_ID}/users`,
      `/api/projects/pro-2/users/${userId}`,
    ]) {
      const res = await console.call('GET', path);
      expect([res.status, res.body.error?.type], path).toEqual([404, 'not_found']);
    }
    for (const q of [email, userId, email.slice(0, 6)]) {
      expect((await console.call('GET', `/api/projects/pro-2/users?q=${encodeURIComponent(q)}`)).body.users.map((u: any) => u.id)).not.toContain(userId);
    }
    const deleted = await console.call('DELETE', `/api/projects/pro-2/users/${userId}`);
    expect(deleted.status).toBe(404);
    expect(await server.api.store.users.get(userId)).toBeDefined();

    // nor by the id of anything else of pro-1, asked for through the admin's own project
    const owner = (await signedInOperator(server, uniqueEmail('owner-of-all'), 'owner')).console;
    const hook = (await owner.call('POST', '/api/projects/pro-1/webhooks', { url: 'http://127.0.0.1:9/other', events: ['user.created'] })).body;
    await signUpByEmailCode(server.url, 'pro-1');
    const [delivery] = (await owner.call('GET', `/api/projects/pro-1/webhooks/${hook.id}/deliveries`)).body.deliveries;
    const secret = (await owner.call('POST', '/api/projects/pro-1/secrets')).body;
    const [identifier] = await server.api.store.users.listIdentifiers(userId);
    const [session] = await server.api.store.sessions.listLive(userId, 'pro-1', server.clock.now);
    for (const [method, path, body] of [
      ['GET', `/api/projects/pro-2/webhooks/${hook.id}/deliveries`],
      ['GET', `/api/projects/pro-1/webhooks/${hook.id}/deliveries`],
      ['PATCH', `/api/projects/pro-2/webhooks/${hook.id}`, { enabled: false }],
      ['POST', `/api/projects/pro-2/deliveries/${delivery.id}/redeliver`],
      ['DELETE', `/api/projects/pro-2/secrets/${secret.id}`],
      ['POST', `/api/projects/pro-2/users/${userId}/sessions/${session!.id}/end`],
      ['POST', `/api/projects/pro-2/users/${userId}/identifiers/${identifier!.id}/send-verification`],
      ['POST', `/api/projects/pro-2/users/${userId}/disable`],
    ] as const) {
      const res = await console.call(method, path, body);
      expect([res.status, res.body.error?.type], `${method} ${path}`).toEqual([404, 'not_found']);
    }
    expect((await console.call('GET', '/api/projects/pro-2/webhooks')).body.webhooks.map((w: any) => w.id)).not.toContain(hook.id);
    expect(String((await console.call('GET', `/api/projects/pro-2/audit/export?user=${userId}`)).body)).toBe('');
    expect((await console.call('GET', `/api/projects/pro-2/audit?user=${userId}`)).body.events).toEqual([]);
    expect((await server.api.store.webhookEndpoints.get(hook.id))!.disabledAt).toBeNull();
    expect((await server.api.store.apiSecrets.get(secret.id))!.revokedAt).toBeNull();
    expect((await server.api.store.users.get(userId))!.status).toBe('active');
    expect(await server.api.store.sessions.listLive(userId, 'pro-1', server.clock.now)).toHaveLength(1);
  });
});

describe('destructive actions', () => {
  it('need a sign-in within the recent-log-in window; the operator is the actor in the trail', async () => {
    const { console, id } = await signedInOperator(server, uniqueEmail('recent'), 'owner');
    const secret = await console.call('POST', '/api/projects/pro-1/secrets');
    expect(secret.body.secret).toMatch(/^corbado1_/);
    expect((await trailOf('pro-1', `secret:${secret.body.id}`))[0]).toMatchObject({ event: 'api_secret.created', actor: `operator:${id}` });

    const { client } = await signUpByEmailCode(server.url, 'pro-1');
    const userId = (await client.request('GET', '/v2/me')).body.id as string;
    server.clock.advance(301_000);
    const late = await console.call('DELETE', `/api/projects/pro-1/users/${userId}`);
    expect([late.status, late.body.error.type]).toEqual([403, 'recent_login_required']);
    expect(await server.api.store.users.get(userId)).toBeDefined();
    // reading and ending sessions need no fresh proof
    expect((await console.call('GET', `/api/projects/pro-1/users/${userId}`)).status).toBe(200);
  });
});

describe('the listener', () => {
  it('serves the app with a strict CSP, 503 until it is built, and the widget bundle', async () => {
    const before = await fetch(`${server.api.consoleUrl}/`);
    expect(before.status).toBe(503);
    const csp = before.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ${new URL(server.url).origin}`);
    expect(csp).toContain("frame-ancestors 'none'");
    mkdirSync(join(dist, 'console', 'assets'), { recursive: true });
    writeFileSync(join(dist, 'console', 'index.html'), '<!doctype html><title>Console</title>');
    writeFileSync(join(dist, 'console', 'assets', 'app-1234.js'), 'console.log(1)');
    writeFileSync(join(dist, 'corbado.js'), 'var Corbado');
    expect(await (await fetch(`${server.api.consoleUrl}/users/usr-1`)).text()).toContain('<title>Console</title>');
    expect((await fetch(`${server.api.consoleUrl}/assets/app-1234.js`)).headers.get('content-type')).toContain('text/javascript');
    expect((await fetch(`${server.api.consoleUrl}/assets/..%2F..%2Fcorbado.js`)).status).toBe(404);
    expect(await (await fetch(`${server.api.consoleUrl}/widget/corbado.js`)).text()).toBe('var Corbado');
    expect(await (await fetch(`${server.api.consoleUrl}/api/config`)).json()).toEqual({ projectId: CONSOLE_PROJECT_ID, frontendApiUrl: server.url });
  });

  it('in development, signs this machine in as the development owner by a one-time link (npm start prints it)', async () => {
    const link = await server.api.consoleSignInLink!();
    // shown red: with take() not deleting the token, the second use signs in again
    expect(link).toMatch(new RegExp(`^${server.api.consoleUrl}/_dev/sign-in\\?token=[\\w-]{43}$`));
    const first = await fetch(link, { redirect: 'manual' });
    expect([first.status, first.headers.get('location')]).toEqual([303, '/']);
    const owner = new ConsoleClient(server.api.consoleUrl!);
    owner.cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    expect((await owner.call('GET', '/api/session')).body.operator).toMatchObject({ email: 'owner@console.localhost', role: 'owner' });
    const again = await fetch(link, { redirect: 'manual' });
    expect([again.status, again.headers.get('set-cookie')]).toEqual([404, null]);
  });
});
