// Attack class: a production server run in an unsafe configuration. Production used to start with
// PUBLIC_URL=notaurl or http://…, and on a development database it served the seeded demo projects
// (localhost origins, `environment: dev`, which hands long sessions out in response bodies). It now
// refuses to start, naming each problem and how to fix it; a clean configuration still starts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAdmin } from '../../admin.ts';
import type { StartOptions } from '../../app.ts';
import { publicUrlProblem } from '../../productionReadiness.ts';
import { CommandSmsSender } from '../../senders/SmsSender.ts';
import { Client, dropTestDatabase, POSTGRES_URL, startTestServer, testDatabase, type TestServer } from '../helpers/testServer.ts';

const SHOP = 'https://shop.example';

/** Everything production needs, on a given PUBLIC_URL. */
function production(publicUrl = 'https://auth.shop.example'): Partial<StartOptions> {
  return {
    mode: 'production',
    publicUrl,
    smtp: { host: '127.0.0.1' },
    sms: new CommandSmsSender('/bin/true'),
    keyEncryptionSecret: 'a-key-encryption-secret-of-forty-characters',
  };
}

/** The admin command's environment for a test server's database (a SQLite file or its PostgreSQL schema). */
function adminEnv(dir: string): NodeJS.ProcessEnv {
  const { database, databaseSchema } = testDatabase(dir);
  if (!POSTGRES_URL) return { DATABASE_PATH: database };
  return { DATABASE_URL: `${database}?options=${encodeURIComponent(`-c search_path=${databaseSchema}`)}` };
}

function admin(dir: string, ...args: (string | object)[]): Promise<unknown> {
  const files = args.map((a) => {
    if (typeof a === 'string') return a;
    const file = join(mkdtempSync(join(tmpdir(), 'fapi-admin-')), 'project.json');
    writeFileSync(file, JSON.stringify(a));
    return file;
  });
  return runAdmin(files, adminEnv(dir));
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await dropTestDatabase(dir);
});

/** A production server on an empty database; stopped again, its database kept for the next start. */
async function emptyProductionDatabase(): Promise<string> {
  const server = await startTestServer({ api: production() });
  dirs.push(server.dir);
  await server.stop(true);
  return server.dir;
}

async function startsInProduction(dir: string, publicUrl?: string): Promise<TestServer> {
  const server = await startTestServer({ dir, api: production(publicUrl) });
  await server.stop(true);
  return server;
}

describe('PUBLIC_URL in production', () => {
  it('must be an absolute https URL; http only for the local machine', async () => {
    for (const bad of ['notaurl', '/relative', 'auth.shop.example', 'http://auth.shop.example', 'http://10.0.0.5:3001', 'ftp://auth.shop.example']) {
      const attempt = startTestServer({ api: production(bad) });
      await expect(attempt, bad).rejects.toThrow(/Production mode refuses to start: PUBLIC_URL must be an (absolute )?https URL/);
    }
    await expect(startTestServer({ api: production('https://user:secret@auth.shop.example') })).rejects.toThrow(/PUBLIC_URL must be a plain base URL/);
    for (const good of ['https://auth.shop.example', 'https://shop.example/auth', 'http://localhost:3001', 'http://127.0.0.1:3001', 'http://[::1]:3001']) {
      expect(publicUrlProblem(good), good).toBeUndefined();
    }
    const dir = await emptyProductionDatabase();
    await startsInProduction(dir, 'http://localhost:3001');
  });
});

describe('social providers in production', () => {
  it('refuses a provider URL that is the simulator’s path or plain http, naming the variable; the real providers are the defaults', async () => {
    const attempt = startTestServer({
      api: { ...production(), socialProviders: { google: { issuer: '/_dev/oauth/google' }, github: { emailsUrl: 'http://ghe.example/api/v3/user/emails' } } },
    });
    await expect(attempt).rejects.toThrow(/SOCIAL_GOOGLE_ISSUER must be an absolute https URL.*SOCIAL_GITHUB_EMAILS_URL must be an absolute https URL/);
    const dir = await emptyProductionDatabase();
    const server = await startTestServer({ dir, api: { ...production(), socialProviders: { github: { tokenUrl: 'http://localhost:8080/token' } } } });
    await server.stop(true);
  });
});

