/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Durable delivery of codes and links (issue 17): a code asked for while the SMTP server is down
// arrives once it is back, still valid; an expired one is never sent; a message whose instance was
// killed after the commit is delivered by another; two instances on one PostgreSQL database never both
// send one message; and in production the waiting message is sealed in the table. Real SMTP (a local
// listener that can refuse or hang), a real database (a SQLite file, or PostgreSQL with
// TEST_DATABASE_URL), real HTTP, and for the kill a real server process ended with SIGKILL.
import BetterSqlite from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runAdmin } from '../../admin.ts';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from '../../senders/DeliveryWorker.ts';
import { CommandSmsSender } from '../../senders/SmsSender.ts';
import { startOptionsFromEnv } from '../../settings.ts';
import { Store } from '../../store/Store.ts';
import { START_BOUND_MS, startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';
import { startSmtpSink, waitForMessages, type SmtpSink } from '../helpers/smtpSink.ts';
import {
  Client,
  databaseEnv,
  dropTestDatabase,
  POSTGRES_URL,
  startTestServer,
  testDatabase,
  uniqueEmail,
  type TestClock,
  type TestServer,
} from '../helpers/testServer.ts';

/** Quick rounds for tests; the retry wait is on the servers' test clock, which the tests move on. */
const QUICK: Partial<DeliverySettings> = { pollMs: 50, retryBaseMs: 1_000, retryMaxMs: 4_000, sendTimeoutMs: 5_000 };
const CODE_LIFETIME_MS = 10 * 60_000;

interface DeliveryRow {
  id: string;
  status: string;
  attempts: number;
  payload: string | null;
  last_error: string | null;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sink(): Promise<SmtpSink> {
  const smtp = await startSmtpSink();
  cleanups.push(() => smtp.close());
  return smtp;
}

async function server(smtp: SmtpSink, options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const started = await startTestServer({ ...options, api: { smtp: { host: '127.0.0.1', port: smtp.port }, delivery: QUICK, ...options.api } });
  cleanups.push(() => started.stop());
  return started;
}

function deliveries(s: TestServer): Promise<DeliveryRow[]> {
  return s.api.store.db.all<DeliveryRow>('SELECT id, status, attempts, payload, last_error FROM deliveries');
}

/** Waits until the message's first attempt (at commit) has failed. */
async function firstAttemptFailed(s: TestServer, count = 1): Promise<DeliveryRow[]> {
  let rows: DeliveryRow[] = [];
  await vi.waitFor(
    async () => {
      rows = await deliveries(s);
      expect(rows).toHaveLength(count);
      for (const row of rows) expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringMatching(/421|greeting|closed/i) });
    },
    { timeout: 10_000, interval: 50 },
  );
  return rows;
}

async function signUp(client: Client, email: string): Promise<void> {
  await client.init({}, 'signup-init');
  const verify = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Ada Lovelace' });
  expect(verify.block).toBe('email-verify');
}

function codeOf(mail: string): string {
  const code = /^Subject: .*?(\d{6})\s*$/m.exec(mail)?.[1];
  if (!code) throw new Error(`no code in the mail:\n${mail}`);
  return code;
}

async function finish(client: Client, code: string): Promise<any> {
  return client.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false });
}

/**
 * Waits until the delivery worker of each server has looked for due messages `count` more times (to see
 * that something does not happen): counted, not timed, so that a loaded machine cannot make it none.
 */
async function rounds(count: number, ...servers: TestServer[]): Promise<void> {
  const looks = servers.map((s) => vi.spyOn(s.api.store.deliveries, 'anyDue'));
  try {
    await vi.waitFor(() => {
      for (const look of looks) expect(look.mock.calls.length).toBeGreaterThanOrEqual(count + 1); // the first may be under way
    }, { timeout: 30_000, interval: 10 });
  } finally {
    for (const look of looks) look.mockRestore();
  }
}

