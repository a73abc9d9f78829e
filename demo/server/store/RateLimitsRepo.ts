// Sliding-window counters for the abuse limits: one row per counted event, kept in the database so
// that limits hold across restarts and across every instance sharing it.
import type { Database } from './Database.ts';

export interface WindowCount {
  count: number;
  /** when the oldest event still in the window happened (ms), if any */
  oldest: number | undefined;
}

/** Events older than this are deleted whatever their limit (the longest window is a day). */
const KEEP_MS = 24 * 3_600_000;
const PRUNE_EVERY = 500;

export class RateLimitsRepo {
  private recorded = 0;

  constructor(private readonly db: Database) {}

  /**
   * The events of `key` in the window ending now. Inside a transaction, the key stays locked until
   * commit, so two instances cannot both take the last free slot.
   */
  async count(key: string, windowMs: number, now: number): Promise<WindowCount> {
    if (this.db.dialect === 'postgres') await this.db.lockKey(`limit:${key}`);
    const row = await this.db.get<{ n: number; oldest: number | null }>(
      'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM rate_limit_hits WHERE key = ? AND at > ?',
      [key, now - windowMs],
    );
    return { count: Number(row?.n ?? 0), oldest: row?.oldest ?? undefined };
  }

  async record(key: string, now: number): Promise<void> {
    await this.db.run('INSERT INTO rate_limit_hits (key, at) VALUES (?, ?)', [key, now]);
    if (++this.recorded % PRUNE_EVERY === 0) await this.db.run('DELETE FROM rate_limit_hits WHERE at <= ?', [now - KEEP_MS]);
  }

  /** Forgets a key's events (a successful verification clears the failed attempts before it). */
  async clear(key: string): Promise<void> {
    await this.db.run('DELETE FROM rate_limit_hits WHERE key = ?', [key]);
  }
}
