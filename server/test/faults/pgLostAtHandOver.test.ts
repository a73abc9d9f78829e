// A PostgreSQL connection ended by the server (FATAL 57P01: a restart, a shutdown) right as pg-pool hands
// it from a finished statement to a waiting transaction: the transaction fails as "database unavailable",
// the next call gets a new connection, and the process lives on. The scenario runs in a process of its
// own (helpers/pgLostAtHandOver.ts, against a stand-in server that sends the FATAL message in the same
// packet as an answer), since what failed before was the process: an 'error' event nobody listened to.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { START_BOUND_MS } from '../helpers/serverProcess.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('a connection the server ends as the pool hands it on', () => {
  it('fails the transaction that waited for it, not the process', { timeout: START_BOUND_MS + 20_000 }, async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', 'server/test/helpers/pgLostAtHandOver.ts'], { cwd: ROOT, timeout: START_BOUND_MS }, (_error, stdout, stderr) =>
        resolve({ code: child.exitCode, stdout, stderr }),
      );
    });
    expect(stderr).not.toContain("Unhandled 'error' event");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      plain: 'answered',
      transaction: expect.stringMatching(/^DatabaseUnavailable: /),
      after: 'answered',
    });
  });
});
