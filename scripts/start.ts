// `npm start`: the local Frontend API and the demo pages, on two origins on purpose.
// Ports: API_PORT (default 3001) and DEMO_PORT (default 5173); DATABASE_PATH (SQLite) or DATABASE_URL (PostgreSQL) picks the database.
import { startApi } from '../server/app.ts';
import { databaseFromEnv } from '../server/settings.ts';
import { startDemo } from '../demo/demoServer.ts';

const apiPort = Number(process.env.API_PORT ?? 3001);
const demoPort = Number(process.env.DEMO_PORT ?? 5173);
const demoOrigin = `http://localhost:${demoPort}`;

const api = await startApi({
  port: apiPort,
  database: databaseFromEnv(process.env),
  publicUrl: process.env.PUBLIC_URL,
  demoOrigin,
  ...(process.env.AAGUID_CATALOGUE ? { aaguidCatalogue: process.env.AAGUID_CATALOGUE } : {}),
});
// the demo's host backend checks the issuer the API writes: its PUBLIC_URL when it has one
const demo = await startDemo({ port: demoPort, apiUrl: api.url, ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}) });

console.info(`Frontend API: ${api.url}`);
console.info(`Demo pages:   ${demo.url}/  (${demo.url}/signup.html, /login.html, /account.html; ?project=pro-1 … pro-7)`);
console.info(`Dev outbox:   ${api.url}/_dev/`);

const stop = async () => {
  await Promise.allSettled([demo.close(), api.close()]);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
