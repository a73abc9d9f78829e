// The real API in a process of its own, for tests that measure that process (its memory) without the
// test runner's allocations mixed in. Prints one JSON line {url} once listening; exits when its
// standard input closes (the parent ended or went away), removing its throw-away database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApi } from '../../app.ts';

const dir = mkdtempSync(join(tmpdir(), 'fapi-child-'));
const api = await startApi({
  port: 0,
  host: '127.0.0.1',
  database: join(dir, 'db.sqlite'),
  logger: { info: () => {}, error: () => {} },
});
process.stdout.write(`${JSON.stringify({ url: api.url })}\n`);

process.stdin.resume();
process.stdin.on('end', () => {
  void api.close().finally(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
