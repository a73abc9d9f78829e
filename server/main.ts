// Runs the local Frontend API: `tsx server/main.ts [--production]`. Settings come from the
// environment (README.md, "Environment"); production mode refuses to start without what it needs.
import { startApi } from './app.ts';
import { startOptionsFromEnv } from './settings.ts';

let api;
try {
  const options = startOptionsFromEnv(process.env, process.argv.slice(2));
  api = await startApi(options);
  const mode = options.mode === 'production' ? 'production' : 'development';
  console.info(`Frontend API (${mode}) listening on ${api.url}${mode === 'development' ? ` (dev outbox: ${api.url}/_dev/)` : ''}`);
  if (api.backendApiUrl) console.info(`Backend API listening on ${api.backendApiUrl} (HTTP Basic: project id and an API secret from \`admin api-secret create <projectId>\`)`);
  if (api.consoleUrl) console.info(`Console listening on ${api.consoleUrl} (operators: \`npm run admin -- operators add <email> --role owner\`)`);
  if (options.sms) console.info(`SMS go to the ${options.sms.description}`);
  if (options.metricsEnabled) console.info(`Metrics at ${api.metricsUrl ?? api.url}/metrics${options.metricsToken ? ' (bearer token required)' : ''}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

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
