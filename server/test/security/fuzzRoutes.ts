// Attack class: hostile input on every route. A property-based fuzz (fast-check) sends arbitrary JSON
// and non-JSON bodies, headers (project id present, absent or garbage; authorization and cookies
// valid or garbage; any content type) and query strings over real HTTP to every route the app has
// (read from the Hono app itself, so a new route is fuzzed without anybody remembering to), and
// asserts: never a 5xx; every 4xx answers the error envelope; a refused request changes nothing in
// the database (every table's rows before and after, rate-limit counters aside).
//
// Bounded: a fixed number of requests per route (FUZZ_RUNS overrides it; each route must get all of
// them within its time limit, or fails) and a fixed seed (FUZZ_SEED overrides it); a failure prints the
// seed, the shrunk request and the command that replays it.
// FUZZ_STATS=1 prints the answers per route, to see how far the requests get into the flow.
//
// The routes are fuzzed in two files, each with a server of its own (fuzz.test.ts the even routes,
// fuzz-odd.test.ts the odd ones), so that two workers share the suite's longest file; each route keeps
// its seed. A file's hooks are made by `fuzzRoutes`, since the server project's files share modules.
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sealPending } from '../../audit/sealer.ts';
import { createApi } from '../../app.ts';
import { LONG_SESSION_COOKIE } from '../../session/Sessions.ts';
import { SoftAuthenticator } from '../helpers/softAuthenticator.ts';
import { Client, DEMO_ORIGIN, latestCode, PASSKEY_DEVICE, serverForThisFile, uniqueEmail, type TestServer } from '../helpers/testServer.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_240_613);
/**
 * Requests per route, every one of them sent: some 40 routes, each request with two database snapshots.
 * A route took 1 to 15 s on 2 loaded cores (PostgreSQL the slower) before the snapshots read only the
 * tables that changed; one that cannot take all of its requests within ROUTE_TIME_LIMIT_MS fails.
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 20);
const ROUTE_TIME_LIMIT_MS = 60_000;
/** Counters that count refused requests on purpose (a refusal may well count against a limit). */
const IGNORED_TABLES = new Set(['rate_limit_buckets', 'schema_migrations']);
/** The routes a browser, not a client, lands on (the provider's callback, the first-party start across sites): their refusals are an HTML page for the person. */
const BROWSER_PAGES = new Set(['GET /v2/auth/social/verify/callback', 'GET /v2/auth/social/verify/go']);

interface Route {
  method: string;
  path: string;
}

/** Every route of the API as the app registers it; /_dev (development tools) aside. */
async function apiRoutes(): Promise<Route[]> {
  const dir = mkdtempSync(join(tmpdir(), 'fapi-routes-'));
  const api = await createApi({ database: join(dir, 'db.sqlite'), logger: { info: () => {}, error: () => {} } });
  try {
    const seen = new Map<string, Route>();
    for (const { method, path } of api.app.routes) {
      if (method === 'ALL' || path.startsWith('/_dev')) continue; // middleware, development tools
      seen.set(`${method} ${path}`, { method, path });
    }
    return [...seen.values()];
  } finally {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ROUTES = await apiRoutes();

/** the server of the file that runs now (a worker runs its files one after the other) */
let server: TestServer;

// ---- what an attacker sends -------------------------------------------------------------------

/** Characters a header value may carry over HTTP (no NUL, CR or LF), some beyond ASCII. */
const headerChar = fc.oneof(
  fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)),
  fc.constant(' '),
);
const headerGarbage = fc.string({ unit: headerChar, maxLength: 80 });

