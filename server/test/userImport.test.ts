/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The admin command's Backend API secrets (create, list, revoke: in effect at once, in every instance on
// the database) and `users import` (checked lines, batches, idempotent reruns, the imported users log in
// by code), against running servers on the command's database.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminErrorMessage, runAdmin, type AdminOutput } from '../admin.ts';
import { importUsers } from '../backend/UserImport.ts';
import type { EventRecorder } from '../events/WebhookEvents.ts';
import { backendCall } from './helpers/backendApiClient.ts';
import { Client, databaseEnv, latestCode, PASSKEY_DEVICE, startTestServer, uniqueEmail, type TestServer } from './helpers/testServer.ts';

let server: TestServer;
let second: TestServer;

beforeAll(async () => {
  server = await startTestServer({ api: { backendApiPort: 0 } });
  // a second instance on the same database
  second = await startTestServer({ dir: server.dir, api: { backendApiPort: 0 } });
});
afterAll(async () => {
  await second.stop(true);
  await server.stop();
});

function admin(args: string[], output?: AdminOutput): Promise<any> {
  return runAdmin(args, databaseEnv(server.dir), Date.now(), output);
}

const status = async (instance: TestServer, secret: string) => (await backendCall(instance, { projectId: 'pro-1', secret }, 'GET', '/v2/identifiers')).status;