describe('delivery through an SMTP outage', () => {
  it('a code asked for while the SMTP server refuses arrives once it accepts again, still valid', async () => {
    const smtp = await sink();
    smtp.refuse = true;
    const outcomes: string[] = [];
    const api = await server(smtp, { api: { onDelivery: (event) => outcomes.push(`${event.channel} ${event.outcome} ${event.attempts}`) } });
    const client = new Client(api.url, 'pro-1');
    const email = uniqueEmail('outage');
    await signUp(client, email);
    await firstAttemptFailed(api);
    expect(smtp.received).toHaveLength(0);

    smtp.refuse = false;
    api.clock.advance(QUICK.retryMaxMs!); // the next attempt is due
    const [mail] = await waitForMessages(smtp, 1);
    expect(mail).toContain(`To: ${email}`);
    expect((await finish(client, codeOf(mail!))).block).toBe('completed');
    expect(await deliveries(api)).toEqual([]); // sent: the row and its text are gone
    expect(outcomes).toEqual(['email retry 1', 'email sent 2']);
  });

  it('an outage of 60 s with the shipped retry settings: the code arrives after it, still valid', async () => {
    const smtp = await sink();
    smtp.refuse = true;
    // the shipped backoff (DELIVERY_RETRY_BASE_MS, DELIVERY_RETRY_MAX_MS); only the poll is quick
    const api = await server(smtp, { api: { delivery: { ...DEFAULT_DELIVERY_SETTINGS, pollMs: QUICK.pollMs! } } });
    const client = new Client(api.url, 'pro-1');
    const email = uniqueEmail('outage-60s');
    await signUp(client, email);
    await firstAttemptFailed(api);
    // SMTP stays down for 60 s of the server's clock, moved on a second at a time: the attempts meanwhile fail
    for (let second = 0; second < 60; second++) {
      api.clock.advance(1_000);
      await rounds(1, api);
    }
    expect(smtp.received).toHaveLength(0);
    const [during] = await deliveries(api);
    expect(during!.attempts).toBeGreaterThan(1);
    smtp.refuse = false;
    // the next attempt comes within the capped wait, long before the code's ten minutes are up
    api.clock.advance(DEFAULT_DELIVERY_SETTINGS.retryMaxMs);
    const [mail] = await waitForMessages(smtp, 1);
    expect((await finish(client, codeOf(mail!))).block).toBe('completed');
  });

  it('never sends a message whose code expired meanwhile', async () => {
    const smtp = await sink();
    smtp.refuse = true;
    const outcomes: string[] = [];
    const api = await server(smtp, { api: { onDelivery: (event) => outcomes.push(event.outcome) } });
    await signUp(new Client(api.url, 'pro-1'), uniqueEmail('expired'));
    await firstAttemptFailed(api);

    api.clock.advance(CODE_LIFETIME_MS + 1_000);
    smtp.refuse = false;
    const connectionsBefore = smtp.connections;
    await vi.waitFor(async () => expect(await deliveries(api)).toMatchObject([{ status: 'expired', payload: null }]), { timeout: 10_000, interval: 50 });
    await rounds(10, api);
    expect(smtp.connections).toBe(connectionsBefore);
    expect(smtp.received).toHaveLength(0);
    expect(outcomes).toEqual(['retry', 'expired']);
  });
});

describe('one transaction', () => {
  it('keeps no code whose message could not be stored: sign-up, an added address, a re-authentication', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fapi-delivery-'));
    const file = join(dir, 'db.sqlite'); // a SQLite file whatever TEST_DATABASE_URL says: the fault is a SQLite trigger
    const smtp = await sink();
    const api = await server(smtp, { dir, api: { database: file } });
    const client = new Client(api.url, 'pro-1');
    await signUp(client, uniqueEmail('atomic'));
    const [mail] = await waitForMessages(smtp, 1);
    expect((await finish(client, codeOf(mail!))).block).toBe('completed');
    expect((await client.request('POST', '/v2/me/identifier', { identifierType: 'email', value: uniqueEmail('added') })).status).toBe(200);
    const identifiers = ((await client.request('GET', '/v2/me')).body as { identifiers: { id: string; status: string }[] }).identifiers;
    const added = identifiers.find((i) => i.status === 'pending')!.id;
    const primary = identifiers.find((i) => i.status === 'verified')!.id;

    const other = new BetterSqlite(file);
    cleanups.push(() => {
      if (other.open) other.close();
    });
    other.exec(`CREATE TRIGGER refuse_deliveries BEFORE INSERT ON deliveries BEGIN SELECT RAISE(ABORT, 'no room for the message'); END`);
    const count = (table: string) => (other.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const before = { signUp: count('verification_secrets'), added: count('identifier_secrets'), reauth: count('reauth_secrets') };

    const refused = new Client(api.url, 'pro-1');
    await refused.init({}, 'signup-init');
    const signUpAnswer = await refused.request('POST', '/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail('refused') }], fullName: 'R' });
    const addedAnswer = await client.request('POST', '/v2/me/identifier/verify/start', { identifierID: added, clientInformation: {} });
    const reauthAnswer = await client.request('POST', '/v2/me/reauth/code/start', { identifierID: primary });
    expect([signUpAnswer.status, addedAnswer.status, reauthAnswer.status]).toEqual([500, 500, 500]);
    expect({ signUp: count('verification_secrets'), added: count('identifier_secrets'), reauth: count('reauth_secrets') }).toEqual(before);

    other.exec('DROP TRIGGER refuse_deliveries');
    expect((await client.request('POST', '/v2/me/reauth/code/start', { identifierID: primary })).status).toBe(200);
    expect(count('reauth_secrets')).toBe(before.reauth + 1);
    await waitForMessages(smtp, 2);
  });
});

describe('a failing database', () => {
  it('does not stop the worker: one log line while SQLite is locked by another connection, then the message goes out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fapi-delivery-'));
    const file = join(dir, 'db.sqlite'); // a SQLite file whatever TEST_DATABASE_URL says: this is about its lock
    const smtp = await sink();
    smtp.refuse = true;
    const logs: string[] = [];
    const api = await server(smtp, {
      dir,
      logger: { info: (m) => logs.push(m), error: (m) => logs.push(m) },
      api: { database: file, databaseTimeouts: { busyMs: 200 } },
    });
    await signUp(new Client(api.url, 'pro-1'), uniqueEmail('locked'));
    await firstAttemptFailed(api);

    const holder = new BetterSqlite(file);
    cleanups.push(() => {
      if (holder.open) holder.close();
    });
    holder.exec('BEGIN IMMEDIATE'); // the write lock, as another process on the file would hold it
    smtp.refuse = false;
    api.clock.advance(QUICK.retryMaxMs!);
    await vi.waitFor(() => expect(logs).toContain('Deliveries: the database failed; trying again'), { timeout: 10_000, interval: 50 });
    await rounds(3, api); // several more failing rounds
    expect(logs.filter((line) => line.startsWith('Deliveries: the database failed'))).toHaveLength(1);
    expect(smtp.received).toHaveLength(0);
    expect((await fetch(`${api.url}/health/alive`)).status).toBe(200);

    holder.exec('ROLLBACK');
    holder.close();
    await waitForMessages(smtp, 1);
    await vi.waitFor(() => expect(logs).toContain('Deliveries: the database answers again'), { timeout: 10_000, interval: 50 }); // said once the round ends
  });
});

