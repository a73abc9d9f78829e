/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Starts the real API on an ephemeral port with a throw-away database, and a small HTTP client that
// sends the headers the widget sends.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startApi, type RunningApi, type StartOptions } from '../../app.ts';
import type { Logger } from '../../senders/Messenger.ts';
import type { OutboxWireMessage } from '../../dev/outboxRoutes.ts';

export const DEMO_ORIGIN = 'http://localhost:5173';

/**
 * Where test servers keep their data: a SQLite file in the test's folder, or, with TEST_DATABASE_URL
 * set (scripts/test-postgres.ts), a PostgreSQL schema named after that folder, so that a restart on the
 * same folder finds the same data.
 */
export interface TestDatabase {
  database: string;
  databaseSchema?: string;
}

export const POSTGRES_URL = process.env.TEST_DATABASE_URL;

export function testDatabase(dir: string): TestDatabase {
  if (!POSTGRES_URL) return { database: join(dir, 'db.sqlite') };
  return { database: POSTGRES_URL, databaseSchema: `t_${createHash('sha256').update(dir).digest('hex').slice(0, 24)}` };
}

/**
 * The environment that points main.ts or the admin command at a test database: DATABASE_PATH, or
 * DATABASE_URL with the test's PostgreSQL schema as its search path.
 */
export function databaseEnv(dir: string): NodeJS.ProcessEnv {
  const { database, databaseSchema } = testDatabase(dir);
  if (!POSTGRES_URL) return { DATABASE_PATH: database };
  return { DATABASE_URL: `${database}?options=${encodeURIComponent(`-c search_path=${databaseSchema}`)}` };
}

/** Removes a test database (the folder's files, or the PostgreSQL schema). */
export async function dropTestDatabase(dir: string): Promise<void> {
  const { databaseSchema } = testDatabase(dir);
  if (POSTGRES_URL && databaseSchema) {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${databaseSchema} CASCADE`);
    } finally {
      await client.end();
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

export interface TestClock {
  now: number;
  advance(ms: number): void;
}

export interface TestServer {
  url: string;
  clock: TestClock;
  dir: string;
  api: RunningApi;
  /** stops the server; `keepFiles` leaves the database for a restart */
  stop(keepFiles?: boolean): Promise<void>;
}

const silentLogger: Logger = { info: () => {}, error: () => {} };

export async function startTestServer(
  options: { dir?: string; clock?: TestClock; logger?: Logger; api?: Partial<StartOptions> } = {},
): Promise<TestServer> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'fapi-test-'));
  const clock: TestClock = options.clock ?? {
    now: Date.now(),
    advance(ms: number) {
      this.now += ms;
    },
  };
  const api = await startApi({
    port: 0,
    host: '127.0.0.1',
    ...testDatabase(dir),
    demoOrigin: DEMO_ORIGIN,
    now: () => clock.now,
    logger: options.logger ?? silentLogger,
    ...options.api,
  });
  return {
    url: api.url,
    clock,
    dir,
    api,
    async stop(keepFiles = false) {
      await api.close();
      if (!keepFiles) await dropTestDatabase(dir);
    },
  };
}

/**
 * The server of one test file: started before its first test and stopped after its last. The object is
 * filled in by then, so tests read `server.url` as usual.
 */
export function serverForThisFile(options: Parameters<typeof startTestServer>[0] = {}): TestServer {
  const server = {} as TestServer;
  beforeAll(async () => {
    Object.assign(server, await startTestServer(options));
  });
  afterAll(async () => {
    await server.stop();
  });
  return server;
}

/** What a device with a platform authenticator and passkey autofill reports at process init. */
export const PASSKEY_DEVICE = { isUserVerifyingPlatformAuthenticatorAvailable: true, isConditionalMediationAvailable: true };

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface ClientInformation {
  isUserVerifyingPlatformAuthenticatorAvailable?: boolean;
  isConditionalMediationAvailable?: boolean;
}

/** One browser tab: a project, an origin, a process token once init ran, and optionally a long session. */
export class Client {
  processToken: string | undefined;
  longSession: string | undefined;

  constructor(
    readonly baseUrl: string,
    readonly projectId: string,
    readonly origin: string | undefined = DEMO_ORIGIN,
  ) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const h: Record<string, string> = {
      'X-Corbado-ProjectID': this.projectId,
      'X-Corbado-SDK': JSON.stringify({ name: 'web-core', sdkVersion: '0.0.0-test' }),
      'X-Corbado-Flags': '',
      'User-Agent':
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ...(this.origin ? { Origin: this.origin } : {}),
      ...(this.processToken ? { 'x-corbado-process-id': this.processToken } : {}),
      ...(this.longSession ? { Authorization: `Bearer ${this.longSession}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    };
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: h,
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  async init(client: ClientInformation = {}, preferredBlock?: string): Promise<ApiResponse> {
    const res = await this.request('POST', '/v2/auth/process/init', {
      clientInformation: client,
      ...(preferredBlock ? { preferredBlock } : {}),
    });
    if (res.status === 200) this.processToken = res.body.token;
    return res;
  }

  /** A POST that must answer a processResponse; returns its blockBody. */
  async step(path: string, body?: unknown): Promise<any> {
    const res = await this.request('POST', path, body);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    const completed = res.body.blockBody;
    if (completed.block === 'completed' && completed.data.longSession) this.longSession = completed.data.longSession;
    return completed;
  }

  async getStep(path: string): Promise<any> {
    const res = await this.request('GET', path);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.blockBody;
  }
}

export type OutboxEntry = OutboxWireMessage;

export async function outbox(baseUrl: string, to?: string): Promise<OutboxEntry[]> {
  const res = await fetch(`${baseUrl}/_dev/messages${to ? `?to=${encodeURIComponent(to)}` : ''}`);
  return (await res.json()) as OutboxEntry[];
}

export async function latestCode(baseUrl: string, to: string): Promise<string> {
  const [latest] = await outbox(baseUrl, to);
  if (!latest?.code) throw new Error(`no code sent to ${to}`);
  return latest.code;
}

export async function latestLink(baseUrl: string, to: string): Promise<URL> {
  const [latest] = await outbox(baseUrl, to);
  if (!latest?.link) throw new Error(`no link sent to ${to}`);
  return new URL(latest.link);
}

let counter = 0;
/** A unique e-mail address per call. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

export function uniqueUsername(prefix = 'user'): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${counter}`.slice(0, 32);
}

/** A valid German mobile number, unique per call. */
export function uniquePhone(): string {
  counter += 1;
  return `+49151${String(10_000_000 + ((Date.now() + counter * 7919) % 89_999_999)).slice(0, 8)}`;
}

/** Decodes a JWT payload without verifying it (what the client does). */
export function jwtPayload(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, any>;
}

/** Posts a partial configuration to the dev endpoint that creates projects; answers its response as is. */
export function postProject(baseUrl: string, config: Record<string, unknown>): Promise<Response> {
  return fetch(`${baseUrl}/_dev/projects`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(config),
  });
}

/** Creates a project on the dev endpoint from a partial configuration; answers its id. */
export async function createProject(baseUrl: string, config: Record<string, unknown>): Promise<string> {
  const res = await postProject(baseUrl, config);
  if (res.status !== 201) throw new Error(`creating a project answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** Enters the latest e-mail code sent to `email` on the client's verify block; answers the next block. */
export async function enterEmailCode(client: Client, email: string): Promise<any> {
  const code = await latestCode(client.baseUrl, email);
  return client.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false });
}