describe('admin api-secret', () => {
  it('prints a new secret once, keeps only its hash, and a created or revoked one counts at once on every instance', async () => {
    const created = await admin(['api-secret', 'create', 'pro-1']);
    expect(created).toMatchObject({ id: expect.stringMatching(/^sec-\d+$/), projectId: 'pro-1', secret: expect.stringMatching(/^corbado1_[A-Za-z0-9_-]{43}$/) });
    const rows = await server.api.store.db.all('SELECT * FROM api_secrets');
    expect(JSON.stringify(rows)).not.toContain(created.secret.slice('corbado1_'.length));
    expect(await status(server, created.secret)).toBe(200);
    expect(await status(second, created.secret)).toBe(200);

    const listed = await admin(['api-secret', 'list', 'pro-1']);
    expect(listed).toContainEqual({ id: created.id, endsWith: created.secret.slice(-4), label: 'admin', createdAt: expect.any(String), revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    expect(await admin(['api-secret', 'revoke', created.id])).toEqual({ id: created.id, revoked: true });
    expect(await status(server, created.secret)).toBe(401);
    expect(await status(second, created.secret)).toBe(401);
    expect((await admin(['api-secret', 'list', 'pro-1'])).find((s: any) => s.id === created.id).revokedAt).not.toBeNull();
  });

  it('refuses what it cannot do, naming it', async () => {
    const fails = (args: string[]) => admin(args).then(() => 'no error', adminErrorMessage);
    expect(await fails(['api-secret', 'create', 'pro-999999'])).toBe('There is no project pro-999999');
    expect(await fails(['api-secret', 'create', 'nope'])).toMatch(/project id like pro-1000/);
    expect(await fails(['api-secret', 'revoke', 'sec-1'])).toBe('there is no live secret sec-1');
    expect(await fails(['api-secret', 'rotate', 'pro-1'])).toMatch(/^usage: /);
    expect(await fails(['users', 'import', 'pro-1', join(server.dir, 'missing.jsonl')])).toMatch(/^there is no file /);
    expect(await fails(['users', 'import', 'pro-999999', '-'])).toBe('There is no project pro-999999');
  });
});

describe('admin users import', () => {
  it('imports valid lines, reports the others by line number, and a rerun creates nobody twice', async () => {
    const tag = Date.now().toString(36);
    const email = (n: number) => `imp${n}.${tag}@example.com`;
    const lines = [
      JSON.stringify({ externalID: `crm-${tag}-1`, fullName: 'Ida Import', identifiers: [{ type: 'email', value: email(1), status: 'verified' }] }),
      JSON.stringify({ fullName: 'No External', identifiers: [{ type: 'email', value: email(2).toUpperCase(), status: 'verified' }] }),
      '',
      JSON.stringify({ externalID: `crm-${tag}-3`, identifiers: [{ type: 'email', value: email(3), status: 'pending' }] }),
      '{not json',
      JSON.stringify({ externalID: `crm-${tag}-5`, identifiers: [{ type: 'email', value: 'nope', status: 'verified' }] }),
      JSON.stringify({ externalID: `crm-${tag}-6`, identifiers: [] }),
      JSON.stringify({ externalID: `crm-${tag}-7`, identifiers: [{ type: 'phone', value: '+4915112345678', status: 'verified' }] }),
      // the address of line 1, verified, for another person: refused
      JSON.stringify({ externalID: `crm-${tag}-8`, identifiers: [{ type: 'email', value: email(1), status: 'verified' }] }),
      JSON.stringify({ externalID: `crm-${tag}-9`, identifiers: [{ type: 'email', value: email(9), status: 'verified' }, { type: 'email', value: email(9), status: 'pending' }] }),
    ];
    const file = join(server.dir, 'users.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const progress: string[] = [];
    const warnings: string[] = [];
    const output = { progress: (line: string) => progress.push(line), warn: (line: string) => warnings.push(line) };

    const first = await admin(['users', 'import', 'pro-1', file], output);
    expect(first).toMatchObject({ project: 'pro-1', lines: 10, created: 3, updated: 0, unchanged: 0, refused: 6 });
    expect(progress.at(-1)).toMatch(/^10 lines: 3 created, 0 updated, 0 unchanged, 6 refused \(\d[\d,]* lines\/s\)$/);
    expect(warnings).toEqual([
      'line 5: not valid JSON',
      'line 6: identifiers[0].value: is not a valid email',
      'line 7: identifiers: must hold at least one identifier',
      'line 8: identifiers[0].type: this project does not use the identifier type phone',
      `line 10: identifiers[1].value: is in the line twice`,
      `line 9: email ${email(1)} is held verified by another user`,
    ]);

    const again = await admin(['users', 'import', 'pro-1', file], { progress: () => {}, warn: () => {} });
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3, refused: 6 });

    // the host gets its own id back; the address is stored as sign-up stores it (the domain in lower case)
    const secret = (await admin(['api-secret', 'create', 'pro-1'])).secret as string;
    const creds = { projectId: 'pro-1', secret };
    const found = (await backendCall(server, creds, 'GET', `/v2/identifiers?filter[]=identifierValue:eq:${email(1)}`)).body.identifiers;
    expect(found).toHaveLength(1);
    expect((await backendCall(server, creds, 'GET', `/v2/users/${found[0].userID}`)).body).toMatchObject({ fullName: 'Ida Import', externalID: `crm-${tag}-1` });
    expect((await backendCall(server, creds, 'GET', `/v2/identifiers?filter[]=identifierValue:eq:${email(2)}`)).body.identifiers[0].value).toBe(
      email(2).toUpperCase().replace('@EXAMPLE.COM', '@example.com'),
    );

    // an imported user logs in by code and is offered a passkey: the way off passwords
    const client = new Client(server.url, 'pro-1');
    await client.init(PASSKEY_DEVICE, 'login-init');
    expect((await client.step('/v2/auth/login/init', { identifierValue: email(1), isPhone: false })).block).toBe('email-verify');
    const block = await client.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email(1)), identifierType: 'email', verificationType: 'email-otp' });
    expect(block.block).toBe('passkey-append');
    expect((await client.step('/v2/auth/process/complete')).block).toBe('completed');
    expect((await client.request('GET', '/v2/me')).body).toMatchObject({ id: found[0].userID, fullName: 'Ida Import' });
  });

  it('in batches: a value verified in an earlier line of the same or an earlier batch is refused, pending copies elsewhere are taken', async () => {
    const project = (await server.api.store.projects.get('pro-1'))!;
    const shared = uniqueEmail('shared');
    const squatter = uniqueEmail('squat');
    // someone holds `squatter`'s address pending (a "Verify later" kind of copy)
    const holder = (await importUsers(server.api.store, project, lines([{ externalID: `sq-${squatter}`, identifiers: [{ type: 'email', value: squatter, status: 'pending' }] }]), { now: Date.now, events: NOT_TOLD }))
      .created;
    expect(holder).toBe(1);
    const failures: string[] = [];
    const result = await importUsers(
      server.api.store,
      project,
      lines([
        { externalID: `a-${shared}`, identifiers: [{ type: 'email', value: shared, status: 'verified' }] },
        { externalID: `b-${shared}`, identifiers: [{ type: 'email', value: shared, status: 'pending' }] },
        { externalID: `c-${shared}`, identifiers: [{ type: 'email', value: shared, status: 'verified' }] },
        { externalID: `a-${shared}`, identifiers: [{ type: 'email', value: uniqueEmail('dupe'), status: 'verified' }] },
        { externalID: `d-${shared}`, identifiers: [{ type: 'email', value: squatter, status: 'primary' }] },
      ]),
      { now: Date.now, events: NOT_TOLD, batchSize: 2, onFailure: (f) => failures.push(`line ${f.line}: ${f.reason}`) },
    );
    // line 4 is line 1's customer again, with another address: added to that account
    expect(result).toEqual({ lines: 5, created: 3, updated: 1, unchanged: 0, refused: 1 });
    expect(failures).toEqual([`line 3: email ${shared} is held verified by another user`]);
    const holders = await server.api.store.users.findValues('pro-1', [{ type: 'email', normalized: squatter }], false);
    expect(holders.map((h) => h.status)).toEqual(['verified']);
    const [owner] = holders;
    expect((await server.api.store.users.get(owner!.userId))?.externalId).toBe(`d-${shared}`);
    expect(owner!.primary).toBe(true);
  });
});