describe('shutdown', () => {
  it('SIGTERM while a send hangs: the process exits 0 within the send timeout; the message waits and goes out at the next start', { timeout: START_BOUND_MS + 60_000 }, async () => {
    const email = uniqueEmail('shutdown');
    const { dir, api } = await sendingToAHangingServer(2_000, email);

    await api.stop(); // SIGTERM, and SIGKILL after 5 s
    expect(api.exited()).toBe('0');
    const { database, databaseSchema } = testDatabase(dir);
    const store = await Store.open(database, databaseSchema ? { schema: databaseSchema } : {});
    try {
      expect(await store.db.all('SELECT status, attempts, claim FROM deliveries')).toEqual([{ status: 'pending', attempts: 1, claim: null }]);
    } finally {
      await store.close();
    }

    const smtp = await sink();
    const restarted = await server(smtp, { dir });
    restarted.clock.advance(DEFAULT_DELIVERY_SETTINGS.retryBaseMs); // the wait after the timed-out attempt
    const [mail] = await waitForMessages(smtp, 1);
    expect(mail).toContain(`To: ${email}`);
  });
});

describe('settings', () => {
  it('reads DELIVERY_* from the environment, refusing values out of range', () => {
    const env = { DELIVERY_BATCH_SIZE: '5', DELIVERY_SEND_TIMEOUT_MS: '3000', DELIVERY_POLL_MS: '250', DELIVERY_RETRY_BASE_MS: '500', DELIVERY_RETRY_MAX_MS: '8000' };
    expect(startOptionsFromEnv(env, []).delivery).toEqual({ batchSize: 5, sendTimeoutMs: 3000, pollMs: 250, retryBaseMs: 500, retryMaxMs: 8000 });
    expect(startOptionsFromEnv({}, []).delivery).toEqual({});
    for (const [name, value] of [
      ['DELIVERY_BATCH_SIZE', '0'],
      ['DELIVERY_SEND_TIMEOUT_MS', '999'],
      ['DELIVERY_POLL_MS', 'soon'],
      ['DELIVERY_RETRY_MAX_MS', '1.5'],
    ]) {
      expect(() => startOptionsFromEnv({ [name!]: value }, [])).toThrow(new RegExp(`${name} must be a whole number`));
    }
  });
});

describe('an instance killed after the commit', () => {
  it('leaves the message to another instance on the same database, which sends it once the lease runs out', { timeout: START_BOUND_MS + 90_000 }, async () => {
    const email = uniqueEmail('killed');
    const { dir, api: first, client } = await sendingToAHangingServer(120_000, email);
    await first.kill(); // in the middle of sending the message it claimed

    const smtp = await sink();
    const clock: TestClock = {
      now: Date.now(),
      advance(ms: number) {
        this.now += ms;
      },
    };
    const second = await server(smtp, { dir, clock });
    await rounds(10, second);
    expect(smtp.received).toHaveLength(0); // the dead instance's lease still holds

    clock.advance(5 * 60_000); // past the lease (send timeout + 30 s), well within the code's lifetime
    const [mail] = await waitForMessages(smtp, 1);
    expect(mail).toContain(`To: ${email}`);
    const onSecond = new Client(second.url, 'pro-1');
    onSecond.processToken = client.processToken;
    expect((await finish(onSecond, codeOf(mail!))).block).toBe('completed');
  });
});

