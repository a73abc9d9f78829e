// The server as a deployer gets it: `npm pack` of the workspace, the tarball installed into an empty
// folder (nothing of the repository, no dev dependencies, and without the optional native SQLite
// module), its admin bin creating a project and its server bin starting in production mode against
// PostgreSQL; then a visitor signs up by an e-mail code that arrives over SMTP. It runs in the
// PostgreSQL pass of the suite (`npm run test:postgres`), which has the throw-away cluster.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './helpers/serverProcess.ts';
import { startSmtpSink, waitForMessages, type SmtpSink } from './helpers/smtpSink.ts';
import pg from 'pg';
import { Client, databaseEnv, dropTestDatabase, POSTGRES_URL, testDatabase, uniqueEmail } from './helpers/testServer.ts';

const SERVER_PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const SHOP = 'https://shop.example';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe.skipIf(!POSTGRES_URL)('the packed server package', { timeout: 180_000 }, () => {
  const folder = mkdtempSync(join(tmpdir(), 'server-package-'));
  const install = join(folder, 'deploy');
  let smtp: SmtpSink;
  let server: ServerProcess | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    // what prepack runs on `npm pack` or `npm publish`; the tarball lands outside the repository
    execFileSync('npm', ['run', 'build'], { cwd: SERVER_PACKAGE, stdio: 'ignore' });
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', folder], { cwd: SERVER_PACKAGE, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    ) as { filename: string; files: { path: string }[] }[];
    expect(packed[0]!.files.map((file) => file.path).sort()).toEqual([
      'README.md',
      'dist/admin.js',
      'dist/admin.js.map',
      'dist/catalogue.json',
      'dist/main.js',
      'dist/main.js.map',
      'package.json',
      'projects.json',
    ]);
    execFileSync('npm', ['init', '-y'], { cwd: folder, stdio: 'ignore', env: { ...process.env, npm_config_init_module: '' } });
    // from npm's cache where it has the packages (CI's `npm ci` filled it), else from the registry
    execFileSync('npm', ['install', '--omit=optional', '--prefer-offline', '--no-audit', '--no-fund', join(folder, packed[0]!.filename)], {
      cwd: folder,
      stdio: 'ignore',
    });
    // a deployer's database: an empty schema of its own
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${testDatabase(install).databaseSchema!}`);
    await admin.end();
    smtp = await startSmtpSink();
    const port = await freePort();
    env = {
      ...(databaseEnv(install) as Record<string, string>),
      CORBADO_ENV: 'production',
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      KEY_ENCRYPTION_SECRET: 'a-key-encryption-secret-of-forty-characters',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      SMTP_FROM: 'Shop <no-reply@shop.example>',
      SMS_COMMAND: '/bin/true',
    };
  }, 170_000);
  afterAll(async () => {
    await server?.stop();
    smtp?.close();
    await dropTestDatabase(install);
    rmSync(folder, { recursive: true, force: true });
  });

  it('installs without the repository, its dev dependencies or the native SQLite module', () => {
    const modules = join(folder, 'node_modules');
    expect(existsSync(join(modules, 'corbado-widget-server', 'dist', 'main.js'))).toBe(true);
    expect(existsSync(join(modules, 'corbado-widget-server', 'server'))).toBe(false);
    for (const absent of ['better-sqlite3', 'vitest', 'tsx', 'esbuild', 'typescript', 'react']) expect(readdirSync(modules)).not.toContain(absent);
    for (const bin of ['corbado-server', 'corbado-server-admin']) expect(existsSync(join(modules, '.bin', bin))).toBe(true);
  });

  it('creates a project with its admin bin, which runs the migrations on an empty database', () => {
    const config = join(folder, 'project.json');
    writeFileSync(config, JSON.stringify({ appName: 'Shop', allowedOrigins: [SHOP], passkeys: false }));
    const created = JSON.parse(
      execFileSync(join(folder, 'node_modules', '.bin', 'corbado-server-admin'), ['projects', 'create', config], { cwd: folder, env: { ...process.env, ...env }, encoding: 'utf8' }),
    ) as { id: string };
    expect(created.id).toMatch(/^pro-\d+$/);
    env.PROJECT_ID = created.id;
  });

  it('starts in production mode with its server bin and signs a visitor up by e-mail code', async () => {
    server = await startServerProcess(env, { command: join(folder, 'node_modules', '.bin', 'corbado-server'), args: [], cwd: folder });
    expect(server.output()).toContain('Frontend API (production)');
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(200);
    // production mode: no dev endpoints, no seeded projects
    expect((await fetch(`${server.url}/_dev/`)).status).toBe(404);
    expect((await new Client(server.url, 'pro-1', SHOP).init()).status).toBe(404);

    const client = new Client(server.url, env.PROJECT_ID!, SHOP);
    const init = await client.init({ isUserVerifyingPlatformAuthenticatorAvailable: false }, 'signup-init');
    expect(init.body.processResponse.common.frontendApiUrl).toBe(env.PUBLIC_URL);
    const email = uniqueEmail('packed');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    const mail = (await waitForMessages(smtp, 1)).at(-1)!;
    const code = /code for Shop is: (\d{6})/.exec(mail)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const done = await client.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false });
    expect(done.block).toBe('completed');
    expect(done.data.shortSession).toEqual(expect.any(String));
  });
});
