/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Production mode: refuses to start without its settings, has no /_dev endpoints, simulator, seeds or
// outbox, delivers over SMTP and the SMS webhook, keeps its keys encrypted, sends security headers and
// logs no code or token. Projects come from the admin command.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminErrorMessage, runAdmin } from '../admin.ts';
import { CommandSmsSender, WebhookSmsSender } from '../senders/SmsSender.ts';
import { isProduction, startOptionsFromEnv } from '../settings.ts';
import { startSmtpSink, waitForMessages, type SmtpSink } from './helpers/smtpSink.ts';
import { Client, databaseEnv, dropTestDatabase, postProject, startTestServer, uniqueEmail, uniquePhone, type TestServer } from './helpers/testServer.ts';

const SHOP = 'https://shop.example';
const SECRET = 'a-key-encryption-secret-of-forty-characters';
const WEBHOOK_TOKEN = 'sms-gateway-token';

interface Webhook {
  url: string;
  received: { body: any; authorization: string | undefined }[];
  failNext: boolean;
  close(): void;
}

async function startWebhook(): Promise<Webhook> {
  const hook: Webhook = { url: '', received: [], failNext: false, close: () => server.close() };
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => resolve(body));
    });
  const server: Server = createServer(async (request, response) => {
    const body = JSON.parse(await read(request)) as unknown;
    if (hook.failNext) {
      hook.failNext = false;
      response.writeHead(502).end();
      return;
    }
    hook.received.push({ body, authorization: request.headers.authorization });
    response.writeHead(202).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hook.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/sms`;
  return hook;
}

function configFile(config: object): string {
  const file = join(mkdtempSync(join(tmpdir(), 'fapi-admin-')), 'project.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

describe('settings', () => {
  it('production is chosen by CORBADO_ENV=production or --production', () => {
    expect(isProduction({}, [])).toBe(false);
    expect(isProduction({ CORBADO_ENV: 'production' }, [])).toBe(true);
    expect(isProduction({}, ['--production'])).toBe(true);
    const options = startOptionsFromEnv(
      { CORBADO_ENV: 'production', DATABASE_URL: 'postgres://db/x', SMS_WEBHOOK_URL: 'https://sms.example/send', TRUSTED_PROXIES: '1' },
      [],
    );
    expect(options).toMatchObject({ mode: 'production', database: 'postgres://db/x', trustedProxies: 1 });
    expect(options.sms?.description).toBe('webhook https://sms.example/send');
    expect(() => startOptionsFromEnv({ TRUSTED_PROXIES: 'many' }, [])).toThrow(/TRUSTED_PROXIES/);
  });

  it('reads the bounds on database waits, refusing 0 ("for ever") and anything not a number of milliseconds', () => {
    expect(startOptionsFromEnv({}, []).databaseTimeouts).toEqual({});
    expect(
      startOptionsFromEnv({ DATABASE_CONNECT_TIMEOUT_MS: '1500', DATABASE_LOCK_TIMEOUT_MS: '2000', DATABASE_BUSY_TIMEOUT_MS: '250' }, []).databaseTimeouts,
    ).toEqual({ connectMs: 1500, lockMs: 2000, busyMs: 250 });
    for (const bad of ['0', '-1', '1.5', 'soon', '600001']) {
      expect(() => startOptionsFromEnv({ DATABASE_STATEMENT_TIMEOUT_MS: bad }, [])).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS must be/);
    }
  });

  it('refuses to start without what production needs, naming every missing setting', async () => {
    const attempt = startTestServer({ api: { mode: 'production' } });
    await expect(attempt).rejects.toThrow(/PUBLIC_URL.*SMTP_URL or SMTP_HOST.*SMS_WEBHOOK_URL or SMS_COMMAND.*KEY_ENCRYPTION_SECRET/);
  });

  it('refuses a key-encryption secret shorter than 32 characters', async () => {
    const attempt = startTestServer({
      api: { mode: 'production', publicUrl: 'https://api.example', smtp: { host: '127.0.0.1' }, sms: new CommandSmsSender('/bin/true'), keyEncryptionSecret: 'short' },
    });
    await expect(attempt).rejects.toThrow(/at least 32 characters/);
  });
});

describe('a production server', () => {
  let smtp: SmtpSink;
  let webhook: Webhook;
  let server: TestServer;
  let projectId: string;
  let phoneProjectId: string;
  const logs: string[] = [];
  const logger = { info: (m: string) => logs.push(m), error: (m: string, e?: unknown) => logs.push(`${m} ${String(e)}`) };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    webhook = await startWebhook();
    server = await startTestServer({
      logger,
      api: {
        mode: 'production',
        publicUrl: 'https://api.example',
        smtp: { host: '127.0.0.1', port: smtp.port, from: 'Shop <no-reply@shop.example>' },
        sms: new WebhookSmsSender(webhook.url, WEBHOOK_TOKEN),
        keyEncryptionSecret: SECRET,
      },
    });
    const env = databaseEnv(server.dir);
    projectId = ((await runAdmin(['projects', 'create', configFile({ appName: 'Shop', allowedOrigins: [SHOP] })], env)) as { id: string }).id;
    phoneProjectId = (
      (await runAdmin(['projects', 'create', configFile({ appName: 'Shop', allowedOrigins: [SHOP], identifiers: { phone: {} }, passkeys: false })], env)) as {
        id: string;
      }
    ).id;
  });
  afterAll(async () => {
    await server.stop();
    smtp.close();
    webhook.close();
  });

  it('has no dev endpoints, no OAuth simulator and no seeded projects', async () => {
    for (const path of ['/_dev/', '/_dev/?project=pro-1', '/_dev/messages?to=a@b.c', '/_dev/oauth/google/o/oauth2/v2/auth?client_id=x']) {
      const res = await fetch(server.url + path);
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).error.type).toBe('not_found');
    }
    expect((await postProject(server.url, {})).status).toBe(404);
    const seeded = await new Client(server.url, 'pro-1', SHOP).init();
    expect(seeded.status).toBe(404);
    expect(seeded.body.error.type).toBe('project_not_found');
  });

  it('takes projects from the admin command, which refuses incomplete ones', async () => {
    const env = databaseEnv(server.dir);
    const listed = (await runAdmin(['projects', 'list'], env)) as any[];
    expect(listed.map((p) => p.id)).toEqual([projectId, phoneProjectId]);
    expect(listed[0]).toMatchObject({ appName: 'Shop', allowedOrigins: [SHOP], source: 'created' });
    const shown = (await runAdmin(['projects', 'show', projectId], env)) as any;
    expect(shown).toMatchObject({ id: projectId, emailLinkUrl: `${SHOP}/`, limits: { emailSendsPerIdentifier: { max: 5 } } });

    const missing = await runAdmin(['projects', 'create', configFile({ appName: 'No origins' })], env).catch((e: unknown) => adminErrorMessage(e));
    expect(missing).toMatch(/allowedOrigins: is required/);
    const placeholder = await runAdmin(['projects', 'create', configFile({ allowedOrigins: ['${DEMO_ORIGIN}'] })], env).catch((e: unknown) => adminErrorMessage(e));
    expect(placeholder).toMatch(/allowedOrigins\[0\]: must be an origin/);
    const usage = await runAdmin(['projects', 'drop'], env).catch((e: unknown) => adminErrorMessage(e));
    expect(usage).toMatch(/^usage: admin projects list/);

    const updated = (await runAdmin(['projects', 'update', projectId, configFile({ appName: 'Shop', allowedOrigins: [SHOP, 'https://www.shop.example'] })], env)) as any;
    expect(updated.allowedOrigins).toEqual([SHOP, 'https://www.shop.example']);
    expect((await new Client(server.url, projectId, 'https://www.shop.example').request('GET', '/v2/session-config')).status).toBe(200);
  });

  it('signs up by e-mail code over SMTP, keeps no message, and logs no code or token', async () => {
    const client = new Client(server.url, projectId, SHOP);
    const init = await client.init({ isUserVerifyingPlatformAuthenticatorAvailable: false }, 'signup-init');
    expect(init.body.processResponse.common.frontendApiUrl).toBe('https://api.example');
    const email = uniqueEmail('prod');
    const before = smtp.received.length;
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    const mail = (await waitForMessages(smtp, before + 1)).at(-1)!;
    expect(mail).toContain(`To: ${email}`);
    const code = /code for Shop is: (\d{6})/.exec(mail)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const done = await client.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false });
    expect(done.block).toBe('completed');
    expect(done.data.longSession).toBeUndefined(); // a production project hands the long session only as a cookie
    expect(await server.api.store.db.all('SELECT * FROM outbox_messages')).toEqual([]);
    const logged = logs.join('\n');
    for (const secret of [code!, client.processToken!, done.data.shortSession]) expect(logged).not.toContain(secret);
  });

  it('sends SMS through the webhook; a failing gateway is logged without the message', async () => {
    const client = new Client(server.url, phoneProjectId, SHOP);
    await client.init({}, 'signup-init');
    const phone = uniquePhone();
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: phone }] });
    await vi.waitFor(() => expect(webhook.received).toHaveLength(1), { timeout: 2_000 });
    expect(webhook.received[0]).toMatchObject({
      authorization: `Bearer ${WEBHOOK_TOKEN}`,
      body: { to: phone, projectId: phoneProjectId, text: expect.stringMatching(/^\d{6} is your Shop code/) },
    });

    webhook.failNext = true;
    server.clock.advance(31_000);
    const failedCode = await client.request('POST', '/v2/auth/identifier/verify/start', { identifierType: 'phone', verificationType: 'phone-otp' });
    expect(failedCode.status).toBe(200); // the visitor can ask again; the operator sees the failure
    const failure = await vi.waitFor(() => {
      const logged = logs.find((l) => l.includes('Delivery of the SMS'));
      expect(logged).toBeDefined();
      return logged!;
    }, { timeout: 2_000 });
    expect(failure).toContain('502');
    expect(failure).not.toMatch(/\d{6} is your/);
    expect(failure).not.toContain(phone); // the number only masked: its last four digits
    expect(failure).toContain(`…${phone.slice(-4)}`);
  });

  it('answers with security headers', async () => {
    const res = await new Client(server.url, projectId, SHOP).request('GET', '/v2/session-config');
    expect(res.status).toBe(200);
    expect(Object.fromEntries(['content-security-policy', 'strict-transport-security', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cache-control'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
  });

  it('keeps its signing key and secrets encrypted; a restart needs the same secret', async () => {
    const keys = await server.api.store.db.all<{ private_key_pem: string }>('SELECT private_key_pem FROM signing_keys');
    const secrets = await server.api.store.db.all<{ value: string }>('SELECT value FROM server_secrets');
    expect(keys.length).toBe(1);
    expect([...keys.map((k) => k.private_key_pem), ...secrets.map((s) => s.value)].every((v) => v.startsWith('enc:v1:'))).toBe(true);
    const wrong = startTestServer({
      dir: server.dir,
      api: { mode: 'production', publicUrl: 'https://api.example', smtp: { host: '127.0.0.1' }, sms: new CommandSmsSender('/bin/true'), keyEncryptionSecret: `${SECRET}-other` },
    });
    await expect(wrong).rejects.toThrow(/not the one it was stored with/);
  });
});

describe('a development database taken to production', () => {
  it('has its keys sealed at the first start with a secret; tokens signed before still verify', async () => {
    const dev = await startTestServer();
    const jwks = await (await fetch(`${dev.url}/projects/pro-1/.well-known/jwks.json`)).text();
    await dev.stop(true);
    const sealed = await startTestServer({ dir: dev.dir, api: { keyEncryptionSecret: SECRET } });
    try {
      expect(await (await fetch(`${sealed.url}/projects/pro-1/.well-known/jwks.json`)).text()).toBe(jwks);
      const stored = await sealed.api.store.db.all<{ private_key_pem: string }>('SELECT private_key_pem FROM signing_keys');
      expect(stored[0]!.private_key_pem.startsWith('enc:v1:')).toBe(true);
    } finally {
      await sealed.stop(true);
    }
    await expect(startTestServer({ dir: dev.dir })).rejects.toThrow(/KEY_ENCRYPTION_SECRET is needed/);
    await dropTestDatabase(dev.dir);
  });
});

describe('the SMS command', () => {
  it('runs a program with the message in its environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fapi-sms-'));
    const script = join(dir, 'send-sms.sh');
    writeFileSync(script, `#!/bin/sh\nprintf '%s|%s|%s' "$SMS_TO" "$SMS_TEXT" "$SMS_PROJECT_ID" > "${join(dir, 'sent.txt')}"\n`);
    chmodSync(script, 0o755);
    await new CommandSmsSender(script).send({ to: '+4915112345678', text: '123456 is your code', projectId: 'pro-1000' });
    expect(readFileSync(join(dir, 'sent.txt'), 'utf8')).toBe('+4915112345678|123456 is your code|pro-1000');
    await expect(new CommandSmsSender(join(dir, 'missing.sh')).send({ to: '+1', text: 'x', projectId: 'pro-1' })).rejects.toThrow(/SMS command failed/);
  });
});