describe('projects in production', () => {
  it('a development database: refuses its seeded projects, naming each and how to fix it; starts once they are replaced', async () => {
    const seedFile = join(mkdtempSync(join(tmpdir(), 'fapi-seed-')), 'projects.json');
    writeFileSync(seedFile, JSON.stringify([{ id: 'pro-7', appName: 'Seeded', environment: 'dev' }]));
    const dev = await startTestServer({ api: { seedFile } });
    dirs.push(dev.dir);
    await dev.stop(true);

    const refused = startTestServer({ dir: dev.dir, api: production() });
    await expect(refused).rejects.toThrow(/project pro-7 came from the development seed \(projects\.json\).*npm run admin -- projects update pro-7/);
    await expect(startTestServer({ dir: dev.dir, api: production() })).rejects.toThrow(/project pro-7 has environment "dev"; set "environment": "prod"/);
    expect(await admin(dev.dir, 'projects', 'list')).toEqual([expect.objectContaining({ id: 'pro-7', source: 'projects.json (development seed)' })]);

    await admin(dev.dir, 'projects', 'update', 'pro-7', { appName: 'Shop', allowedOrigins: [SHOP] });
    expect(await admin(dev.dir, 'projects', 'list')).toEqual([expect.objectContaining({ id: 'pro-7', source: 'created' })]);
    const server = await startTestServer({ dir: dev.dir, api: production() });
    try {
      expect((await new Client(server.url, 'pro-7', SHOP).request('GET', '/v2/session-config')).status).toBe(200);
    } finally {
      await server.stop(true);
    }
  });

  it('refuses a project with environment "dev"', async () => {
    const dir = await emptyProductionDatabase();
    const { id } = (await admin(dir, 'projects', 'create', { appName: 'Shop', allowedOrigins: [SHOP], environment: 'dev' })) as { id: string };
    await expect(startTestServer({ dir, api: production() })).rejects.toThrow(
      new RegExp(`project ${id} has environment "dev"; set "environment": "prod": run \`npm run admin -- projects update ${id} <file.json>\``),
    );
    await admin(dir, 'projects', 'update', id, { appName: 'Shop', allowedOrigins: [SHOP], environment: 'prod' });
    await startsInProduction(dir);
  });

  it('refuses a project allowing an http origin other than the local machine', async () => {
    const dir = await emptyProductionDatabase();
    const { id } = (await admin(dir, 'projects', 'create', { appName: 'Shop', allowedOrigins: [SHOP, 'http://shop.example', 'http://localhost:8080'] })) as { id: string };
    const refused = startTestServer({ dir, api: production() });
    await expect(refused).rejects.toThrow(new RegExp(`project ${id} allows http origins http://shop\\.example; list https origins instead`));
    await admin(dir, 'projects', 'update', id, { appName: 'Shop', allowedOrigins: [SHOP, 'http://localhost:8080', 'http://127.0.0.1:8080'] });
    await startsInProduction(dir);
  });

  it('names every problem at once', async () => {
    const dir = await emptyProductionDatabase();
    await admin(dir, 'projects', 'create', { appName: 'A', allowedOrigins: ['http://a.example'], environment: 'dev' });
    const attempt = startTestServer({ dir, api: { ...production('http://auth.shop.example'), smtp: undefined } });
    await expect(attempt).rejects.toThrow(/Production mode needs: SMTP_URL or SMTP_HOST.*\. Production mode refuses to start: PUBLIC_URL must be an https URL.*environment "dev".*allows http origins/);
  });

  it('a clean production configuration starts and serves its projects', async () => {
    const dir = await emptyProductionDatabase();
    const { id } = (await admin(dir, 'projects', 'create', { appName: 'Shop', allowedOrigins: [SHOP] })) as { id: string };
    const server = await startTestServer({ dir, api: production() });
    try {
      const client = new Client(server.url, id, SHOP);
      expect((await client.init({}, 'signup-init')).status).toBe(200);
    } finally {
      await server.stop(true);
    }
  });
});
