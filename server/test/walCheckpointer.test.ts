// The WAL's checkpoints run on a thread of their own once a database has seen some writes (issue 34):
// the commits on the event loop no longer copy pages into the database file and sync it.
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
    const db = await SqliteDatabase.open(path, [], { checkpointing: { intervalMs: 5, restartFrames: 300, startAfterWrites: 10 } });
    let rows: number | undefined;
    try {
      await db.exec('CREATE TABLE t (n INTEGER, body TEXT)'); // exec: not counted
      for (let n = 0; n < 10; n++) await db.run('INSERT INTO t (n, body) VALUES (?, ?)', [n, ROW]);
      expect(db.walCheckpointer()).toBeUndefined();
      expect(await db.get('PRAGMA wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 1000 });
      await db.transaction(() => db.run('INSERT INTO t (n, body) VALUES (?, ?)', [10, ROW]));
      const checkpointer = db.walCheckpointer();
      expect(checkpointer).toBeDefined();
      // SQLite's own checkpoint inside a commit only as a backstop, far above the thread's threshold
      expect(await db.get('PRAGMA wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 1200 });

      const reports: (CheckpointReport | { error: string })[] = [];
      checkpointer!.reports((report) => reports.push(report));
      const rounds = () => reports.filter((r): r is CheckpointReport => !('error' in r));
      // a RESTART, then a later round that finds the log started again from its beginning (shorter)
      const restartedLog = () => {
        const all = rounds();
        const restart = all.findIndex((r) => r.mode === 'RESTART');
        return restart >= 0 && all.slice(restart + 1).some((r) => r.log < all[restart]!.log);
      };
      // small transactions (about three pages each), with turns for the thread between them, until the
      // thread has restarted the log (on a busy machine the thread may take a while to start)
      let n = 0;
      for (const deadline = Date.now() + 30_000; !restartedLog() && Date.now() < deadline; n++) {
        await db.transaction(() => db.run('INSERT INTO t (n, body) VALUES (?, ?)', [n, ROW]));
        if (n % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(reports.filter((r) => 'error' in r)).toEqual([]);
      // the thread copied the log into the database file, and restarted it once it grew past 300 pages
      expect(rounds().some((r) => r.checkpointed > 0)).toBe(true);
      expect(restartedLog()).toBe(true);
      for (const restart of rounds().filter((r) => r.mode === 'RESTART')) expect(restart.checkpointed).toBe(restart.log);
      rows = n + 11;
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
