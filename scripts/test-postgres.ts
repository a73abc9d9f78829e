// `npm run test:postgres`: the whole server suite again, on PostgreSQL instead of SQLite, then the
// scale-out sign-up (two API instances on one database) in Chromium. Starts a throw-away cluster from
// Debian's postgresql package; where that is not installed, says so and skips (exit 0).
import { spawnSync } from 'node:child_process';
import { postgresBin, startPostgresCluster } from './postgresCluster.ts';

const found = postgresBin();
if ('missing' in found) {
  console.info(`PostgreSQL tests SKIPPED: ${found.missing}.`);
  process.exit(0);
}

const cluster = await startPostgresCluster();
let status: number;
try {
  console.info(`PostgreSQL test cluster at ${cluster.url}`);
  const env = { ...process.env, TEST_DATABASE_URL: cluster.url };
  // the server's own tests: the project's other files (bundle size, publishing, scripts, bench) do not touch a database
  const suite = spawnSync('npx', ['vitest', 'run', '--project', 'server', 'server/'], { stdio: 'inherit', env });
  status = suite.status ?? 1;
  if (status === 0) {
    // a folder of its own for what Playwright writes: `npm test` runs the Chromium suite (test-results/) at the same time
    const scaleOut = spawnSync('npx', ['playwright', 'test', 'e2e/scaleOut.spec.ts', '--output', 'test-results/postgres'], {
      stdio: 'inherit',
      env: { ...env, SCALE_OUT_DATABASE_URL: cluster.url },
    });
    status = scaleOut.status ?? 1;
  }
} finally {
  cluster.stop();
}
process.exit(status);
