/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Attack class: an account without the project's required sign-up fields (issue 30, SECURITY.md 23).
// Every way an account is made goes through one check at the one place a user row is written
// (UsersRepo.insertUsers -> assertSignupFieldsAnswered): e-mail code, e-mail link, "Sign up here
// instead" at a link opened elsewhere, passkey, social provider, the Backend API and the import. The
// Frontend ways need answers given in that same process, for the text as the project has it when the
// account is made; the host's backend (Backend API, import) answers for its user explicitly or is refused.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importUsers } from '../../backend/UserImport.ts';
import { SoftAuthenticator } from '../helpers/softAuthenticator.ts';
import { backendCall, newSecret } from '../helpers/backendApiClient.ts';
import { socialSignIn } from '../helpers/socialBrowser.ts';
import { Client, createProject, jwtPayload, latestCode, latestLink, PASSKEY_DEVICE, serverForThisFile, uniqueEmail } from '../helpers/testServer.ts';

const server = serverForThisFile({ api: { backendApiPort: 0 } });

const TERMS = {
  id: 'terms',
  type: 'checkbox',
  label: { en: 'I accept the [terms of use]', de: 'Ich akzeptiere die [Nutzungsbedingungen]' },
  url: 'https://shop.example/terms',
  version: '2026-11',
  required: true,
};
const COMPANY = { id: 'company', type: 'text', label: { en: 'Company', de: 'Firma' } };
const TICKED = { id: 'terms', accepted: true, version: '2026-11' };
const LINKS = { email: { verification: 'email-link' } };

/** The project's terms get a new version (the text changed): a tick on the old one no longer counts. */
async function newTermsVersion(projectId: string): Promise<void> {
  const project = (await server.api.store.projects.get(projectId))!;
  const signupFields = project.signupFields.map((f) => (f.id === 'terms' ? { ...f, version: '2027-01' } : f));
  await server.api.store.projects.update({ ...project, signupFields }, server.clock.now);
}

async function accountOf(projectId: string, email: string): Promise<boolean> {
  const found = await server.api.store.users.findValues(projectId, [{ type: 'email', normalized: email.toLowerCase() }], false);
  return found.length > 0;
}

async function usersOf(projectId: string): Promise<number> {
  return Number((await server.api.store.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM users WHERE project_id = ?', [projectId]))?.n);
}

/** The error code on each sign-up field of a signup-init block. */
const fieldErrors = (block: any) => Object.fromEntries((block.data.signupFields as any[]).filter((f) => f.error).map((f) => [f.id, f.error.code]));

async function signedUp(client: Client, block: any): Promise<any> {
  expect(block.block).toBe('completed');
  client.longSession = block.data.longSession;
  return (await client.request('GET', '/v2/me')).body;
}

describe('the one place a user row is written', () => {
  it('[security] is UsersRepo.insertUsers, which checks the answers first: no other code of the server inserts into users', () => {
    const root = join(import.meta.dirname, '..', '..');
    const sources = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.split(/[\\/]/).some((part) => ['test', 'node_modules', 'dist'].includes(part)));
    const writers = sources.filter((f) => /INSERT\s+INTO\s+users\b/i.test(readFileSync(join(root, f), 'utf8')));
    expect(writers.map((f) => f.replace(/\\/g, '/'))).toEqual(['store/UsersRepo.ts']);
    const repo = readFileSync(join(root, 'store', 'UsersRepo.ts'), 'utf8');
    expect(repo.match(/INSERT\s+INTO\s+users\b/gi)).toHaveLength(1);
    // the insert sits in insertUsers, after the check of every user
    const method = repo.slice(repo.indexOf('async insertUsers('), repo.indexOf('INSERT INTO users'));
    expect(method).toContain('assertSignupFieldsAnswered(project, user.signupAnswers)');
  });
});

describe('"Sign up here instead" at an e-mail link opened in another browser', () => {
  it('[security] asks the browser at the link for the required fields; the answers of the browser that asked are not its own', async () => {
    const projectId = await createProject(server.url, { identifiers: LINKS, signupFields: [COMPANY, TERMS] });
    const email = uniqueEmail('door-here');
    // browser A ticks the box, names a company, and asks for the link
    const asker = new Client(server.url, projectId);
    await asker.init({}, 'signup-init');
    const waiting = await asker.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], signupFields: [{ id: 'company', value: 'Mallory Inc' }, TICKED] });
    expect(waiting.block).toBe('email-verify');
    const link = await latestLink(server.url, email);
    const process = JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString()).process.id;

    // browser B opens it and answers "here": the sign-up form, the address proven, nothing of A's
    const b = new Client(server.url, projectId);
    const res = await b.request('POST', '/v2/auth/email-link/here', { process, token: link.searchParams.get('corbadoToken') });
    expect(res.status).toBe(200);
    const form = res.body.blockBody;
    expect(form.block).toBe('signup-init');
    expect(form.data.identifiers).toEqual([{ type: 'email', identifier: email }]);
    // asked, as a sign-up in B would be: the fields empty, no error yet
    expect(form.data.signupFields).toEqual([expect.objectContaining({ id: 'company' }), expect.objectContaining({ id: 'terms', accepted: false })]);
    expect(form.data.signupFields.some((f: any) => 'value' in f || f.error)).toBe(false);
    expect(await accountOf(projectId, email)).toBe(false);

    // B's own answers: without the box it is refused; with it, the account is B's, its answers B's
    b.processToken = res.body.newProcess.token;
    const refused = await b.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    expect(fieldErrors(refused)).toEqual({ terms: 'signup_field_required' });
    expect(await accountOf(projectId, email)).toBe(false);
    const done = await b.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], signupFields: [TICKED] });
    const me = await signedUp(b, done);
    expect(jwtPayload(done.data.shortSession)).toMatchObject({ email, email_verified: true });
    expect(me.signupFields).toEqual([expect.objectContaining({ id: 'terms', accepted: true, version: '2026-11', source: 'signup' })]);
  });
});

