// Attack class: the server's own HTTP requests turned against it (server-side request forgery), and
// webhook secrets or events read from the database. A webhook URL is chosen by whoever registers the
// endpoint and its host name by whoever runs its DNS: in production the server sends only over https,
// only to public addresses (checked on the address it connects to, after resolution), never follows a
// redirect, and refuses to start with an endpoint on plain http. The signing secret and the waiting
// events are sealed under KEY_ENCRYPTION_SECRET; the secret is shown once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runAdmin } from '../../admin.ts';
import type { StartOptions } from '../../app.ts';
import type { AddedEndpoint } from '../../events/webhookEndpoints.ts';
import { webhookUrlProblem } from '../../events/webhookTargets.ts';
import { WebhookSender } from '../../events/WebhookSender.ts';
import { Undeliverable } from '../../senders/DeliveryWorker.ts';
import type { Resolver } from '../../events/webhookTargets.ts';
import type { DeliveryEvent } from '../../senders/DeliveryWorker.ts';
import { CommandSmsSender } from '../../senders/SmsSender.ts';
import { userWithPasskey } from '../helpers/passkeyUser.ts';
import { startProductionServer, SHOP } from '../helpers/productionServer.ts';
import { SoftAuthenticator } from '../helpers/softAuthenticator.ts';
import { Client, databaseEnv, dropTestDatabase, startTestServer, uniqueEmail } from '../helpers/testServer.ts';

const SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const KEY_ENCRYPTION_SECRET = 'a-key-encryption-secret-of-forty-characters';
const PRODUCTION = { production: true, allowPrivateNetworks: false };
const DEVELOPMENT = { production: false, allowPrivateNetworks: false };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A TCP listener that counts the connections made to it and closes them. */
async function connectionCounter(): Promise<{ port: number; connections: () => number }> {
  let count = 0;
  const server = createTcpServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, connections: () => count };
}