/** The import's events are not what these tests look at (webhooks.test.ts does). */
const NOT_TOLD: EventRecorder = { record: async () => undefined, audit: async () => undefined };

async function* lines(values: unknown[]): AsyncIterable<string> {
  for (const value of values) yield JSON.stringify(value);
}

describe('admin users import: an upsert that never takes a squatter for the customer', () => {
  /** Runs the admin command on a file of these lines; answers its result, progress lines and refusals. */
  async function importFile(values: unknown[]): Promise<{ result: any; progress: string[]; refusals: string[] }> {
    const file = join(server.dir, `upsert-${Date.now()}-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(file, `${values.map((v) => JSON.stringify(v)).join('\n')}\n`);
    const progress: string[] = [];
    const refusals: string[] = [];
    const result = await admin(['users', 'import', 'pro-1', file], { progress: (l) => progress.push(l), warn: (l) => refusals.push(l) });
    return { result, progress, refusals };
  }
  const creds = async () => ({ projectId: 'pro-1', secret: (await admin(['api-secret', 'create', 'pro-1'])).secret as string });
  const holders = async (c: { projectId: string; secret: string }, email: string) =>
    (await backendCall(server, c, 'GET', `/v2/identifiers?filter[]=identifierValue:eq:${encodeURIComponent(email)}`)).body.identifiers as any[];

  it('imports the customer whose address someone else holds only pending, and the squatter loses it', async () => {
    const c = await creds();
    const customer = uniqueEmail('customer');
    const squatter = (await backendCall(server, c, 'POST', '/v2/users', { fullName: 'Squatter', status: 'active' })).body.userID as string;
    const copy = await backendCall(server, c, 'POST', `/v2/users/${squatter}/identifiers`, { identifierType: 'email', identifierValue: customer, status: 'pending' });
    expect(copy.body.status).toBe('pending');

    const { result, refusals } = await importFile([{ fullName: 'Carla Customer', identifiers: [{ type: 'email', value: customer, status: 'verified' }] }]);
    expect(result).toMatchObject({ lines: 1, created: 1, updated: 0, unchanged: 0, refused: 0 });
    expect(refusals).toEqual([]);
    const [held] = await holders(c, customer);
    expect(held).toMatchObject({ status: 'primary' });
    expect(held.userID).not.toBe(squatter);
    expect((await backendCall(server, c, 'GET', `/v2/users/${held.userID}`)).body.fullName).toBe('Carla Customer');
    expect((await backendCall(server, c, 'GET', `/v2/identifiers?filter[]=userID:eq:${squatter}`)).body.identifiers).toEqual([]);
    // a rerun finds the customer by the verified address
    expect((await importFile([{ fullName: 'Carla Customer', identifiers: [{ type: 'email', value: customer, status: 'verified' }] }])).result).toMatchObject({
      created: 0,
      unchanged: 1,
    });
    // a line that could only be found by a pending address is refused, with its reason
    const pendingFirst = await importFile([{ fullName: 'Pia Pending', identifiers: [{ type: 'email', value: uniqueEmail('pia'), status: 'pending' }] }]);
    expect(pendingFirst.result).toMatchObject({ created: 0, refused: 1 });
    expect(pendingFirst.refusals).toEqual([
      'line 1: identifiers[0].status: without an externalID, the first identifier must be verified or primary: it is what finds the user again',
    ]);
  });

  it('a rerun with changed names or identifiers updates the account, takes nothing away, and counts created, updated, unchanged, refused', async () => {
    const c = await creds();
    const tag = Math.random().toString(36).slice(2, 8);
    const [one, two, three] = [uniqueEmail(`up1${tag}`), uniqueEmail(`up2${tag}`), uniqueEmail(`up3${tag}`)];
    const first = { externalID: `crm-up-${tag}`, fullName: 'Una Upsert', identifiers: [{ type: 'email', value: one, status: 'verified' }, { type: 'email', value: two, status: 'pending' }] };
    expect((await importFile([first])).result).toMatchObject({ created: 1, updated: 0, unchanged: 0, refused: 0 });
    const userId = (await holders(c, one))[0].userID as string;
    const again = await importFile([first]);
    expect(again.result).toMatchObject({ created: 0, updated: 0, unchanged: 1, refused: 0 });
    expect(again.progress.at(-1)).toMatch(/^1 lines: 0 created, 0 updated, 1 unchanged, 0 refused \(/);

    const changed = {
      externalID: `crm-up-${tag}`,
      fullName: 'Una Changed',
      // two verified now, three new and primary; one not named (pending given for a verified one: it stays verified)
      identifiers: [{ type: 'email', value: two, status: 'verified' }, { type: 'email', value: three, status: 'primary' }],
    };
    const other = { externalID: `crm-new-${tag}`, fullName: 'Nina New', identifiers: [{ type: 'email', value: uniqueEmail(`new${tag}`), status: 'verified' }] };
    const taken = { externalID: `crm-taken-${tag}`, identifiers: [{ type: 'email', value: one, status: 'verified' }] };
    const update = await importFile([changed, other, taken]);
    expect(update.result).toMatchObject({ lines: 3, created: 1, updated: 1, unchanged: 0, refused: 1 });
    expect(update.progress.at(-1)).toMatch(/^3 lines: 1 created, 1 updated, 0 unchanged, 1 refused \(/);
    expect(update.refusals).toEqual([`line 3: email ${one} is held verified by another user`]);
    expect((await backendCall(server, c, 'GET', `/v2/users/${userId}`)).body).toMatchObject({ fullName: 'Una Changed', externalID: `crm-up-${tag}` });
    const mine = (await backendCall(server, c, 'GET', `/v2/identifiers?filter[]=userID:eq:${userId}&sort=identifierValue:asc`)).body.identifiers;
    expect(Object.fromEntries(mine.map((i: any) => [i.value, i.status]))).toEqual({ [one]: 'verified', [two]: 'verified', [three]: 'primary' });

    // idempotent again; and found without the external id by a verified address, a name given replaces the name
    expect((await importFile([changed])).result).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    expect((await importFile([{ ...first, identifiers: [{ type: 'email', value: one, status: 'pending' }] }])).result).toMatchObject({ updated: 1 });
    expect((await holders(c, one))[0].status).toBe('verified');
    expect((await importFile([{ fullName: 'Una Third', identifiers: [{ type: 'email', value: three, status: 'verified' }] }])).result).toMatchObject({ created: 0, updated: 1 });
    expect((await backendCall(server, c, 'GET', `/v2/users/${userId}`)).body.fullName).toBe('Una Third');
  });
});
