// The OAuth `state` values handed to providers. Only their SHA-256 is stored; each is single-use and
// leads the provider's callback (a plain browser navigation without headers) back to its process.
import type { Database } from './Database.ts';

export interface OAuthStateRecord {
  stateHash: string;
  processId: string;
  provider: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  /** sha256 of the cookie the browser that started the sign-in received (null in states stored before it existed) */
  browserHash: string | null;
}

interface Row {
  state_hash: string;
  process_id: string;
  provider: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  browser_hash: string | null;
}

export class OAuthStatesRepo {
  constructor(private readonly db: Database) {}

  async insert(s: Omit<OAuthStateRecord, 'usedAt'>): Promise<void> {
    await this.db.run('INSERT INTO oauth_states (state_hash, process_id, provider, created_at, expires_at, browser_hash) VALUES (?, ?, ?, ?, ?, ?)', [
      s.stateHash,
      s.processId,
      s.provider,
      s.createdAt,
      s.expiresAt,
      s.browserHash,
    ]);
  }

  /** Marks the state used and returns it, or undefined when it is unknown, used or expired. Atomic. */
  async consume(stateHash: string, now: number): Promise<OAuthStateRecord | undefined> {
    const row = await this.db.get<Row>(
      'UPDATE oauth_states SET used_at = ? WHERE state_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING *',
      [now, stateHash, now],
    );
    if (!row) return undefined;
    return {
      stateHash: row.state_hash,
      processId: row.process_id,
      provider: row.provider,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      usedAt: row.used_at,
      browserHash: row.browser_hash,
    };
  }

  /** A new social start on the same process invalidates the older states. */
  async revokeForProcess(processId: string, now: number): Promise<void> {
    await this.db.run('UPDATE oauth_states SET used_at = ? WHERE process_id = ? AND used_at IS NULL', [now, processId]);
  }
}