describe.skipIf(!POSTGRES_URL)('two instances on one PostgreSQL database (PostgreSQL only: SQLite has one writer; run by npm run test:postgres)', () => {
  it('deliver every message once, however their workers race for it', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fapi-delivery-'));
    const clock: TestClock = {
      now: Date.now(),
      advance(ms: number) {
        this.now += ms;
      },
    };
    const smtp = await sink();
    smtp.refuse = true;
    const racing = { ...QUICK, pollMs: 10, batchSize: 2 };
    const a = await startTestServer({ dir, clock, api: { smtp: { host: '127.0.0.1', port: smtp.port }, delivery: racing } });
    const b = await startTestServer({ dir, clock, api: { smtp: { host: '127.0.0.1', port: smtp.port }, delivery: racing } });
    cleanups.push(async () => {
      await a.stop(true);
      await b.stop();
    });

    const emails = Array.from({ length: 10 }, (_, i) => uniqueEmail(`race${i}`));
    await Promise.all(emails.map((email, i) => signUp(new Client(i % 2 ? a.url : b.url, 'pro-1'), email)));
    await firstAttemptFailed(a, emails.length);

    smtp.refuse = false;
    clock.advance(QUICK.retryMaxMs!); // all due at once, on both instances
    await waitForMessages(smtp, emails.length);
    await vi.waitFor(async () => expect(await deliveries(a)).toEqual([]), { timeout: 10_000, interval: 50 });
    await rounds(20, a, b);
    const recipients = smtp.received.map((mail) => /^To: (.*)$/m.exec(mail)?.[1]).sort();
    expect(recipients).toEqual([...emails].sort());
  });
});

describe('a production server', () => {
  it('keeps the waiting message sealed: neither the address nor the code can be read in the table', async () => {
    const smtp = await sink();
    smtp.refuse = true;
    const secret = 'a-key-encryption-secret-of-forty-characters';
    const api = await server(smtp, {
      api: { mode: 'production', publicUrl: 'https://api.example', sms: new CommandSmsSender('/bin/true'), keyEncryptionSecret: secret },
    });
    const origin = 'https://shop.example';
    const file = join(mkdtempSync(join(tmpdir(), 'fapi-admin-')), 'project.json');
    writeFileSync(file, JSON.stringify({ appName: 'Shop', allowedOrigins: [origin] }));
    const { id } = (await runAdmin(['projects', 'create', file], databaseEnv(api.dir))) as { id: string };

    const client = new Client(api.url, id, origin);
    const email = uniqueEmail('sealed');
    await signUp(client, email);
    const [waiting] = await firstAttemptFailed(api);
    expect(waiting!.payload).toMatch(/^enc:v1:/);
    const table = JSON.stringify(await api.api.store.db.all('SELECT * FROM deliveries'));
    expect(table).not.toContain(email.split('@')[0]);

    smtp.refuse = false;
    api.clock.advance(QUICK.retryMaxMs!);
    const [mail] = await waitForMessages(smtp, 1);
    const code = codeOf(mail!);
    expect(table).not.toContain(code);
    expect((await finish(client, code)).block).toBe('completed');
    expect(await deliveries(api)).toEqual([]);
  });
});

/**
 * A server process on a database of its own whose SMTP server accepts connections and never answers;
 * resolves once a sign-up to `email` has committed and the process is sending its code.
 */
async function sendingToAHangingServer(sendTimeoutMs: number, email: string): Promise<{ dir: string; api: ServerProcess; client: Client }> {
  const dir = mkdtempSync(join(tmpdir(), 'fapi-delivery-'));
  cleanups.push(() => dropTestDatabase(dir));
  await createSchema(dir);
  const hanging = await sink();
  hanging.hang = true;
  const api = await startServerProcess({
    ...(databaseEnv(dir) as Record<string, string>),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(hanging.port),
    DELIVERY_SEND_TIMEOUT_MS: String(sendTimeoutMs),
  });
  cleanups.push(() => api.stop());
  const client = new Client(api.url, 'pro-1');
  await signUp(client, email);
  await vi.waitFor(() => expect(hanging.connections).toBeGreaterThanOrEqual(1), { timeout: 20_000, interval: 50 });
  return { dir, api, client };
}

/** PostgreSQL: the schema main.ts finds through the search path must exist before it migrates. */
async function createSchema(dir: string): Promise<void> {
  const { databaseSchema } = testDatabase(dir);
  if (!POSTGRES_URL || !databaseSchema) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${databaseSchema}`);
  } finally {
    await client.end();
  }
}