/** Strings that mean something somewhere in the API, and strings that mean nothing. */
const meaningful = fc.constantFrom(
  'email', 'phone', 'username', 'email-otp', 'email-link', 'phone-otp', 'google', 'github', 'microsoft', 'signup', 'login',
  'signup-init', 'login-init', 'passkey-append', 'completed', '', ' ', '\u0000', 'a\u0000@example.com', '\u202e', '123456', '000000',
  'ada@example.com', '+4915112345678', 'https://evil.example/', 'javascript:alert(1)', 'pro-1', '__proto__', 'constructor', '{}', '[]', 'null',
);
const text = fc.oneof(meaningful, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));
const base64url = fc.base64String({ maxLength: 60 }).map((s) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
/** A WebAuthn response as a client serialises it, with garbage inside. */
const webauthnJson = fc
  .record(
    {
      id: base64url,
      rawId: base64url,
      type: fc.constantFrom('public-key', 'x'),
      response: fc.record(
        {
          clientDataJSON: fc.oneof(base64url, fc.json().map((j) => Buffer.from(j).toString('base64url'))),
          authenticatorData: base64url,
          signature: base64url,
          userHandle: base64url,
          attestationObject: base64url,
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  )
  .map((v) => JSON.stringify(v));
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: webauthnJson },
  { weight: 1, arbitrary: fc.array(fc.record({ type: text, identifier: text }, { requiredKeys: [] }), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.record({ isUserVerifyingPlatformAuthenticatorAvailable: fc.jsonValue(), clientEnvHandle: text }, { requiredKeys: [] }) },
);
/** Every key any route reads, so that bodies get past the first check now and then. */
const BODY_KEYS = [
  'clientInformation', 'passkeyAppendShown', 'optOutOfPasskeyAppendAfterHybrid', 'preferredBlock', 'identifiers', 'fullName',
  'signupFields', 'accepted', 'version', 'identifierValue', 'isPhone', 'identifierType', 'verificationType', 'code', 'isNewDevice', 'value', 'phone', 'username',
  'signedChallenge', 'eventType', 'challenge', 'providerType', 'redirectUrl', 'authType', 'identifierID', 'primary',
  'attestationResponse', 'rotate', 'process', 'token', 'socialAccountID', '__proto__',
];
/** Stand-ins for ids of the world built before each route's run (see World), replaced when sent. */
const IDENTIFIER_ID = '<<identifier-id>>';
const CREDENTIAL_ID = '<<credential-id>>';
const identifierId = fc.oneof(fc.constant(IDENTIFIER_ID), text);
const identifierType = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('email', 'phone', 'username') }, { weight: 1, arbitrary: text });
const verificationType = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('email-otp', 'email-link', 'phone-otp') }, { weight: 1, arbitrary: text });
const clientInformation = fc.record(
  { isUserVerifyingPlatformAuthenticatorAvailable: fc.boolean(), isConditionalMediationAvailable: fc.boolean(), clientEnvHandle: text, visitorId: text },
  { requiredKeys: [] },
);
const shape = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.record(model).map((o) => JSON.stringify(o));
/**
 * Bodies of the shape each route expects, with hostile values inside: these get past the schema to
 * the flow, the account code and the store.
 */
const SHAPES: Record<string, fc.Arbitrary<string>> = {
  'POST /v2/auth/process/init': shape({ clientInformation, preferredBlock: text, passkeyAppendShown: fc.double(), optOutOfPasskeyAppendAfterHybrid: fc.boolean() }),
  'POST /v2/auth/signup/init': shape({
    identifiers: fc.array(fc.record({ type: identifierType, identifier: text }), { maxLength: 3 }),
    fullName: text,
    signupFields: fc.array(fc.record({ id: fc.oneof(fc.constant('terms'), text), value: text, accepted: fc.boolean(), version: text }, { requiredKeys: ['id'] }), { maxLength: 3 }),
  }),
  'POST /v2/auth/login/init': shape({ identifierValue: text, isPhone: fc.boolean() }),
  'POST /v2/auth/identifier/verify/start': shape({ identifierType, verificationType }),
  'POST /v2/auth/identifier/verify/finish': shape({ code: text, identifierType, verificationType, isNewDevice: fc.boolean() }),
  'POST /v2/auth/identifier/update': shape({ identifierType, value: text }),
  'POST /v2/auth/phone/collect': shape({ phone: text }),
  'POST /v2/auth/username/collect': shape({ username: text }),
  'POST /v2/auth/events': shape({ eventType: text, challenge: text }),
  'POST /v2/auth/passkey/append/start': shape({ clientInformation }),
  'POST /v2/auth/passkey/append/finish': shape({ signedChallenge: webauthnJson }),
  'POST /v2/auth/passkey/login/finish': shape({ signedChallenge: webauthnJson }),
  'POST /v2/auth/passkey/mediation/finish': shape({ signedChallenge: webauthnJson }),
  ...Object.fromEntries(
    ['open', 'approve', 'decline', 'here'].map((step) => [`POST /v2/auth/email-link/${step}`, shape({ process: fc.oneof(text, fc.constant('pro-1234567890123456789')), token: fc.oneof(text, base64url) })]),
  ),
  'POST /v2/auth/social/verify/start': shape({
    providerType: fc.oneof(fc.constantFrom('google', 'microsoft', 'github'), text),
    redirectUrl: fc.oneof(fc.constantFrom(`${DEMO_ORIGIN}/`, 'https://evil.example/'), text),
    authType: fc.constantFrom('signup', 'login', 'x'),
  }),
  'PATCH /v2/me': shape({ fullName: text }),
  'POST /v2/me/identifier': shape({ identifierType, value: text }),
  'DELETE /v2/me/identifier': shape({ identifierID: identifierId }),
  'DELETE /v2/me/social-account': shape({ socialAccountID: text }),
  'PATCH /v2/me/identifier': shape({ identifierID: identifierId, identifierType, value: text, primary: fc.boolean() }),
  'POST /v2/me/identifier/verify/start': shape({ identifierID: identifierId, clientInformation }),
  'POST /v2/me/identifier/verify/finish': shape({ identifierID: identifierId, code: text }),
  'POST /v2/me/passkeys/append/start': shape({ clientInformation }),
  'POST /v2/me/passkeys/append/finish': shape({ attestationResponse: webauthnJson, clientInformation }),
  'POST /v2/me/refresh': shape({ rotate: fc.oneof(fc.boolean(), text) }),
};

