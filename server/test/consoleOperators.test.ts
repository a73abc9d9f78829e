// `npm run admin -- operators …`: who may use the console, the console's own project, and the audit
// records of every change (server/console/operators.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealPending } from '../audit/sealer.ts';
import { adminErrorMessage, runAdmin } from '../admin.ts';
import { CONSOLE_PROJECT_ID } from '../console/operators.ts';
import { projectBuilder } from '../config/projectConfig.ts';
import { Store } from '../store/Store.ts';
import { databaseEnv, dropTestDatabase, testDatabase } from './helpers/testServer.ts';

const dir = mkdtempSync(join(tmpdir(), 'console-operators-'));
const env = { ...databaseEnv(dir), CONSOLE_PUBLIC_URL: 'https://console.example' };
let store: Store;
let projectId: string;

async function admin(...args: string[]): Promise<unknown> {
  return runAdmin(['operators', ...args], env);
}

async function refusal(...args: string[]): Promise<string> {
  try {
    await admin(...args);
  } catch (error) {
    return adminErrorMessage(error);
  }
  throw new Error(`operators ${args.join(' ')} was not refused`);
}

async function trail(): Promise<{ event: string; actor: string; target: string | null; details: string }[]> {
  await sealPending(store);
  return store.audit.page({ projectId: CONSOLE_PROJECT_ID }, 0, 100);
}

beforeAll(async () => {
  // opened first: on PostgreSQL this makes the test's schema, which the admin command then finds
  const { database, databaseSchema } = testDatabase(dir);
  store = await Store.open(database, databaseSchema ? { schema: databaseSchema } : {});
  // a project the admin and support operators can be given (the database has none before)
  projectId = (await store.projects.create(projectBuilder({ allowedOrigins: ['https://shop.example'] }, undefined), Date.now())).id;
});

afterAll(async () => {
  await store.close();
  await dropTestDatabase(dir);
});

describe('operators', () => {
  it('add makes the console project (sign-up closed) and a verified user of the address there, recorded with admin as actor', async () => {
    const added = (await admin('add', 'Owner@Example.com', '--role', 'owner')) as { id: string; email: string; role: string };
    expect(added).toMatchObject({ email: 'owner@example.com', role: 'owner' });
    const project = (await store.projects.get(CONSOLE_PROJECT_ID))!;
    expect(project).toMatchObject({ publicSignup: false, passkeys: true, allowedOrigins: ['https://console.example'], rpId: 'console.example' });
    expect(project.identifiers.email).toMatchObject({ enabled: true, verification: 'email-otp', loginIdentifier: true });
    const identifier = await store.users.findVerifiedIdentifier(CONSOLE_PROJECT_ID, 'email', 'owner@example.com');
    expect(identifier).toMatchObject({ status: 'verified', primary: true });
    expect((await trail()).find((r) => r.event === 'operator.added')).toMatchObject({ actor: 'admin', target: `operator:${added.id}` });
  });

  it('refuses a second operator of one address, a role it does not know, and admin or support without a project they may see', async () => {
    expect(await refusal('add', 'owner@example.com', '--role', 'owner')).toContain('email: is an operator already');
    expect(await refusal('add', 'x@example.com', '--role', 'root')).toContain('role: must be one of owner, admin, support');
    expect(await refusal('add', 'x@example.com', '--role', 'support')).toContain('projects: an support operator needs at least one project');
    expect(await refusal('add', 'x@example.com', '--role', 'admin', '--project', 'pro-4242')).toContain('projects: there is no project pro-4242');
    expect(await refusal('add', 'not-an-address', '--role', 'owner')).toContain('email: must be an e-mail address');
    expect(((await admin('list')) as unknown[]).length).toBe(1);
  });

  it('role and remove change the operator, end their console user, and keep the last owner', async () => {
    const support = (await admin('add', 'help@example.com', '--role', 'support', '--project', projectId)) as { id: string; projects: string[] };
    expect(support.projects).toEqual([projectId]);
    expect(await admin('role', 'help@example.com', 'admin')).toMatchObject({ role: 'admin', projects: [projectId] });
    expect(await refusal('remove', 'owner@example.com')).toContain('the last owner stays an owner');
    expect(await refusal('role', 'owner@example.com', 'support', '--project', projectId)).toContain('the last owner stays an owner');
    const userId = (await store.users.findVerifiedIdentifier(CONSOLE_PROJECT_ID, 'email', 'help@example.com'))!.userId;
    await admin('remove', support.id);
    expect(await store.users.get(userId)).toBeUndefined();
    expect(await store.operators.byEmail('help@example.com')).toBeUndefined();
    const events = (await trail()).filter((r) => r.target === `operator:${support.id}`).map((r) => [r.event, r.actor]);
    expect(events).toEqual([
      ['operator.added', 'admin'],
      ['operator.changed', 'admin'],
      ['operator.removed', 'admin'],
    ]);
  });
});
