// Attack class: mail and SMS bombing across projects. One server hosts many projects; each counts its
// own sends per address, so before the server-wide limit an attacker made four projects (or one that
// relaxes its own limit) send one victim 20 mails in 15 minutes. The server now also counts sends per
// address across all its projects; plain HTTP calls as an attacker would make them.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVER_RATE_LIMITS } from '../../config/rateLimits.ts';
import { startOptionsFromEnv } from '../../settings.ts';
import { Client, createProject, outbox, serverForThisFile, uniqueEmail, uniquePhone, type ApiResponse } from '../helpers/testServer.ts';

const WITHOUT_PASSKEYS = { isUserVerifyingPlatformAuthenticatorAvailable: false };
const FIFTEEN_MINUTES = 15 * 60;

const server = serverForThisFile({ api: { serverLimits: { smsSendsPerIdentifier: { max: 4, windowSeconds: 600 } } } });

/** A fresh process of `projectId` asking to sign `identifier` up: one code sent, or a refusal. */
async function signUp(projectId: string, type: 'email' | 'phone', identifier: string): Promise<ApiResponse> {
  const client = new Client(server.url, projectId);
  expect((await client.init(WITHOUT_PASSKEYS, 'signup-init')).status).toBe(200);
  return client.request('POST', '/v2/auth/signup/init', { identifiers: [{ type, identifier }] });
}

function expectRefusedAcrossProjects(res: ApiResponse, windowSeconds: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ httpStatusCode: 429, message: 'Too many requests', error: { type: 'too_many_requests' } });
  expect(res.body.error.details).toMatch(/across projects/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds * 1.1);
}

describe('sends per address across the projects of one server', () => {
  it('default to 10 e-mails and 6 SMS per address in 15 minutes', () => {
    expect(DEFAULT_SERVER_RATE_LIMITS).toEqual({
      emailSendsPerIdentifier: { max: 10, windowSeconds: 900 },
      smsSendsPerIdentifier: { max: 6, windowSeconds: 900 },
    });
  });

  it('one address, four projects: the eleventh e-mail is refused whatever the project; another address is unaffected', async () => {
    // four projects, each well within its own limit of 5 per address
    const projects = [];
    for (let i = 0; i < 4; i++) projects.push(await createProject(server.url, { fullNameRequired: false }));
    const victim = uniqueEmail('victim');
    const answers: number[] = [];
    for (const id of projects) for (let i = 0; i < 3; i++) answers.push((await signUp(id, 'email', victim)).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    expect(await outbox(server.url, victim)).toHaveLength(10);

    // every project refuses it now, even one that has not sent it anything
    const fifth = await createProject(server.url, { fullNameRequired: false });
    expectRefusedAcrossProjects(await signUp(fifth, 'email', victim), FIFTEEN_MINUTES);
    expect(await outbox(server.url, victim)).toHaveLength(10);

    // somebody else's address is not affected, on the same projects
    const other = uniqueEmail('bystander');
    expect((await signUp(projects[3]!, 'email', other)).status).toBe(200);
    expect((await signUp(fifth, 'email', other)).status).toBe(200);
    expect(await outbox(server.url, other)).toHaveLength(2);

    // the window passes: the address gets mail again
    server.clock.advance(FIFTEEN_MINUTES * 1100 + 1000);
    expect((await signUp(projects[0]!, 'email', victim)).status).toBe(200);
  });

  it('hold for a project that relaxes its own per-address limit', async () => {
    const lax = await createProject(server.url, { fullNameRequired: false, limits: { emailSendsPerIdentifier: { max: 1000 } } });
    const victim = uniqueEmail('relaxed');
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) answers.push((await signUp(lax, 'email', victim)).status);
    expect(answers.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(answers[10]).toBe(429);
    expect(await outbox(server.url, victim)).toHaveLength(10);
  });

  it('count SMS per number as the server is configured, apart from e-mails', async () => {
    const phoneProject = () => createProject(server.url, { identifiers: { phone: { verification: 'phone-otp' } }, passkeys: false, fullNameRequired: false });
    const [first, second] = [await phoneProject(), await phoneProject()];
    const victim = uniquePhone();
    const answers = [];
    for (const id of [first, second, first, second, first]) answers.push((await signUp(id, 'phone', victim)).status);
    // each project sent two (its own limit is 3); the server's limit of 4 refuses the fifth
    expect(answers).toEqual([200, 200, 200, 200, 429]);
    expect(await outbox(server.url, victim)).toHaveLength(4);
    expect((await signUp(second, 'phone', uniquePhone())).status).toBe(200);
  });

  it('are server settings: SERVER_EMAIL_SENDS_PER_IDENTIFIER and SERVER_SMS_SENDS_PER_IDENTIFIER', () => {
    expect(startOptionsFromEnv({}, []).serverLimits).toEqual({});
    expect(startOptionsFromEnv({ SERVER_EMAIL_SENDS_PER_IDENTIFIER: '20', SERVER_SMS_SENDS_PER_IDENTIFIER: '2/3600' }, []).serverLimits).toEqual({
      emailSendsPerIdentifier: { max: 20, windowSeconds: 900 },
      smsSendsPerIdentifier: { max: 2, windowSeconds: 3600 },
    });
    for (const bad of ['0', 'ten', '5/0', '5/90000', '-1']) {
      expect(() => startOptionsFromEnv({ SERVER_EMAIL_SENDS_PER_IDENTIFIER: bad }, [])).toThrow(/SERVER_EMAIL_SENDS_PER_IDENTIFIER must be/);
    }
  });
});