const anyBody = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...BODY_KEYS), fc.string({ maxLength: 10 })), value, { maxKeys: 6 }).map((o) => JSON.stringify(o)) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
);
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1'),
  },
  { weight: 1, arbitrary: headerGarbage },
);
const QUERY_KEYS = ['preferredBlock', 'state', 'code', 'error', 'token', 'redirectUrl'];
const query = fc
  .tuple(
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 8 })), fc.oneof(meaningful, fc.string({ unit: 'grapheme', maxLength: 40 }))), { maxLength: 4 }),
    fc.constantFrom('', '%', '%zz', '%E0%A4%A', '&&=', '%00', '%C0%AF', '=&=', '?'),
  )
  .map(([pairs, raw]) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&') + raw);

/** Each header: the real thing (drawn from the world set up before), absent, or garbage. */
type Choice = 'valid' | 'absent' | 'garbage';
const choice = fc.constantFrom<Choice>('valid', 'valid', 'valid', 'valid', 'absent', 'garbage');

/** A request to `route`: its body of the route's shape half of the time where the route has one. */
function requestTo(name: string) {
  const shaped = SHAPES[name];
  return fc.record({
    ...requestParts,
    body: shaped ? fc.oneof({ weight: 1, arbitrary: anyBody }, { weight: 1, arbitrary: shaped }) : anyBody,
  });
}

const requestParts = {
  project: fc.oneof(
    { weight: 12, arbitrary: fc.constant('pro-1') }, // the world's user, session and most processes are pro-1's
    { weight: 3, arbitrary: fc.constant('pro-8') },
    { weight: 1, arbitrary: fc.constantFrom('pro-999999', 'pro-', 'PRO-1', ' pro-1 ', 'pro-1\t') },
    { weight: 1, arbitrary: headerGarbage },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ),
  process: fc.record({ use: choice, which: fc.nat(), garbage: headerGarbage }),
  authorization: fc.record({ use: choice, garbage: headerGarbage, scheme: fc.constantFrom('Bearer ', 'Bearer ', 'Bearer ', 'bearer ', 'Basic ', '') }),
  cookie: fc.record({ use: fc.constantFrom<Choice>('absent', 'absent', 'valid', 'garbage'), garbage: headerGarbage }),
  origin: fc.oneof(
    { weight: 12, arbitrary: fc.constant(DEMO_ORIGIN) },
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('https://evil.example', 'null', `${DEMO_ORIGIN}/`) },
    { weight: 1, arbitrary: headerGarbage },
  ),
  contentType,
  query,
  param: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent), fc.constantFrom(CREDENTIAL_ID, '%', '..', '%2e%2e', '%00')),
};
type FuzzRequest = ReturnType<typeof requestTo> extends fc.Arbitrary<infer T> ? T : never;