describe('the Frontend ways: the answers must hold for the text as it is when the account is made', () => {
  it('[security] e-mail code: the terms changed while the code was on its way; the account waits for the new tick', async () => {
    const projectId = await createProject(server.url, { passkeys: false, signupFields: [TERMS] });
    const email = uniqueEmail('door-code');
    const client = new Client(server.url, projectId);
    await client.init({}, 'signup-init');
    expect((await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], signupFields: [TICKED] })).block).toBe('email-verify');
    await newTermsVersion(projectId);
    const back = await client.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email), identifierType: 'email', verificationType: 'email-otp' });
    expect(back.block).toBe('signup-init');
    expect(fieldErrors(back)).toEqual({ terms: 'signup_field_outdated' });
    expect(back.data.signupFields[0]).toMatchObject({ version: '2027-01', accepted: false });
    expect(await accountOf(projectId, email)).toBe(false);
    // the new text ticked: the address stays proven, no second code
    const done = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], signupFields: [{ ...TICKED, version: '2027-01' }] });
    expect((await signedUp(client, done)).signupFields).toEqual([expect.objectContaining({ version: '2027-01', accepted: true })]);
  });

  it('[security] e-mail link: the terms changed before the link was opened; no account until they are ticked again', async () => {
    const projectId = await createProject(server.url, { passkeys: false, identifiers: LINKS, signupFields: [TERMS] });
    const email = uniqueEmail('door-link');
    const client = new Client(server.url, projectId);
    await client.init({}, 'signup-init');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], signupFields: [TICKED] });
    const link = await latestLink(server.url, email);
    const process = JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString()).process.id;
    await newTermsVersion(projectId);
    const back = await client.step('/v2/auth/email-link/open', { process, token: link.searchParams.get('corbadoToken') });
    expect(back.block).toBe('signup-init');
    expect(fieldErrors(back)).toEqual({ terms: 'signup_field_outdated' });
    expect(await accountOf(projectId, email)).toBe(false);
  });

  it('[security] passkey: an account made with its passkey (address verified after sign-up) needs the current terms too', async () => {
    const projectId = await createProject(server.url, { identifiers: { email: { verifyAt: 'after-signup' } }, signupFields: [TERMS] });
    const email = uniqueEmail('door-passkey');
    const client = new Client(server.url, projectId);
    await client.init(PASSKEY_DEVICE, 'signup-init');
    expect((await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], signupFields: [TICKED] })).block).toBe('passkey-append');
    const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    expect((await client.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(started.data.challenge) })).block).toBe('passkey-appended');
    await newTermsVersion(projectId);
    const back = await client.step('/v2/auth/block/skip');
    expect(back.block).toBe('signup-init');
    expect(fieldErrors(back)).toEqual({ terms: 'signup_field_outdated' });
    expect(await accountOf(projectId, email)).toBe(false);
    expect((await client.request('GET', '/v2/me')).status).toBe(401);
  });

  it('[security] social provider: the account a provider sign-up makes after the terms changed is refused; the start must be made again', async () => {
    const projectId = await createProject(server.url, { socialProviders: ['google'], signupFields: [TERMS] });
    const email = uniqueEmail('door-social');
    // with a passkey offered first, the account is made only when the offer is answered
    const { client, finished } = await socialSignIn(server.url, projectId, { email, vouched: true }, { passkeys: true, signupFields: [TICKED] });
    expect(finished.block).toBe('passkey-append');
    await newTermsVersion(projectId);
    const back = await client.step('/v2/auth/block/skip');
    expect(back.block).toBe('signup-init');
    expect(back.error.code).toBe('social_signup_fields_missing');
    expect(fieldErrors(back)).toEqual({ terms: 'signup_field_outdated' });
    expect(await accountOf(projectId, email)).toBe(false);
    expect((await client.request('GET', '/v2/me')).status).toBe(401);
  });
});

