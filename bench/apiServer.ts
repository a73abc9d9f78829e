// The Frontend API as a child process for the server load test, so that the load generator does not
// share an event loop (or a core) with the server. Prints one JSON line {"url": …} once listening.
// Usage: tsx bench/apiServer.ts <database: SQLite path or postgres:// URL> <demoOrigin>
import { startApi } from '../server/app.ts';

const [database, demoOrigin] = process.argv.slice(2);
if (!database || !demoOrigin) {
  console.error('usage: tsx bench/apiServer.ts <database> <demoOrigin>');
  process.exit(2);
}

const api = await startApi({
  port: 0,
  host: '127.0.0.1',
  database,
  demoOrigin,
  // the audit trail's cost: the bench measures the sign-up soak without it too
  ...(process.env.BENCH_AUDIT_TRAIL === 'off' ? { auditTrail: false } : {}),
  logger: { info: () => undefined, error: (message, error) => console.error(message, error) },
});
process.stdout.write(`${JSON.stringify({ url: api.url, pid: process.pid })}\n`);

let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  api.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// the parent going away (stdin closed) also ends the server
process.stdin.on('end', stop);
process.stdin.resume();