// ---- the world the requests land in ----------------------------------------------------------

/** Real tokens and ids for the requests that send the valid thing: processes in several states, a session. */
interface World {
  processes: string[];
  longSession: string;
  identifierIds: string[];
  credentialId: string;
}

let world: World;

/** A pro-1 user with a passkey and a second, unverified address; processes at several steps. */
async function buildWorld(): Promise<World> {
  const processes: string[] = [];
  const fresh = new Client(server.url, 'pro-1');
  await fresh.init(PASSKEY_DEVICE);
  processes.push(fresh.processToken!);

  const email = uniqueEmail('fuzz');
  const signUp = new Client(server.url, 'pro-1');
  await signUp.init(PASSKEY_DEVICE, 'signup-init');
  await signUp.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Fuzz Target' });
  const waiting = new Client(server.url, 'pro-1'); // a second process left waiting for a code
  await waiting.init({ isUserVerifyingPlatformAuthenticatorAvailable: false }, 'signup-init');
  await waiting.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail('fuzz-waiting') }], fullName: 'Waiting' });
  processes.push(waiting.processToken!);
  const code = await latestCode(server.url, email);
  await signUp.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false });
  const started = await signUp.step('/v2/auth/passkey/append/start', { clientInformation: {} });
  await signUp.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(started.data.challenge) });
  await signUp.step('/v2/auth/block/skip');
  processes.push(signUp.processToken!);
  await signUp.request('POST', '/v2/me/identifier', { identifierType: 'email', value: uniqueEmail('fuzz-second') });

  const login = new Client(server.url, 'pro-1');
  await login.init(PASSKEY_DEVICE, 'login-init');
  await login.step('/v2/auth/login/init', { identifierValue: email, isPhone: false });
  processes.push(login.processToken!);

  const laterVerify = new Client(server.url, 'pro-8');
  await laterVerify.init(PASSKEY_DEVICE, 'signup-init');
  processes.push(laterVerify.processToken!);

  const me = (await signUp.request('GET', '/v2/me')).body as { identifiers: { id: string }[] };
  const passkeys = (await signUp.request('GET', '/v2/me/passkeys')).body as { passkeys: { id: string }[] };
  return { processes, longSession: signUp.longSession!, identifierIds: me.identifiers.map((i) => i.id), credentialId: passkeys.passkeys[0]!.id };
}

/** The stand-ins replaced by the world's ids (the first identifier, or another by the request's pick). */
function withWorldIds(value: string, pick: number): string {
  return value
    .replaceAll(IDENTIFIER_ID, world.identifierIds[pick % world.identifierIds.length]!)
    .replaceAll(CREDENTIAL_ID, encodeURIComponent(world.credentialId));
}

function headersOf(r: FuzzRequest): Record<string, string> {
  const h: Record<string, string> = {};
  if (r.project !== undefined) h['X-Corbado-ProjectID'] = r.project;
  if (r.process.use === 'valid') h['X-Corbado-Process-ID'] = world.processes[r.process.which % world.processes.length]!;
  if (r.process.use === 'garbage') h['X-Corbado-Process-ID'] = r.process.garbage;
  if (r.authorization.use === 'valid') h.Authorization = `${r.authorization.scheme}${world.longSession}`;
  if (r.authorization.use === 'garbage') h.Authorization = `${r.authorization.scheme}${r.authorization.garbage}`;
  if (r.cookie.use === 'valid') h.Cookie = `${LONG_SESSION_COOKIE}=${world.longSession}`;
  if (r.cookie.use === 'garbage') h.Cookie = r.cookie.garbage;
  if (r.origin !== undefined) h.Origin = r.origin;
  if (r.contentType !== undefined) h['Content-Type'] = r.contentType;
  return h;
}

function urlOf(route: Route, r: FuzzRequest): string {
  const path = route.path.replace(/:[A-Za-z]+/g, withWorldIds(r.param, r.process.which));
  return `${server.url}${path}${r.query ? `?${r.query}` : ''}`;
}

// ---- what must hold --------------------------------------------------------------------------