/** An HTTP listener answering every request with `status` (and a Location); counts the requests. */
async function answering(status: number, location?: string): Promise<{ url: string; requests: () => number }> {
  let count = 0;
  const server: Server = createServer((_request, response) => {
    count += 1;
    response.writeHead(status, location ? { location } : {}).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => count };
}

/**
 * A name's DNS as an attacker runs it (DNS rebinding): a public address (TEST-NET-3) at the first
 * question, this machine (127.0.0.1) at every later one. The first answer comes only after `delayMs`,
 * longer than an attempt may take: a sender that connects to the address it checked has given the
 * attempt up by then and never connects to the public address (nothing leaves this machine), while one
 * that checks and then resolves again to connect gets 127.0.0.1 the second time.
 */
function rebindingResolver(delayMs: number): { resolve: Resolver; calls: () => number } {
  let calls = 0;
  const resolve: Resolver = async () => {
    calls += 1;
    if (calls > 1) return [{ address: '127.0.0.1', family: 4 }];
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return [{ address: '203.0.113.7', family: 4 }];
  };
  return { resolve, calls: () => calls };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function attempt(sender: WebhookSender, url: string): Promise<void> {
  return sender.send({ url, secret: SECRET, id: 'evt-1', body: '{"type":"user.deleted"}', now: Date.now() });
}

describe('where a webhook may go', () => {
  it('production: https to public addresses only; development: also plain http to this machine', () => {
    for (const [url, rules, problem] of [
      ['http://hooks.shop.example/corbado', PRODUCTION, /production sends webhooks over https only/],
      ['http://127.0.0.1:8080/hook', PRODUCTION, /https only/],
      ['https://10.0.0.5/hook', PRODUCTION, /public addresses only/],
      ['https://192.168.1.20/hook', PRODUCTION, /public addresses only/],
      ['https://172.16.0.1/hook', PRODUCTION, /public addresses only/],
      ['https://169.254.169.254/latest/meta-data/', PRODUCTION, /public addresses only/],
      ['https://127.0.0.1/hook', PRODUCTION, /public addresses only/],
      ['https://[::1]/hook', PRODUCTION, /public addresses only/],
      ['https://[fd00::1]/hook', PRODUCTION, /public addresses only/],
      ['https://[::ffff:10.0.0.1]/hook', PRODUCTION, /public addresses only/],
      ['https://100.64.0.1/hook', PRODUCTION, /public addresses only/],
      ['https://user:pass@hooks.shop.example/', PRODUCTION, /must not carry a user or password/],
      ['https://hooks.shop.example/#x', PRODUCTION, /fragment/],
      ['ftp://hooks.shop.example/', PRODUCTION, /must be https/],
      ['hooks.shop.example', PRODUCTION, /absolute https URL/],
      ['http://hooks.shop.example/', DEVELOPMENT, /plain http only to this machine/],
      ['http://10.0.0.5/', DEVELOPMENT, /plain http only to this machine/],
    ] as const) {
      expect(webhookUrlProblem(url, rules), url).toMatch(problem);
    }
    for (const [url, rules] of [
      ['https://hooks.shop.example/corbado?tenant=7', PRODUCTION],
      ['https://203.0.113.7/hook', PRODUCTION],
      ['https://10.0.0.5/hook', { production: true, allowPrivateNetworks: true }],
      ['http://127.0.0.1:8080/hook', DEVELOPMENT],
      ['http://localhost:8080/hook', DEVELOPMENT],
      ['http://[::1]:8080/hook', DEVELOPMENT],
      ['https://hooks.shop.example/', DEVELOPMENT],
    ] as const) {
      expect(webhookUrlProblem(url, rules), url).toBeUndefined();
    }
  });

  it('production: a host name that resolves to this machine is refused before any connection; allowed private networks reach it', async () => {
    const listener = await connectionCounter();
    const production = new WebhookSender(PRODUCTION, 2_000);
    // "localhost" passes the URL's check (it is a name) and resolves to 127.0.0.1: refused on resolution
    await expect(attempt(production, `https://localhost:${listener.port}/hook`)).rejects.toThrow(/resolved to 127\.0\.0\.1, not a public address/);
    await expect(attempt(production, `https://localhost:${listener.port}/hook`)).rejects.toBeInstanceOf(Undeliverable);
    await expect(attempt(production, `https://127.0.0.1:${listener.port}/hook`)).rejects.toBeInstanceOf(Undeliverable);
    expect(listener.connections()).toBe(0);
    // the same request with private networks allowed does connect (the TLS handshake then fails on this plain listener)
    const allowed = new WebhookSender({ production: true, allowPrivateNetworks: true }, 2_000);
    await expect(attempt(allowed, `https://localhost:${listener.port}/hook`)).rejects.not.toBeInstanceOf(Undeliverable);
    expect(listener.connections()).toBe(1);
  });

  it('DNS rebinding: the name is resolved once per attempt, and only the addresses checked are connected to', async () => {
    const listener = await connectionCounter();
    const rebinding = rebindingResolver(600);
    const sender = new WebhookSender(PRODUCTION, 200, rebinding.resolve);
    // "localhost": a sender that connected by name through the system's resolver would reach this
    // machine too, without asking any DNS server outside it
    const url = `https://localhost:${listener.port}/hook`;
    await expect(attempt(sender, url)).rejects.toThrow('no answer within 200 ms');
    await sleep(800); // the public answer has come by now
    expect(rebinding.calls()).toBe(1);
    expect(listener.connections()).toBe(0);
    // the next attempt asks again: the name points at this machine now, refused before connecting
    await expect(attempt(sender, url)).rejects.toThrow(/resolved to 127\.0\.0\.1, not a public address/);
    expect(rebinding.calls()).toBe(2);
    expect(listener.connections()).toBe(0);
    // a name that answers a public address and this machine at once is refused as a whole
    const mixed = new WebhookSender(PRODUCTION, 2_000, async () => [
      { address: '203.0.113.7', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]);
    await expect(attempt(mixed, url)).rejects.toBeInstanceOf(Undeliverable);
    expect(listener.connections()).toBe(0);
  });

  it('never follows a redirect: the attempt fails and the target of the redirect hears nothing', async () => {
    const elsewhere = await answering(204);
    const redirecting = await answering(307, `${elsewhere.url}/internal`);
    const sender = new WebhookSender(DEVELOPMENT, 2_000);
    await expect(attempt(sender, `${redirecting.url}/hook`)).rejects.toThrow('HTTP 307 (redirects are not followed)');
    expect(redirecting.requests()).toBe(1);
    expect(elsewhere.requests()).toBe(0);
    // and an error answer fails it too, while any 2xx delivers
    await expect(attempt(sender, `${(await answering(500)).url}/hook`)).rejects.toThrow('HTTP 500');
    await expect(attempt(sender, `${elsewhere.url}/hook`)).resolves.toBeUndefined();
  });
});

describe('the admin command', () => {
  it('refuses what production would not send to, unknown event types and projects; lists no secret; removing drops what waits', async () => {
    const server = await startTestServer();
    cleanups.push(() => server.stop());
    const env = databaseEnv(server.dir);
    const add = (url: string, extra: string[] = [], more: NodeJS.ProcessEnv = {}) => runAdmin(['webhooks', 'add', 'pro-1', url, ...extra], { ...env, ...more });
    await expect(add('http://hooks.shop.example/')).rejects.toThrow(/plain http only to this machine/);
    await expect(add('https://hooks.shop.example/', [], { CORBADO_ENV: 'production' })).rejects.toThrow(/KEY_ENCRYPTION_SECRET is needed/);
    const inProduction = { CORBADO_ENV: 'production', KEY_ENCRYPTION_SECRET };
    await expect(add('http://127.0.0.1:9/', [], inProduction)).rejects.toThrow(/https only/);
    await expect(add('https://10.1.2.3/', [], inProduction)).rejects.toThrow(/public addresses only/);
    await expect(add('https://localhost/', [], inProduction)).rejects.toThrow(/localhost: the host resolved to 127\.0\.0\.1/);
    await expect(add('http://127.0.0.1:9/', ['--events', 'user.created,user.exploded'])).rejects.toThrow(/unknown: user\.exploded/);
    await expect(runAdmin(['webhooks', 'add', 'pro-404', 'http://127.0.0.1:9/'], env)).rejects.toThrow(/there is no project pro-404/);

    const added = (await add('http://127.0.0.1:9/hook', ['--events', 'user.created'])) as AddedEndpoint;
    expect(added).toEqual({ id: expect.stringMatching(/^whe-\d+$/), projectId: 'pro-1', url: 'http://127.0.0.1:9/hook', events: ['user.created'], secret: expect.stringMatching(/^whsec_/) });
    await userWithPasskey(server.url, new SoftAuthenticator()); // port 9 refuses: the event waits
    const listed = await runAdmin(['webhooks', 'list', 'pro-1'], env);
    expect(listed).toEqual([{ id: added.id, projectId: 'pro-1', url: added.url, events: ['user.created'], createdAt: expect.any(String), disabledAt: null, pending: 1, givenUp: 0 }]);
    expect(JSON.stringify(listed)).not.toContain(added.secret.slice(6));
    expect(await runAdmin(['webhooks', 'remove', added.id], env)).toEqual({ removed: added.id });
    expect(await server.api.store.db.all('SELECT id FROM webhook_deliveries')).toEqual([]);
    await expect(runAdmin(['webhooks', 'remove', added.id], env)).rejects.toThrow(/there is no webhook endpoint/);
  });
});

describe('webhook secrets and events in the database', () => {
  it('are sealed under KEY_ENCRYPTION_SECRET; a secret a development run stored in the clear is sealed at the next start', async () => {
    const plain = await startTestServer();
    const dir = plain.dir;
    cleanups.push(() => dropTestDatabase(dir));
    const env = databaseEnv(dir);
    const early = (await runAdmin(['webhooks', 'add', 'pro-1', 'http://127.0.0.1:9/early'], env)) as AddedEndpoint;
    expect(await plain.api.store.db.all('SELECT secret FROM webhook_endpoints')).toEqual([{ secret: early.secret }]);
    await plain.stop(true);

    const logged: string[] = [];
    const logger = { info: (line: string) => logged.push(line), error: () => {} };
    const sealed = await startTestServer({ dir, logger, api: { keyEncryptionSecret: KEY_ENCRYPTION_SECRET } satisfies Partial<StartOptions> });
    cleanups.push(() => sealed.stop(true));
    expect(logged).toContain('Encrypted 1 webhook secret(s) that were stored in the clear');
    const late = (await runAdmin(['webhooks', 'add', 'pro-1', 'http://127.0.0.1:9/late'], { ...env, KEY_ENCRYPTION_SECRET })) as AddedEndpoint;
    const { email } = await userWithPasskey(sealed.url, new SoftAuthenticator());
    await vi.waitFor(async () => expect(await sealed.api.store.db.all('SELECT id FROM webhook_deliveries WHERE attempts > 0')).toHaveLength(2));
    const rows = [
      ...(await sealed.api.store.db.all<{ secret: string }>('SELECT secret FROM webhook_endpoints')).map((r) => r.secret),
      ...(await sealed.api.store.db.all<{ payload: string }>('SELECT payload FROM webhook_deliveries')).map((r) => r.payload),
    ];
    expect(rows).toHaveLength(4);
    for (const value of rows) {
      expect(value).toMatch(/^enc:v1:/);
      for (const secret of [early.secret, late.secret, email]) expect(value).not.toContain(secret.replace(/^whsec_/, ''));
    }
  });
});

describe('production', () => {
  it('refuses to start with a stored webhook endpoint on plain http, naming it and the fix', async () => {
    const production: Partial<StartOptions> = {
      mode: 'production',
      publicUrl: 'https://auth.shop.example',
      smtp: { host: '127.0.0.1' },
      sms: new CommandSmsSender('/bin/true'),
      keyEncryptionSecret: KEY_ENCRYPTION_SECRET,
    };
    const empty = await startTestServer({ api: production });
    const dir = empty.dir;
    cleanups.push(() => dropTestDatabase(dir));
    await empty.stop(true);
    const env = { ...databaseEnv(dir), KEY_ENCRYPTION_SECRET };
    const { id } = (await runAdmin(['projects', 'create', writeJson({ appName: 'Shop', allowedOrigins: ['https://shop.example'] })], env)) as { id: string };
    // registered by a development run of the command on the production database
    const endpoint = (await runAdmin(['webhooks', 'add', id, 'http://127.0.0.1:9/hook'], env)) as AddedEndpoint;
    await expect(startTestServer({ dir, api: production })).rejects.toThrow(
      new RegExp(`webhook endpoint ${endpoint.id} of project ${id}: production sends webhooks over https only.*npm run admin -- webhooks remove ${endpoint.id}`),
    );
    await runAdmin(['webhooks', 'remove', endpoint.id], env);
    // a name that does not resolve (yet) is checked at each attempt
    await runAdmin(['webhooks', 'add', id, 'https://hooks.shop.example/corbado'], { ...env, CORBADO_ENV: 'production' });
    const started = await startTestServer({ dir, api: production });
    await started.stop(true);
  });
});

describe('delivery from a production server', () => {
  it('an endpoint whose name rebinds to this machine after the check hears nothing: the attempt fails, the next is refused', async () => {
    const listener = await connectionCounter();
    const rebinding = rebindingResolver(600);
    const outcomes: DeliveryEvent<string>[] = [];
    const production = await startProductionServer('https://auth.shop.example', {
      webhookResolver: rebinding.resolve,
      webhooks: { sendTimeoutMs: 200, pollMs: 50, retryBaseMs: 1_000, retryMaxMs: 1_000 },
      onWebhookDelivery: (event) => outcomes.push(event),
    });
    cleanups.push(() => production.stop());
    // registered by the admin command: "localhost" resolves to this machine, allowed outside production
    const env = { ...databaseEnv(production.server.dir), KEY_ENCRYPTION_SECRET };
    await runAdmin(['webhooks', 'add', production.projectId, `https://localhost:${listener.port}/hook`, '--events', 'user.created'], env);

    const client = new Client(production.server.url, production.projectId, SHOP);
    await client.init({}, 'signup-init');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail('hook') }], fullName: 'Rebecca Rebind' });
    const done = await client.step('/v2/auth/identifier/verify/finish', { code: await production.code(1), identifierType: 'email', verificationType: 'email-otp' });
    expect(done.block).toBe('completed');

    // the first attempt: the answer (public) came after the attempt's time, so it connected nowhere
    await vi.waitFor(() => expect(outcomes.map((o) => o.outcome)).toEqual(['retry']), { timeout: 5_000 });
    await sleep(800);
    expect(rebinding.calls()).toBe(1);
    expect(listener.connections()).toBe(0);
    // the retry (the test's clock moved past its backoff): the name now resolves to this machine, and
    // production gives the event up without connecting
    production.server.clock.advance(2_000);
    await vi.waitFor(() => expect(outcomes.map((o) => o.outcome)).toEqual(['retry', 'failed']), { timeout: 5_000 });
    expect(rebinding.calls()).toBe(2);
    expect(listener.connections()).toBe(0);
  });
});

function writeJson(value: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'fapi-admin-')), 'project.json');
  writeFileSync(file, JSON.stringify(value));
  return file;
}
