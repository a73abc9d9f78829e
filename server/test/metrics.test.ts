// What operators get (README: "Metrics and request logs"): GET /metrics in Prometheus' text format,
// guarded by METRICS_ENABLED and a bearer token and never readable by a browser page, and one JSON log
// line per request that carries no code, token or address.
import BetterSqlite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sealPending } from '../audit/sealer.ts';
import { CommandSmsSender } from '../senders/SmsSender.ts';
import { startOptionsFromEnv } from '../settings.ts';
import type { Database } from '../store/Database.ts';
import { SCHEMA_VERSION } from '../store/migrations.ts';
import { START_BOUND_MS, startServerProcess } from './helpers/serverProcess.ts';
import { startSmtpSink, waitForMessages } from './helpers/smtpSink.ts';
import { Client, createProject, DEMO_ORIGIN, latestCode, POSTGRES_URL, serverForThisFile, startTestServer, uniqueEmail, uniquePhone } from './helpers/testServer.ts';

const WITHOUT_PASSKEYS = { isUserVerifyingPlatformAuthenticatorAvailable: false, isConditionalMediationAvailable: false };
const TOKEN = 'a-scrape-token-of-some-length';

/** The samples of one metric in an exposition text: labels and value per line. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const found = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    found.push({ labels, value: Number(match[3]) });
  }
  return found;
}

/** The value of the one sample of `name` with these labels (undefined when there is none). */
function value(text: string, name: string, labels: Record<string, string>): number | undefined {
  const matching = samples(text, name).filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  expect(matching.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return matching[0]?.value;
}

/** Takes a connection of the store (SQLite: its turn) in a transaction until the answer is called. */
async function holdConnection(db: Database): Promise<() => Promise<void>> {
  let release!: () => void;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const held = db.transaction(async () => {
    await db.get('SELECT 1 AS one');
    started();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await running;
  return async () => {
    release();
    await held;
  };
}

async function scrape(url: string, token = TOKEN): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

describe('GET /metrics', () => {
  const lines: string[] = [];
  const server = serverForThisFile({
    api: { metricsEnabled: true, metricsToken: TOKEN, logRequests: true, trustedProxies: 1 },
    logger: { info: (line) => lines.push(line), error: () => {} },
  });

  it('counts a request by its route pattern, method and status, with its latency', async () => {
    const jwks = await fetch(`${server.url}/projects/pro-1/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    const missing = await fetch(`${server.url}/no/such/route/usr-12345`);
    expect(missing.status).toBe(404);
    const preflight = await fetch(`${server.url}/v2/auth/process/init`, { method: 'OPTIONS', headers: { Origin: DEMO_ORIGIN, 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.status).toBe(204);
    const text = await scrape(server.url);
    const jwksLabels = { method: 'GET', route: '/projects/:projectId/.well-known/jwks.json', status: '200' };
    expect(value(text, 'fapi_http_requests_total', jwksLabels)).toBe(1);
    expect(value(text, 'fapi_http_request_duration_seconds_count', jwksLabels)).toBe(1);
    expect(value(text, 'fapi_http_request_duration_seconds_bucket', { ...jwksLabels, le: '+Inf' })).toBe(1);
    expect(value(text, 'fapi_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(value(text, 'fapi_http_requests_total', { method: 'OPTIONS', route: 'preflight', status: '204' })).toBe(1);
    // no raw path (ids, scanners' guesses) becomes a label; the scrapes count themselves nowhere
    expect(text).not.toContain('pro-1/.well-known');
    expect(text).not.toContain('usr-12345');
    expect(samples(text, 'fapi_http_requests_total').some((s) => s.labels.route === '/metrics')).toBe(false);
    // the process' own figures come along
    expect(samples(text, 'fapi_process_resident_memory_bytes')).toHaveLength(1);
  });

  it('counts a 429 as a refusal of the limit that refused it', async () => {
    const id = await createProject(server.url, { limits: { processInitsPerIp: { max: 1, windowSeconds: 60 } } });
    const tab = () => new Client(server.url, id);
    const headers = { 'X-Forwarded-For': '203.0.113.41' };
    const init = (client: Client) => client.request('POST', '/v2/auth/process/init', { clientInformation: WITHOUT_PASSKEYS }, headers);
    const before = await scrape(server.url);
    expect(value(before, 'fapi_rate_limit_refusals_total', { limit: 'processInitsPerIp' })).toBe(0);
    expect((await init(tab())).status).toBe(200);
    expect((await init(tab())).status).toBe(429);
    const text = await scrape(server.url);
    expect(value(text, 'fapi_rate_limit_refusals_total', { limit: 'processInitsPerIp' })).toBe(1);
    expect(value(text, 'fapi_rate_limit_refusals_total', { limit: 'emailSendsPerIdentifier' })).toBe(0);
    expect(value(text, 'fapi_http_requests_total', { method: 'POST', route: '/v2/auth/process/init', status: '429' })).toBe(1);
  });

  it('writes one JSON line per request, without code, address, token or session', async () => {
    const client = new Client(server.url, 'pro-1');
    expect((await client.init(WITHOUT_PASSKEYS, 'signup-init')).status).toBe(200);
    const email = uniqueEmail('log.secret');
    const [local] = email.split('@');
    const first = lines.length;
    const verify = await client.step(`/v2/auth/signup/init?email=${encodeURIComponent(email)}`, {
      identifiers: [{ type: 'email', identifier: email }],
      fullName: 'Grace Hopper',
    });
    expect(verify.block).toBe('email-verify');
    const code = await latestCode(server.url, email);
    const completed = await client.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false });
    expect(completed.block).toBe('completed');
    expect((await client.request('GET', '/v2/me')).status).toBe(200);
    const logged = lines.slice(first);
    const entries = logged.map((line) => JSON.parse(line) as Record<string, unknown>);
    const signup = entries.find((e) => e.route === '/v2/auth/signup/init');
    expect(signup).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      requestId: expect.stringMatching(/^req-/),
      method: 'POST',
      route: '/v2/auth/signup/init',
      status: 200,
      durationMs: expect.any(Number),
      projectId: 'pro-1',
    });
    expect(entries.map((e) => `${e.method} ${e.route} ${e.status}`)).toEqual([
      'POST /v2/auth/signup/init 200',
      'GET /_dev/messages 200',
      'POST /v2/auth/identifier/verify/finish 200',
      'GET /v2/me 200',
    ]);
    const all = logged.join('\n');
    for (const secret of [code, email, local!, client.processToken!, client.longSession!, completed.data.shortSession as string]) {
      expect(all).not.toContain(secret);
    }
  });

  it('the request id of the log line is the one the error envelope names', async () => {
    const first = lines.length;
    // no process token: process_not_available
    const res = await new Client(server.url, 'pro-1').request('POST', '/v2/auth/signup/init', { identifiers: [] });
    expect(res.status).toBe(404);
    expect(res.body.requestData.requestID).toMatch(/^req-/);
    const [entry] = lines.slice(first).map((line) => JSON.parse(line));
    expect(entry).toMatchObject({ requestId: res.body.requestData.requestID, route: '/v2/auth/signup/init', status: 404, projectId: 'pro-1' });
  });

  it('logs neither the scrapes nor passing health probes, but a failing readiness check', async () => {
    const first = lines.length;
    await scrape(server.url);
    expect((await fetch(`${server.url}/health/alive`)).status).toBe(200);
    expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
    expect(lines.slice(first)).toEqual([]);
    const db = server.api.store.db;
    const newest = await db.get<{ version: number; name: string; applied_at: number }>('SELECT version, name, applied_at FROM schema_migrations WHERE version = ?', [SCHEMA_VERSION]);
    await db.run('DELETE FROM schema_migrations WHERE version = ?', [SCHEMA_VERSION]);
    try {
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(503);
    } finally {
      await db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [newest!.version, newest!.name, newest!.applied_at]);
    }
    expect(lines.slice(first).map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ method: 'GET', route: '/health/ready', status: 503, projectId: null })]);
  });

  it('refuses a scrape without the token or with another one, and never answers a browser', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('Bearer');
    expect(await wrong.text()).not.toContain('fapi_');
    // an origin every seed project allows: still no CORS header, and its preflight is refused
    const fromPage = await fetch(`${server.url}/metrics`, { headers: { Origin: DEMO_ORIGIN, Authorization: `Bearer ${TOKEN}` } });
    expect(fromPage.status).toBe(200);
    expect(fromPage.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${server.url}/metrics`, {
      method: 'OPTIONS',
      headers: { Origin: DEMO_ORIGIN, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('shows the pool in use and the calls waiting for it', async () => {
    // the trail's sealer chains what the tests above recorded now, not during the scrape (a pass holds a connection)
    await sealPending(server.api.store);
    const idle = await scrape(server.url);
    expect(value(idle, 'fapi_db_pool_in_use', { pool: 'main' })).toBe(0);
    expect(value(idle, 'fapi_db_pool_waiting', { pool: 'main' })).toBe(0);
    if (POSTGRES_URL) expect(value(idle, 'fapi_db_pool_in_use', { pool: 'side' })).toBe(0);
  });
});

describe('GET /metrics while the database is busy', () => {
  // one connection for requests on PostgreSQL too, so that a second call has to wait; short waits, but
  // the pool's long enough that a scrape on a loaded machine still sees the call waiting
  const server = serverForThisFile({ api: { metricsEnabled: true, databasePoolSize: 1, databaseTimeouts: { poolCheckoutMs: 3_000, busyMs: 300 } } });

  it('counts the connection held by a transaction and the call that waits for it', async () => {
    const db = server.api.store.db;
    // the trail's sealer chains what earlier tests recorded now, not as a second waiting call below
    await sealPending(server.api.store);
    const release = await holdConnection(db);
    // settled either way (a pool timeout must fail this test through the poll below, not as an unhandled rejection)
    const queued = db.get('SELECT 1 AS one').catch((error: unknown) => error);
    try {
      await expect.poll(async () => value(await scrape(server.url), 'fapi_db_pool_waiting', { pool: 'main' }), { timeout: 5_000 }).toBe(1);
      expect(value(await scrape(server.url), 'fapi_db_pool_in_use', { pool: 'main' })).toBe(1);
    } finally {
      await release();
      await queued;
    }
    const after = await scrape(server.url);
    expect(value(after, 'fapi_db_pool_waiting', { pool: 'main' })).toBe(0);
    expect(value(after, 'fapi_db_pool_in_use', { pool: 'main' })).toBe(0);
  });

  it('counts a 503 answered while the database cannot serve', async () => {
    const before = await scrape(server.url);
    expect(value(before, 'fapi_service_unavailable_total', {})).toBe(0);
    // PostgreSQL: the one connection is taken until the pool timeout; SQLite: another connection holds the file's write lock
    const holder = POSTGRES_URL ? undefined : new BetterSqlite(join(server.dir, 'db.sqlite'));
    holder?.exec('BEGIN IMMEDIATE');
    const release = POSTGRES_URL ? await holdConnection(server.api.store.db) : undefined;
    try {
      const res = await new Client(server.url, 'pro-1').init(WITHOUT_PASSKEYS);
      expect(res.status).toBe(503);
      expect(res.body.error.type).toBe('service_unavailable');
    } finally {
      await release?.();
      holder?.exec('ROLLBACK');
      holder?.close();
    }
    const text = await scrape(server.url);
    expect(value(text, 'fapi_service_unavailable_total', {})).toBe(1);
    expect(value(text, 'fapi_http_requests_total', { method: 'POST', route: '/v2/auth/process/init', status: '503' })).toBe(1);
  });
});

describe('a limit of the whole server', () => {
  const server = serverForThisFile({ api: { metricsEnabled: true, serverLimits: { emailSendsPerIdentifier: { max: 1, windowSeconds: 900 } } } });

  it('counts its refusal apart from the project limit of the same name', async () => {
    const email = uniqueEmail('server-limit');
    const signUp = async (projectId: string) => {
      const client = new Client(server.url, projectId);
      await client.init(WITHOUT_PASSKEYS, 'signup-init');
      return client.request('POST', '/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    };
    expect((await signUp(await createProject(server.url, {}))).status).toBe(200);
    expect((await signUp(await createProject(server.url, {}))).status).toBe(429);
    const text = await scrape(server.url);
    expect(value(text, 'fapi_rate_limit_refusals_total', { limit: 'server:emailSendsPerIdentifier' })).toBe(1);
    expect(value(text, 'fapi_rate_limit_refusals_total', { limit: 'emailSendsPerIdentifier' })).toBe(0);
  });
});

describe('deliveries', () => {
  it('counts an e-mail sent and an SMS that failed (to be retried)', async () => {
    const smtp = await startSmtpSink();
    const server = await startTestServer({
      // the failed SMS waits ten minutes for its second try: exactly one attempt within this test
      api: { metricsEnabled: true, smtp: { host: '127.0.0.1', port: smtp.port }, sms: new CommandSmsSender('/bin/false'), delivery: { retryBaseMs: 600_000 } },
    });
    try {
      const before = await scrape(server.url);
      for (const outcome of ['sent', 'retried', 'expired', 'failed']) {
        for (const channel of ['email', 'sms']) expect(value(before, 'fapi_deliveries_total', { outcome, channel })).toBe(0);
      }
      const mailer = new Client(server.url, 'pro-1');
      await mailer.init(WITHOUT_PASSKEYS, 'signup-init');
      await mailer.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail('delivered') }], fullName: 'Ada' });
      await waitForMessages(smtp, 1);
      const texter = new Client(server.url, 'pro-3');
      await texter.init(WITHOUT_PASSKEYS, 'signup-init');
      await texter.step('/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: uniquePhone() }] });
      await expect.poll(async () => value(await scrape(server.url), 'fapi_deliveries_total', { outcome: 'retried', channel: 'sms' }), { timeout: 5_000 }).toBe(1);
      await expect.poll(async () => value(await scrape(server.url), 'fapi_deliveries_total', { outcome: 'sent', channel: 'email' }), { timeout: 5_000 }).toBe(1);
      const text = await scrape(server.url);
      expect(value(text, 'fapi_deliveries_total', { outcome: 'retried', channel: 'email' })).toBe(0);
      expect(value(text, 'fapi_deliveries_total', { outcome: 'sent', channel: 'sms' })).toBe(0);
      expect(value(text, 'fapi_deliveries_total', { outcome: 'failed', channel: 'sms' })).toBe(0);
    } finally {
      await server.stop();
      smtp.close();
    }
  });
});

describe('settings', () => {
  it('is not served unless enabled, and logs no request in development by default', async () => {
    const lines: string[] = [];
    const server = await startTestServer({ logger: { info: (line) => lines.push(line), error: () => {} } });
    try {
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${server.url}/projects/pro-1/.well-known/jwks.json`)).status).toBe(200);
      expect(lines).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('come from LOG_REQUESTS, METRICS_ENABLED, METRICS_TOKEN, METRICS_PORT and METRICS_HOST', () => {
    expect(startOptionsFromEnv({}, [])).toMatchObject({ metricsEnabled: false });
    expect(startOptionsFromEnv({}, []).logRequests).toBeUndefined();
    expect(startOptionsFromEnv({ LOG_REQUESTS: 'off', METRICS_ENABLED: 'on', METRICS_TOKEN: TOKEN }, [])).toMatchObject({
      logRequests: false,
      metricsEnabled: true,
      metricsToken: TOKEN,
    });
    expect(startOptionsFromEnv({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }, [])).toMatchObject({ metricsPort: 9464, metricsHost: '10.0.0.5' });
    expect(() => startOptionsFromEnv({ METRICS_ENABLED: 'yes please' }, [])).toThrow(/METRICS_ENABLED must be on or off/);
    expect(() => startOptionsFromEnv({ METRICS_PORT: '70000' }, [])).toThrow(/METRICS_PORT must be a port number/);
  });

  it('METRICS_PORT: served there only, without a token if none is set; production needs a token on the API port only', async () => {
    const production = {
      mode: 'production' as const,
      publicUrl: 'https://api.example',
      smtp: { host: '127.0.0.1' },
      sms: new CommandSmsSender('/bin/true'),
      keyEncryptionSecret: 'a-secret-of-at-least-thirty-two-characters',
      metricsEnabled: true,
    };
    await expect(startTestServer({ api: production })).rejects.toThrow(/METRICS_TOKEN with METRICS_ENABLED/);
    await expect(startTestServer({ api: { ...production, metricsToken: 'short' } })).rejects.toThrow(/METRICS_TOKEN must have 16\+/);
    const server = await startTestServer({ api: { ...production, metricsPort: 0, metricsHost: '127.0.0.1' } });
    try {
      const { metricsUrl } = server.api;
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(metricsUrl).not.toBe(server.url);
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${metricsUrl}/health/alive`)).status).toBe(404);
      expect((await fetch(`${server.url}/health/alive`)).status).toBe(200);
      const res = await fetch(`${metricsUrl}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(value(text, 'fapi_http_requests_total', { method: 'GET', route: '/metrics', status: '404' })).toBeUndefined();
      expect(value(text, 'fapi_http_requests_total', { method: 'GET', route: '/health/alive', status: '200' })).toBe(1);
    } finally {
      await server.stop();
    }
  });

  // starts main.ts in a process of its own (tsx compiles the server first): the start's bound and more
  it('main.ts: the request lines go to standard output as JSON, /metrics answers when METRICS_ENABLED is on', { timeout: START_BOUND_MS + 20_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fapi-metrics-'));
    const api = await startServerProcess({ DATABASE_PATH: join(dir, 'db.sqlite'), LOG_REQUESTS: 'on', METRICS_ENABLED: 'on', METRICS_TOKEN: TOKEN });
    try {
      await expect.poll(() => api.output(), { timeout: 5_000 }).toContain(`Metrics at ${api.url}/metrics (bearer token required)`);
      const jwks = await fetch(`${api.url}/projects/pro-2/.well-known/jwks.json`);
      expect(jwks.status).toBe(200);
      const text = await scrape(api.url);
      expect(value(text, 'fapi_http_requests_total', { method: 'GET', route: '/projects/:projectId/.well-known/jwks.json', status: '200' })).toBe(1);
      await expect
        .poll(() => api.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line)), { timeout: 5_000 })
        .toEqual([expect.objectContaining({ method: 'GET', route: '/projects/:projectId/.well-known/jwks.json', status: 200 })]);
    } finally {
      await api.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
