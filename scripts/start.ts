// `npm start`: the local Frontend API and the demo pages, on two origins on purpose.
// Ports: API_PORT (default 3001), BACKEND_API_PORT (default 3002), CONSOLE_PORT (default 3003) and DEMO_PORT (default 5173); DATABASE_PATH
// (SQLite) or DATABASE_URL (PostgreSQL) picks the database. Every other server variable counts as for
// `npm run start:server` (scripts/startOptions.ts).
import { startApi } from '../server/app.ts';
import { createApiSecret } from '../server/backend/ApiSecrets.ts';
import { startDemo } from '../demo/demoServer.ts';
import { demoPortFromEnv, npmStartOptions } from './startOptions.ts';

const demoPort = demoPortFromEnv(process.env);
const api = await startApi(npmStartOptions(process.env, process.argv.slice(2)));
// the demo's host backend checks the issuer the API writes: its PUBLIC_URL when it has one
const demo = await startDemo({ port: demoPort, apiUrl: api.url, ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}) });

// a Backend API secret for the demo project, new at each start (the one the last start made is revoked);
// a secret that survives restarts comes from `npm run admin -- api-secret create pro-1`
const DEV_SECRET_PROJECT = 'pro-1';
const DEV_SECRET_LABEL = 'npm start';
console.info(`Frontend API: ${api.url}`);
if (api.backendApiUrl) {
  await api.store.apiSecrets.revokeLabelled(DEV_SECRET_PROJECT, DEV_SECRET_LABEL, Date.now());
  const devSecret = await createApiSecret(api.store, DEV_SECRET_PROJECT, DEV_SECRET_LABEL, Date.now());
  console.info(`Backend API:  ${api.backendApiUrl}  (${DEV_SECRET_PROJECT}, API secret for this run: ${devSecret.secret})`);
}
if (api.consoleUrl) {
  // development: an owner of the console, and a link that signs this machine's browser in as it (once)
  const link = api.consoleSignInLink ? await api.consoleSignInLink() : undefined;
  console.info(`Console:      ${api.consoleUrl}/${link ? `  (development owner, one-time sign-in: ${link})` : ''}`);
}
console.info(`Demo pages:   ${demo.url}/  (${demo.url}/signup.html, /login.html, /account.html; ?project=pro-1 … pro-7)`);
console.info(`Dev outbox:   ${api.url}/_dev/`);

const stop = async () => {
  await Promise.allSettled([demo.close(), api.close()]);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
