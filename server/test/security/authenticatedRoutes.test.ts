/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Every authenticated route, both ways, read from the apps themselves (Hono's `routes`): the Frontend
// API's `/v2/me…` (the account page, the re-authentication) and every route of the Backend API. Each
// route has a row below, or the suite fails, so a new route cannot come without its proofs. Each row is
// called without a session (without an API secret): 401 with an error body, and the victim's data is
// unchanged. A row that takes an id (in the path or the body) is called again as another user (the
// Backend API: with another project's secret) with the victim's id: 403 or 404 (the Backend API answers
// an id it does not know with 400 or 404), no trace of the victim in the answer, and the victim's data
// unchanged afterwards.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backendCall, newSecret } from '../helpers/backendApiClient.ts';
import { socialSignIn } from '../helpers/socialBrowser.ts';
import { SoftAuthenticator } from '../helpers/softAuthenticator.ts';
import { Client, createProject, outbox, PASSKEY_DEVICE, serverForThisFile, uniqueEmail, type ApiResponse } from '../helpers/testServer.ts';

const server = serverForThisFile({ api: { backendApiPort: 0 } });

/** The victim's ids an attacker would put in a call. */
interface Ids {
  userID: string;
  /** the verified e-mail address the victim signed up with, and its value */
  identifierID: string;
  identifierValue: string;
  /** an address the victim added and has not verified yet */
  pendingID: string;
  credentialID: string;
  sessionID: string;
  socialAccountID: string;
}

interface Row {
  /** the path to call, the route's parameters filled in with the victim's ids */
  path?: (ids: Ids) => string;
  /** the JSON body (with the victim's ids where the route takes one there) */
  body?: (ids: Ids) => unknown;
  /** the route acts on an id of the caller's choosing: another user's must be refused */
  takesId?: true;
  /** what a call without a session answers, when not 401 */
  anonymous?: number;
  /** how another user's id is refused, when not with 403 or 404 */
  refused?: number;
}

/** The Frontend API's routes that need a user's session: every route under /v2/me. */
const ME_ROUTES: Record<string, Row> = {
  'GET /v2/me': {},
  'PATCH /v2/me': { body: () => ({ fullName: 'Mallory Renamed' }) },
  'DELETE /v2/me': {},
  'GET /v2/me/passkeys': {},
  'POST /v2/me/passkeys/append/start': { body: () => ({ clientInformation: PASSKEY_DEVICE }) },
  'POST /v2/me/passkeys/append/finish': { body: () => ({ attestationResponse: '{}' }) },
  'DELETE /v2/me/passkeys/:credentialID': { path: (ids) => `/v2/me/passkeys/${ids.credentialID}`, takesId: true },
  'POST /v2/me/refresh': { body: () => ({}) },
  'GET /v2/me/sessions': {},
  'GET /v2/me/sessions/current': {},
  'DELETE /v2/me/sessions': {},
  'DELETE /v2/me/sessions/:sessionID': { path: (ids) => `/v2/me/sessions/${ids.sessionID}`, takesId: true },
  // ends the sessions it is given, none when it is given none; idempotent, so that a client can always sign out
  'POST /v2/me/logout': { anonymous: 204 },
  'DELETE /v2/me/social-account': { body: (ids) => ({ socialAccountID: ids.socialAccountID }), takesId: true },
  'POST /v2/me/identifier': { body: () => ({ identifierType: 'email', value: uniqueEmail('added') }) },
  'DELETE /v2/me/identifier': { body: (ids) => ({ identifierID: ids.identifierID }), takesId: true },
  // the victim's own value: for the owner this call succeeds (it is the primary already)
  'PATCH /v2/me/identifier': { body: (ids) => ({ identifierID: ids.identifierID, identifierType: 'email', value: ids.identifierValue, primary: true }), takesId: true },
  'POST /v2/me/identifier/verify/start': { body: (ids) => ({ identifierID: ids.pendingID }), takesId: true },
  'POST /v2/me/identifier/verify/finish': { body: (ids) => ({ identifierID: ids.pendingID, code: '123456' }), takesId: true },
  'GET /v2/me/reauth': {},
  'POST /v2/me/reauth/passkey/start': { body: () => ({}) },
  'POST /v2/me/reauth/passkey/finish': { body: () => ({ assertionResponse: '{}' }) },
  // a code goes only to an address the caller had at log-in: anything else (the caller's own pending
  // address or another user's) gets the same 400, which tells nothing about who holds the id
  'POST /v2/me/reauth/code/start': { body: (ids) => ({ identifierID: ids.identifierID }), takesId: true, refused: 400 },
  'POST /v2/me/reauth/code/finish': { body: (ids) => ({ identifierID: ids.identifierID, code: '123456' }), takesId: true, refused: 400 },
};

/** The Backend API's routes: all need the project's API secret. */
const BACKEND_ROUTES: Record<string, Row> = {
  'POST /v2/users': { body: () => ({ status: 'active', fullName: 'Made Without Secret' }) },
  'GET /v2/users/:userID': { path: (ids) => `/v2/users/${ids.userID}`, takesId: true },
  'PATCH /v2/users/:userID': { path: (ids) => `/v2/users/${ids.userID}`, body: () => ({ fullName: 'Taken Over', status: 'disabled' }), takesId: true },
  'DELETE /v2/users/:userID': { path: (ids) => `/v2/users/${ids.userID}`, takesId: true },
  'POST /v2/users/:userID/identifiers': {
    path: (ids) => `/v2/users/${ids.userID}/identifiers`,
    body: () => ({ identifierType: 'email', identifierValue: uniqueEmail('planted'), status: 'verified' }),
    takesId: true,
  },
  'PATCH /v2/users/:userID/identifiers/:identifierID': {
    path: (ids) => `/v2/users/${ids.userID}/identifiers/${ids.identifierID}`,
    body: () => ({ status: 'pending' }),
    takesId: true,
  },
  'DELETE /v2/users/:userID/identifiers/:identifierID': { path: (ids) => `/v2/users/${ids.userID}/identifiers/${ids.identifierID}`, takesId: true },
  'GET /v2/identifiers': { path: (ids) => `/v2/identifiers?filter[]=userID:eq:${ids.userID}`, takesId: true },
  'GET /v2/users/:userID/credentials': { path: (ids) => `/v2/users/${ids.userID}/credentials`, takesId: true },
  'DELETE /v2/users/:userID/credentials/:credentialID': { path: (ids) => `/v2/users/${ids.userID}/credentials/${ids.credentialID}`, takesId: true },
  'GET /v2/users/:userID/longSessions': { path: (ids) => `/v2/users/${ids.userID}/longSessions`, takesId: true },
  'GET /v2/users/:userID/longSessions/:longSessionID': { path: (ids) => `/v2/users/${ids.userID}/longSessions/${ids.sessionID}`, takesId: true },
  'PATCH /v2/users/:userID/longSessions/:longSessionID': {
    path: (ids) => `/v2/users/${ids.userID}/longSessions/${ids.sessionID}`,
    body: () => ({ status: 'revoked' }),
    takesId: true,
  },
  'GET /v2/longSessions/:longSessionID': { path: (ids) => `/v2/longSessions/${ids.sessionID}`, takesId: true },
  'GET /v2/auditEvents': { path: (ids) => `/v2/auditEvents?filter[]=userID:eq:${ids.userID}`, takesId: true },
  'GET /v2/stats': {},
};

/** "METHOD path" of each route an app answers (its handlers; middleware, registered for every method, aside). */
function registered(app: { routes: { method: string; path: string }[] }, under: RegExp): string[] {
  const keys = app.routes.filter((r) => r.method !== 'ALL' && under.test(r.path)).map((r) => `${r.method} ${r.path}`);
  return [...new Set(keys)].sort();
}

describe('the tables cover every authenticated route', () => {
  it('each /v2/me route of the Frontend API and each route of the Backend API has a row, and no row names a route that is gone', () => {
    expect(registered(server.api.app, /^\/v2\/me(\/|$)/)).toEqual(Object.keys(ME_ROUTES).sort());
    expect(registered(server.api.backendApp, /^\/v2\//)).toEqual(Object.keys(BACKEND_ROUTES).sort());
  });
});

describe('every authenticated route, both ways', () => {
  let fullName: string;
  let email: string;
  let pending: string;
  let victim: Client;
  let ids: Ids;
  let attacker: Client;
  let otherProject: { projectId: string; secret: string };

  /** Everything the victim has, as stored; and the messages sent to the victim's address. */
  async function victimState(): Promise<string> {
    const { store } = server.api;
    return JSON.stringify({
      user: await store.users.get(ids.userID),
      identifiers: await store.users.listIdentifiers(ids.userID),
      credentials: await store.credentials.listByUser(ids.userID),
      sessions: await store.sessions.listByUser(ids.userID),
      socialAccounts: await store.socialAccounts.listByUser(ids.userID),
      messages: [(await outbox(server.url, email)).length, (await outbox(server.url, pending)).length],
    });
  }

  /** The answer tells nothing of the victim (an id the request carried aside). */
  function expectNoTrace(res: ApiResponse): void {
    const text = JSON.stringify(res.body ?? '');
    expect(text).not.toContain(fullName);
    expect(text).not.toContain(email);
    expect(text).not.toContain(pending);
  }

  beforeAll(async () => {
    // the attacker: a user of the same project, just logged in (any recent-login rule holds for it)
    attacker = (await socialSignIn(server.url, 'pro-1', { email: uniqueEmail('mallory'), name: 'Mallory', vouched: true })).client;
    const projectId = await createProject(server.url, { appName: 'Other shop' });
    otherProject = { projectId, secret: await newSecret(server, projectId) };
  });

  // a new victim for each call, so that a call that got through cannot hide what the next one does
  beforeEach(async () => {
    fullName = `Victoria Victim ${Math.random().toString(36).slice(2)}`;
    email = uniqueEmail('victim');
    pending = uniqueEmail('victim-pending');
    // the victim: a provider account (with its e-mail address) and a passkey appended on the account page
    const signedIn = await socialSignIn(server.url, 'pro-1', { email, name: fullName, vouched: true });
    victim = signedIn.client;
    const authenticator = new SoftAuthenticator();
    const started = await victim.request('POST', '/v2/me/passkeys/append/start', { clientInformation: PASSKEY_DEVICE });
    const appended = await victim.request('POST', '/v2/me/passkeys/append/finish', { attestationResponse: authenticator.create(started.body.attestationOptions) });
    expect(appended.status, JSON.stringify(appended.body)).toBe(200);
    const added = await victim.request('POST', '/v2/me/identifier', { identifierType: 'email', value: pending });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const me = (await victim.request('GET', '/v2/me')).body;
    ids = {
      userID: me.id,
      identifierID: me.identifiers.find((i: any) => i.value === email).id,
      identifierValue: email,
      pendingID: me.identifiers.find((i: any) => i.value === pending && i.status === 'pending').id,
      socialAccountID: me.socialAccounts[0].id,
      credentialID: (await victim.request('GET', '/v2/me/passkeys')).body.passkeys[0].id,
      sessionID: (await victim.request('GET', '/v2/me/sessions')).body.sessions[0].id,
    };
    for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(name === 'identifierValue' ? /@/ : /^[a-z]+-[\w-]+$/);
  });

  const split = (key: string) => key.split(' ') as [string, string];

  it.each(Object.keys(ME_ROUTES))('%s: 401 without a session, nothing changed', async (key) => {
    const [method, route] = split(key);
    const row = ME_ROUTES[key]!;
    const before = await victimState();
    const anonymous = new Client(server.url, 'pro-1');
    const res = await anonymous.request(method, row.path?.(ids) ?? route, row.body?.(ids));
    if (row.anonymous) {
      expect(res.status, JSON.stringify(res.body)).toBe(row.anonymous);
    } else {
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(res.body.error.type).toBe('unauthorized');
    }
    expect(await victimState()).toBe(before);
  });

  it.each(Object.keys(ME_ROUTES).filter((k) => ME_ROUTES[k]!.takesId))("%s: another user's session with the victim's id: refused, nothing changed", async (key) => {
    const [method, route] = split(key);
    const row = ME_ROUTES[key]!;
    const before = await victimState();
    const res = await attacker.request(method, row.path?.(ids) ?? route, row.body?.(ids));
    expect(row.refused ? [row.refused] : [403, 404], `${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
    expect(res.body.error.type).toEqual(expect.any(String));
    expectNoTrace(res);
    expect(await victimState()).toBe(before);
  });

  it.each(Object.keys(BACKEND_ROUTES))('Backend API %s: 401 without the API secret, nothing changed', async (key) => {
    const [method, route] = split(key);
    const row = BACKEND_ROUTES[key]!;
    const before = await victimState();
    const res = await backendCall(server, undefined, method, row.path?.(ids) ?? route, row.body?.(ids), { 'X-Corbado-ProjectID': 'pro-1' });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body.error.type).toEqual(expect.any(String));
    expectNoTrace(res);
    expect(await victimState()).toBe(before);
  });

  it.each(Object.keys(BACKEND_ROUTES).filter((k) => BACKEND_ROUTES[k]!.takesId))(
    "Backend API %s: another project's secret with the victim's ids: refused (or an empty list), nothing changed",
    async (key) => {
      const [method, route] = split(key);
      const row = BACKEND_ROUTES[key]!;
      const before = await victimState();
      const res = await backendCall(server, otherProject, method, row.path?.(ids) ?? route, row.body?.(ids));
      if (res.status === 200) {
        // a list filtered by the victim's id, in another project: nothing in it
        expect(['GET /v2/identifiers', 'GET /v2/auditEvents']).toContain(key);
        expect(res.body.identifiers ?? res.body.auditEvents).toEqual([]);
      } else {
        expect([400, 403, 404], `${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
        expect(res.body.error.type).toEqual(expect.any(String));
      }
      expectNoTrace(res);
      expect(await victimState()).toBe(before);
    },
  );
});