/** Every table's rows (sorted, as JSON), rate-limit counters aside. */
type Snapshot = Map<string, string[]>;

let tables: string[] = [];
/**
 * One statement that answers each table's content as a value the database computes: equal values, equal
 * rows (PostgreSQL: the md5 of the rows' text, sorted; SQLite: the sorted rows' quoted values themselves).
 * Two snapshots per request read every table: taking the rows into JavaScript each time was most of the
 * fuzz's time, growing with the tables (2 to 10 s per route on PostgreSQL, 20 requests), where only the
 * tables whose content changed need their rows read again.
 */
let contentStatement = '';
/** the rows last read per table, with the content value they were read at */
const rowsAt = new Map<string, { content: string; rows: string[] }>();

async function listTables(): Promise<string[]> {
  const db = server.api.store.db;
  const rows =
    db.dialect === 'sqlite'
      ? await db.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      : await db.all<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`);
  return rows.map((r) => r.name).filter((name) => !IGNORED_TABLES.has(name)).sort();
}

async function contentQuery(): Promise<string> {
  const db = server.api.store.db;
  const parts: string[] = [];
  for (const [i, table] of tables.entries()) {
    let content: string;
    if (db.dialect === 'sqlite') {
      const columns = await db.all<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, [table]);
      const row = columns.map((c) => `quote("${c.name}")`).join(` || ',' || `);
      content = `(SELECT coalesce(group_concat(r, char(10)), '') FROM (SELECT ${row} AS r FROM "${table}" ORDER BY r))`;
    } else {
      content = `(SELECT coalesce(md5(string_agg(x::text, E'\\n' ORDER BY x::text)), '') FROM "${table}" x)`;
    }
    parts.push(`SELECT ${i} AS i, ${content} AS content`);
  }
  return parts.join(' UNION ALL ');
}

async function snapshot(): Promise<Snapshot> {
  // what earlier requests recorded is chained now, not by the sealer between two snapshots
  await sealPending(server.api.store);
  const contents = await server.api.store.db.all<{ i: number; content: string }>(contentStatement);
  const result: Snapshot = new Map();
  for (const { i, content } of contents) {
    const table = tables[Number(i)]!;
    let known = rowsAt.get(table);
    if (known?.content !== content) {
      const rows = await server.api.store.db.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
      known = { content, rows: rows.map((row) => JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).sort() };
      rowsAt.set(table, known);
    }
    result.set(table, known.rows);
  }
  return result;
}

/** The rows a request added to or removed from each table, for the failure message. */
function differences(before: Snapshot, after: Snapshot): string[] {
  const found: string[] = [];
  for (const table of tables) {
    const was = new Set(before.get(table));
    const is = new Set(after.get(table));
    const added = [...is].filter((row) => !was.has(row));
    const removed = [...was].filter((row) => !is.has(row));
    if (added.length || removed.length) found.push(`${table}: +${JSON.stringify(added).slice(0, 600)} -${JSON.stringify(removed).slice(0, 600)}`);
  }
  return found;
}

async function send(route: Route, r: FuzzRequest): Promise<{ status: number; contentType: string; text: string }> {
  const withBody = route.method !== 'GET' && route.method !== 'HEAD' && r.body !== undefined;
  const res = await fetch(urlOf(route, r), { method: route.method, headers: headersOf(r), ...(withBody ? { body: typeof r.body === 'string' ? withWorldIds(r.body, r.process.which) : r.body } : {}) });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

function checkEnvelope(status: number, text: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`a ${status} without the JSON error envelope: ${text.slice(0, 200)}`);
  }
  expect(parsed).toMatchObject({
    httpStatusCode: status,
    message: expect.any(String),
    requestData: { requestID: expect.any(String), link: expect.any(String) },
    runtime: expect.any(Number),
    error: { type: expect.any(String), links: expect.any(Array) },
  });
}

const stats = new Map<string, Map<string, number>>();
function tally(name: string, status: number, text: string): void {
  const type = status >= 400 ? `${status} ${(/"type":"([^"]+)"/.exec(text) ?? [])[1] ?? ''}` : String(status);
  const route = stats.get(name) ?? new Map<string, number>();
  route.set(type, (route.get(type) ?? 0) + 1);
  stats.set(name, route);
}

