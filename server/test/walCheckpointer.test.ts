// The WAL's checkpoints run on a thread of their own once a database has seen some writes (issue 34):
// the commits on the event loop no longer copy pages into the database file and sync it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteDatabase } from '../store/SqliteDatabase.ts';
import type { CheckpointReport } from '../store/walCheckpointer.ts';

const dir = mkdtempSync(join(tmpdir(), 'fapi-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// about two pages of its own per row: each commit adds a few pages to the log
const ROW = 'x'.repeat(6000);

describe('the WAL checkpointer', () => {
  it('starts after the writes given, takes the checkpoints off the commits, and restarts a long log', { timeout: 60_000 }, async () => {
    const path = join(dir, 'a.sqlite');
    const db = await SqliteDatabase.open(path, [], { checkpointing: { intervalMs: 5, restartFrames: 30, startAfterWrites: 10 } });
    let rows: number | undefined;
    try {
      await db.exec('CREATE TABLE t (n INTEGER, body TEXT)'); // exec: not counted
      for (let n = 0; n < 10; n++) await db.run('INSERT INTO t (n, body) VALUES (?, ?)', [n, ROW]);
      expect(db.walCheckpointer()).toBeUndefined();
      expect(await db.get('PRAGMA wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 1000 });
      await db.transaction(() => db.run('INSERT INTO t (n, body) VALUES (?, ?)', [10, ROW]));
      const checkpointer = db.walCheckpointer();
      expect(checkpointer).toBeDefined();
      // SQLite's own checkpoint inside a commit only as a backstop, far above the thread's threshold (4 × it, at least 1,000)
      expect(await db.get('PRAGMA wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 1000 }); // SQLite's default, above 4 × 30

      const reports: (CheckpointReport | { error: string })[] = [];
      checkpointer!.reports((report) => reports.push(report));
      const rounds = () => reports.filter((r): r is CheckpointReport => !('error' in r));
      // a RESTART, then a later round that finds the log started again from its beginning (shorter)
      const restartedLog = () => {
        const all = rounds();
        const restart = all.findIndex((r) => r.mode === 'RESTART');
        return restart >= 0 && all.slice(restart + 1).some((r) => r.log < all[restart]!.log);
      };
      // transactions of about 80 and 20 pages in turn, with turns for the thread between them, until the
      // thread has restarted the log (on a busy machine the thread may take a while to start). On an idle
      // machine the thread catches up with every commit and SQLite itself rewinds the log, so a log grows
      // past the threshold only within one commit: the big ones cross it, the small ones do not
      let n = 0;
      let inserted = 0;
      for (const deadline = Date.now() + 30_000; !restartedLog() && Date.now() < deadline; n++) {
        const count = n % 2 ? 40 : 10;
        await db.transaction(async () => {
          for (let row = 0; row < count; row++) await db.run('INSERT INTO t (n, body) VALUES (?, ?)', [n, ROW]);
        });
        inserted += count;
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
      expect(reports.filter((r) => 'error' in r)).toEqual([]);
      // the thread copied the log into the database file, and restarted it once it grew past 30 pages
      expect(rounds().some((r) => r.checkpointed > 0)).toBe(true);
      expect(restartedLog()).toBe(true);
      for (const restart of rounds().filter((r) => r.mode === 'RESTART')) expect(restart.checkpointed).toBe(restart.log);
      rows = inserted + 11;
      expect(await db.get('SELECT count(*) AS n FROM t')).toEqual({ n: rows });
    } finally {
      await db.close();
    }
    // the thread closed its connection with the database: the file opens and reads as usual
    const again = await SqliteDatabase.open(path, [], { checkpointing: false });
    try {
      expect(await again.get('SELECT count(*) AS n FROM t')).toEqual({ n: rows });
      expect(again.walCheckpointer()).toBeUndefined();
    } finally {
      await again.close();
    }
  });

  it('is waited for when the database closes, also by a process with nothing else left to do', { timeout: 60_000 }, async () => {
    // the thread is unref'd: were it not held while stop() waits, a process whose last work is closing the
    // database would drop that wait and exit with code 13 before the close's next line (the bench did)
    const path = join(dir, 'c.sqlite');
    const script = `
      const { SqliteDatabase } = await import(${JSON.stringify(new URL('../store/SqliteDatabase.ts', import.meta.url).href)});
      const db = await SqliteDatabase.open(${JSON.stringify(path)}, [], { checkpointing: { intervalMs: 5, restartFrames: 300, startAfterWrites: 0 } });
      await db.exec('CREATE TABLE t (n INTEGER)');
      await db.transaction(() => db.run('INSERT INTO t (n) VALUES (1)'));
      if (!db.walCheckpointer()) throw new Error('no checkpointer started');
      await db.close();
      process.stdout.write('closed');
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 50_000 });
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toMatchObject({ status: 0, stdout: 'closed' });
  });

  it('is not started for a database in memory', async () => {
    const db = await SqliteDatabase.open(':memory:', [], { checkpointing: { intervalMs: 5, restartFrames: 300, startAfterWrites: 0 } });
    try {
      await db.exec('CREATE TABLE t (n INTEGER)');
      for (let n = 0; n < 3; n++) await db.run('INSERT INTO t (n) VALUES (?)', [n]);
      expect(db.walCheckpointer()).toBeUndefined();
    } finally {
      await db.close();
    }
  });
});
