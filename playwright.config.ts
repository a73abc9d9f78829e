import { defineConfig } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, chromiumPath } from './e2e/chromium';

// End to end: the built bundle, the demo pages and the real Frontend API on two origins, in Debian's
// Chromium (never a downloaded browser). Ports differ from `npm start` so both can run at once.
const DEMO_PORT = Number(process.env.E2E_DEMO_PORT ?? 5174);
const API_PORT = Number(process.env.E2E_API_PORT ?? 3102);
const BACKEND_API_PORT = Number(process.env.E2E_BACKEND_API_PORT ?? API_PORT + 1);
// the console's listener (issue 33; e2e/console.spec.ts)
const CONSOLE_PORT = Number(process.env.E2E_CONSOLE_PORT ?? 3109);
process.env.E2E_API_URL = `http://localhost:${API_PORT}`;
process.env.E2E_BACKEND_API_URL = `http://localhost:${BACKEND_API_PORT}`;
process.env.E2E_CONSOLE_URL = `http://localhost:${CONSOLE_PORT}`;
// the tests run the admin command on the server's database (API secrets, users import); workers inherit it
process.env.E2E_DATABASE_PATH ??= join(tmpdir(), `corbado-e2e-${process.pid}-${Date.now()}.sqlite`);

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/globalSetup.ts',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  workers: 3,
  retries: 0,
  // `list` prints a failure's error at the run's end, just above the summary: the end of a CI log (all
  // that is kept of it) says why a test failed, not only which (`line` prints it where it happened)
  reporter: 'list',
  use: {
    baseURL: `http://localhost:${DEMO_PORT}`,
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    // a failed test keeps a screenshot of its end, and outside CI its trace: each action's DOM snapshot,
    // the network, the console; not the screencast of every frame, which was a fifth to a quarter of the
    // suite's CPU (measured: 98–108 s of CPU for four files with it, 79 s without, 72–78 s with no trace).
    // Under CI (.ci/run) nobody opens a trace, and recording one for every test costs another tenth of the
    // Chromium suite's CPU (the same four files: 69 and 72 s without, 77 and 80 s with, alternating):
    // `npx playwright test --trace retain-on-failure` records them there too.
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'npx tsx scripts/start.ts',
    url: `http://localhost:${DEMO_PORT}/config.js`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    env: {
      DEMO_PORT: String(DEMO_PORT),
      API_PORT: String(API_PORT),
      BACKEND_API_PORT: String(BACKEND_API_PORT),
      CONSOLE_PORT: String(CONSOLE_PORT),
      DATABASE_PATH: process.env.E2E_DATABASE_PATH,
    },
  },
});