/** Fuzzes the routes of one parity (0: even, 1: odd), as the test file `file` (named in the replay command). */
export function fuzzRoutes(parity: 0 | 1, file: string): void {
  const own = serverForThisFile();
  afterAll(() => {
    if (process.env.FUZZ_STATS) for (const [name, counts] of stats) console.info(name, JSON.stringify(Object.fromEntries(counts)));
    stats.clear();
  });

  describe('fuzzing every route', () => {
    beforeAll(async () => {
      server = own;
      tables = await listTables();
      contentStatement = await contentQuery();
      rowsAt.clear();
    });
    beforeEach(async () => {
      world = await buildWorld(); // afresh for each route: a logout or account deletion before does not starve it
    });

    if (parity === 0) it('reads the routes from the app: the auth process, /v2/me*, sessions, passkeys, social sign-in; no /_dev', () => {
      const names = ROUTES.map((r) => `${r.method} ${r.path}`);
      expect(names).toEqual(
        expect.arrayContaining([
          'POST /v2/auth/process/init',
          'GET /v2/auth/process',
          'POST /v2/auth/signup/init',
          'POST /v2/auth/login/init',
          'POST /v2/auth/identifier/verify/finish',
          'POST /v2/auth/passkey/append/finish',
          'POST /v2/auth/passkey/login/finish',
          'POST /v2/auth/passkey/mediation/finish',
          'POST /v2/auth/social/verify/start',
          'GET /v2/auth/social/verify/callback',
          'GET /v2/me',
          'PATCH /v2/me',
          'DELETE /v2/me',
          'POST /v2/me/identifier',
          'DELETE /v2/me/passkeys/:credentialID',
          'POST /v2/me/refresh',
          'POST /v2/me/logout',
          'GET /v2/me/sessions',
          'GET /v2/me/sessions/current',
          'DELETE /v2/me/sessions',
          'DELETE /v2/me/sessions/:sessionID',
          'GET /v2/session-config',
          'GET /.well-known/jwks',
          'GET /.well-known/jwks.json',
          'GET /.well-known/openid-configuration',
        ]),
      );
      expect(names.filter((n) => n.includes('/_dev'))).toEqual([]);
      expect(tables).toEqual(expect.arrayContaining(['users', 'identifiers', 'sessions', 'processes', 'credentials']));
    });

    const mine = ROUTES.map((r, index) => [`${r.method} ${r.path}`, r, index] as const).filter(([, , index]) => index % 2 === parity);
    it.each(mine)(`%s: ${RUNS_PER_ROUTE} requests, never a 5xx, a 4xx is an error envelope and changes nothing`, async (name, route, index) => {
      let sent = 0;
      const property = fc.asyncProperty(requestTo(name), async (r) => {
        const before = await snapshot();
        const res = await send(route, r);
        sent += 1;
        if (process.env.FUZZ_STATS) tally(name, res.status, res.text);
        expect(res.status, `${name} answered ${res.status}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status < 400) return;
        if (BROWSER_PAGES.has(name)) expect(res.contentType).toMatch(/^text\/html/);
        else checkEnvelope(res.status, res.text);
        const changed = differences(before, await snapshot());
        expect(changed, `${name} refused with ${res.status} but changed the database`).toEqual([]);
      });
      try {
        // each route its own seed (routes do not all get the same requests). The time limit bounds the
        // runs and the shrinking of a failure, so that the test reports rather than times out; running
        // out of time is a failure, not a pass on however many requests were sent by then
        await fc.assert(property, { numRuns: RUNS_PER_ROUTE, seed: SEED + index, verbose: 1, interruptAfterTimeLimit: ROUTE_TIME_LIMIT_MS, markInterruptAsFailure: true });
      } catch (error) {
        throw new Error(`${name} failed with FUZZ_SEED=${SEED}; replay: FUZZ_SEED=${SEED} npx vitest run server/test/security/${file} -t '${name}:'`, { cause: error });
      }
      expect(sent, `${name}: requests sent`).toBeGreaterThanOrEqual(RUNS_PER_ROUTE);
    }, ROUTE_TIME_LIMIT_MS + 20_000);
  });
}
