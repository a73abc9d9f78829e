// Liveness and readiness (/health/alive, /health/ready) as an orchestrator or load balancer calls them:
// no project, no origin, no credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandSmsSender } from '../senders/SmsSender.ts';
import { SCHEMA_VERSION } from '../store/migrations.ts';
import { projectBuilder } from '../config/projectConfig.ts';
import { startTestServer, type TestServer } from './helpers/testServer.ts';

describe('health endpoints (development)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('liveness answers 200 without a project or origin, never cached', async () => {
    const res = await fetch(`${server.url}/health/alive`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('readiness answers 200 with each check when the database, the migrations and the signing key are in order', async () => {
    const res = await fetch(`${server.url}/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', signingKey: 'ok' } });
  });

  it('readiness answers 503 with the reason while the database lacks this version’s migrations, and 200 again after', async () => {
    const db = server.api.store.db;
    const newest = await db.get<{ version: number; name: string; applied_at: number }>('SELECT version, name, applied_at FROM schema_migrations WHERE version = ?', [
      SCHEMA_VERSION,
    ]);
    await db.run('DELETE FROM schema_migrations WHERE version = ?', [SCHEMA_VERSION]);
    try {
      const res = await fetch(`${server.url}/health/ready`);
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toMatch(/^\d+$/);
      const body = (await res.json()) as { status: string; checks: Record<string, string> };
      expect(body.status).toBe('unavailable');
      expect(body.checks.database).toBe('ok');
      expect(body.checks.migrations).toBe(`database at version ${SCHEMA_VERSION - 1}, this server needs ${SCHEMA_VERSION}`);
      // liveness is about the process only
      expect((await fetch(`${server.url}/health/alive`)).status).toBe(200);
    } finally {
      await db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [newest!.version, newest!.name, newest!.applied_at]);
    }
    expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
  });

  it('refuses other methods than GET (and HEAD) like any unknown route', async () => {
    const res = await fetch(`${server.url}/health/ready`, { method: 'POST' });
    expect(res.status).toBe(404);
  });
});

/** A production server's required settings, under `publicUrl`. */
const productionApi = (publicUrl: string) => ({
  mode: 'production' as const,
  publicUrl,
  smtp: { host: '127.0.0.1' },
  sms: new CommandSmsSender('/bin/true'),
  keyEncryptionSecret: 'a-secret-of-at-least-thirty-two-characters',
});

describe('health endpoints (production)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ api: productionApi('https://api.example') });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('are served, with the production security headers', async () => {
    for (const path of ['/health/alive', '/health/ready']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('Content-Security-Policy'), path).toContain("default-src 'none'");
      expect(res.headers.get('Strict-Transport-Security'), path).toContain('max-age=');
      expect(res.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
      expect(res.headers.get('Cross-Origin-Opener-Policy'), path).toBe('same-origin');
    }
  });
});

describe('projects whose pages are on another site than PUBLIC_URL (production)', () => {
  const api = productionApi('https://authsite.example');

  it('the start says which and what their visitors get, and readiness lists them while it stays ready', async () => {
    const first = await startTestServer({ api });
    const { store } = first.api;
    await store.projects.create(projectBuilder({ appName: 'Shop', allowedOrigins: ['https://shop.example', 'https://auth.authsite.example'], shortSessionLifetimeSeconds: 120 }, undefined), Date.now());
    await store.projects.create(projectBuilder({ appName: 'Blog', allowedOrigins: ['https://blog.example'], crossSiteSessions: 'storage' }, undefined), Date.now());
    await store.projects.create(projectBuilder({ appName: 'Own site', allowedOrigins: ['https://www.authsite.example'] }, undefined), Date.now());
    await first.stop(true);
    const lines: string[] = [];
    const server = await startTestServer({ dir: first.dir, api, logger: { info: (line) => lines.push(line), error: () => {} } });
    try {
      const notices = lines.filter((l) => l.includes('on another site than PUBLIC_URL'));
      expect(notices).toHaveLength(2);
      expect(notices[0]).toMatch(/^Project pro-\d+: https:\/\/shop\.example is on another site than PUBLIC_URL https:\/\/authsite\.example \(crossSiteSessions "short-only"\): .*Partitioned cookie.*\(Safari\/WebKit\) they stay signed in only for the short session \(120 s\)/);
      expect(notices[1]).toMatch(/https:\/\/blog\.example .*crossSiteSessions "storage".*page's storage/);
      const ready = await fetch(`${server.url}/health/ready`);
      expect(ready.status).toBe(200);
      const body = (await ready.json()) as { status: string; crossSite: { origins: string[]; crossSiteSessions: string; visitors: string }[] };
      expect(body.status).toBe('ok');
      expect(body.crossSite.map((p) => [p.origins, p.crossSiteSessions])).toEqual([
        [['https://shop.example'], 'short-only'],
        [['https://blog.example'], 'storage'],
      ]);
      expect(body.crossSite[0]!.visitors).toContain('short session (120 s)');
    } finally {
      await server.stop();
    }
  });
});
