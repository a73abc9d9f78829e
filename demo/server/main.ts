// Runs the local Frontend API: `tsx demo/server/main.ts`. Settings come from the environment
// (see README.md).
import { startApi } from './app.ts';
import type { SmtpSettings } from './senders/Messenger.ts';
import { socialOverridesFromEnv } from './social/providerClient.ts';

function smtpFromEnv(env: NodeJS.ProcessEnv): SmtpSettings | undefined {
  if (env.SMTP_URL) return { url: env.SMTP_URL, ...(env.SMTP_FROM ? { from: env.SMTP_FROM } : {}) };
  if (!env.SMTP_HOST) return undefined;
  return {
    host: env.SMTP_HOST,
    ...(env.SMTP_PORT ? { port: Number(env.SMTP_PORT) } : {}),
    ...(env.SMTP_USER ? { user: env.SMTP_USER } : {}),
    ...(env.SMTP_PASS ? { pass: env.SMTP_PASS } : {}),
    ...(env.SMTP_FROM ? { from: env.SMTP_FROM } : {}),
  };
}

const port = Number(process.env.API_PORT ?? 3001);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`API_PORT must be a port number, got ${process.env.API_PORT}`);
  process.exit(1);
}

const smtp = smtpFromEnv(process.env);
const api = await startApi({
  port,
  ...(process.env.API_HOST ? { host: process.env.API_HOST } : {}),
  databasePath: process.env.DATABASE_PATH ?? '.data/corbado.sqlite',
  ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}),
  demoOrigin: process.env.DEMO_ORIGIN ?? 'http://localhost:5173',
  ...(smtp ? { smtp } : {}),
  socialProviders: socialOverridesFromEnv(process.env),
  oauthSimulator: process.env.OAUTH_SIMULATOR !== 'off',
  ...(process.env.OAUTH_SIMULATOR_CLIENT_SECRET ? { simulatorClientSecret: process.env.OAUTH_SIMULATOR_CLIENT_SECRET } : {}),
});
console.info(`Frontend API listening on ${api.url} (dev outbox: ${api.url}/_dev/)`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.info(`${signal} received, shutting down`);
    api.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
