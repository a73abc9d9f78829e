// Sliding-window counters for the abuse limits, kept in the database so that limits hold across
// restarts and across every instance sharing it. A window is counted in ten buckets: an event stays
// counted until its whole bucket has left the window, so a limit errs by at most a tenth of its
// window towards caution, and a key never has more than eleven rows however busy it is. Each
// statement stands alone (an upsert of one bucket row is atomic), so counting takes no lock that
// other requests would wait for.
import type { Database } from './Database.ts';

export interface WindowCount {
  count: number;
  /** when the oldest counted bucket leaves the window (ms), if any */
  freesAt: number | undefined;
}

export const BUCKETS_PER_WINDOW = 10;
/** Buckets older than this are deleted whatever their limit (the longest window is a day). */
const KEEP_MS = 2 * 24 * 3_600_000;
const PRUNE_EVERY = 1000;

function bucketMs(windowMs: number): number {
  return Math.max(1, Math.ceil(windowMs / BUCKETS_PER_WINDOW));
}

export class RateLimitsRepo {
  private recorded = 0;

  constructor(private readonly db: Database) {}

  /** The events of `key` in the window ending now. */
  async count(key: string, windowMs: number, now: number): Promise<WindowCount> {
    return (await this.countAll([{ key, windowMs }], now))[0]!;
  }

  /**
   * The events of each key in its window ending now, in the order given, in one statement (an attempt
   * checks its identifier's and its address's windows: one round trip, not two).
   */
  async countAll(windows: readonly { key: string; windowMs: number }[], now: number): Promise<WindowCount[]> {
    const rows = await this.db.all<{ i: number; n: number | null; oldest: number | null }>(
      windows.map((_, i) => `SELECT ${i} AS i, SUM(count) AS n, MIN(bucket) AS oldest FROM rate_limit_buckets WHERE key = ? AND bucket > ?`).join(' UNION ALL '),
      windows.flatMap(({ key, windowMs }) => [key, now - windowMs - bucketMs(windowMs)]),
    );
    const found = new Map(rows.map((row) => [Number(row.i), row]));
    return windows.map(({ windowMs }, i) => {
      const row = found.get(i);
      const oldest = row?.oldest ?? undefined;
      return { count: Number(row?.n ?? 0), freesAt: oldest === undefined ? undefined : Number(oldest) + bucketMs(windowMs) + windowMs };
    });
  }

  /** Counts one event now (`delta` -1 takes one back). */
  async record(key: string, windowMs: number, now: number, delta: 1 | -1 = 1): Promise<void> {
    const size = bucketMs(windowMs);
    await this.db.run(
      `INSERT INTO rate_limit_buckets (key, bucket, count) VALUES (?, ?, ?)
       ON CONFLICT (key, bucket) DO UPDATE SET count = rate_limit_buckets.count + excluded.count`,
      [key, Math.floor(now / size) * size, delta],
    );
    if (++this.recorded % PRUNE_EVERY === 0) await this.db.run('DELETE FROM rate_limit_buckets WHERE bucket < ?', [now - KEEP_MS]);
  }
}