describe("the host's ways: the Backend API and the import answer for the user, or are refused", () => {
  it('[security] Backend API: a user without the required answers is refused with 400 naming the field; with them it is created', async () => {
    const projectId = await createProject(server.url, { signupFields: [COMPANY, TERMS] });
    const host = { projectId, secret: await newSecret(server, projectId) };
    const post = (body: unknown) => backendCall(server, host, 'POST', '/v2/users', body);
    const refused = await post({ fullName: 'No Terms', status: 'active' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request', validation: [{ field: 'signupFields', message: expect.stringMatching(/^terms is required by the project \(a ticked box for version 2026-11\)/) }] });
    // unticked, an older version, an unknown field: refused as well
    expect((await post({ fullName: 'Some One', status: 'active', signupFields: [{ ...TICKED, accepted: false }] })).status).toBe(400);
    const outdated = await post({ fullName: 'Some One', status: 'active', signupFields: [{ ...TICKED, version: '2026-01' }] });
    expect(outdated.status).toBe(400);
    expect(outdated.body.error.validation).toEqual([{ field: 'signupFields', message: "the answer to terms is for another version of the field's text than its current one" }]);
    expect((await post({ fullName: 'Some One', status: 'active', signupFields: [TICKED, { id: 'admin', value: 'x' }] })).body.error.validation).toEqual([
      { field: 'signupFields[1].id', message: 'is not a sign-up field of this project' },
    ]);
    // nobody was created by the refusals
    expect(await usersOf(projectId)).toBe(0);

    const created = await post({ fullName: 'Terms Ticked', status: 'active', signupFields: [TICKED], signupLanguage: 'de' });
    expect(created.status).toBe(200);
    expect(await usersOf(projectId)).toBe(1);
    const read = await backendCall(server, host, 'GET', `/v2/users/${created.body.userID}`);
    expect(read.body.signupFields).toEqual([
      expect.objectContaining({
        id: 'terms',
        accepted: true,
        version: '2026-11',
        source: 'backend-api',
        shown: { language: 'de', label: 'Ich akzeptiere die [Nutzungsbedingungen]', url: 'https://shop.example/terms' },
      }),
    ]);
  });

  it('[security] import: a line without the required answers counts as refused with its reason; one with them is imported', async () => {
    const projectId = await createProject(server.url, { signupFields: [TERMS] });
    const project = (await server.api.store.projects.get(projectId))!;
    const [without, withTerms, outdated] = [uniqueEmail('import-none'), uniqueEmail('import-terms'), uniqueEmail('import-old')];
    const failures: { line: number; reason: string }[] = [];
    const lines = [
      { identifiers: [{ type: 'email', value: without, status: 'verified' }] },
      { identifiers: [{ type: 'email', value: withTerms, status: 'verified' }], signupFields: [TICKED] },
      { identifiers: [{ type: 'email', value: outdated, status: 'verified' }], signupFields: [{ ...TICKED, version: '2026-01' }] },
    ];
    async function* source() {
      for (const line of lines) yield JSON.stringify(line);
    }
    const result = await importUsers(server.api.store, project, source(), { now: () => server.clock.now, events: { record: async () => undefined, audit: async () => undefined }, onFailure: (f) => failures.push(f) });
    expect(result).toMatchObject({ lines: 3, created: 1, refused: 2 });
    expect(failures).toEqual([
      { line: 3, reason: "signupFields: the answer to terms is for another version of the field's text than its current one" },
      { line: 1, reason: 'signupFields: terms is required by the project (a ticked box for version 2026-11)' },
    ]);
    expect(await accountOf(projectId, without)).toBe(false);
    const [held] = await server.api.store.users.findValues(projectId, [{ type: 'email', normalized: withTerms }], false);
    expect(await server.api.store.users.listSignupFields(held!.userId)).toEqual([
      expect.objectContaining({ id: 'terms', accepted: true, version: '2026-11', source: 'import', shown: { language: 'en', label: TERMS.label.en, url: TERMS.url } }),
    ]);
  });
});
