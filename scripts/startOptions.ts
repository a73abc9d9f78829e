// What `npm start` hands the Frontend API: every server variable read exactly as `npm run start:server`
// reads it (server/settings.ts: SOCIAL_*, METRICS_*, SMTP_*, PUBLIC_URL, TRUSTED_PROXIES, ...), with the
// defaults of the local pair: the Backend API on 3002, the console on 3003 and the demo pages' origin from DEMO_PORT (unless
// DEMO_ORIGIN names another, e.g. the https name of a TLS front).
import type { StartOptions } from '../server/app.ts';
import { startOptionsFromEnv } from '../server/settings.ts';

export function demoPortFromEnv(env: NodeJS.ProcessEnv): number {
  return Number(env.DEMO_PORT ?? 5173);
}

export function npmStartOptions(env: NodeJS.ProcessEnv, argv: readonly string[]): StartOptions {
  return startOptionsFromEnv({ BACKEND_API_PORT: '3002', CONSOLE_PORT: '3003', DEMO_ORIGIN: `http://localhost:${demoPortFromEnv(env)}`, ...env }, argv);
}
