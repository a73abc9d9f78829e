import type { Database } from './Database.ts';

export interface SessionRecord {
  id: string;
  projectId: string;
  userId: string;
  orig: string;
  /** when the user logged in (this long session was issued) */
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  /** when the user last gave a fresh proof on the account page (recent log-in), if ever */
  reauthenticatedAt: number | null;
}

interface Row {
  id: string;
  project_id: string;
  user_id: string;
  orig: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  reauthenticated_at: number | null;
}

export class SessionsRepo {
  constructor(private readonly db: Database) {}

  async insert(s: Omit<SessionRecord, 'reauthenticatedAt'> & { tokenHash: string }): Promise<void> {
    await this.db.run('INSERT INTO sessions (id, token_hash, project_id, user_id, orig, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      s.id,
      s.tokenHash,
      s.projectId,
      s.userId,
      s.orig,
      s.createdAt,
      s.expiresAt,
    ]);
  }

  async findByTokenHash(tokenHash: string): Promise<SessionRecord | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM sessions WHERE token_hash = ?', [tokenHash]);
    return row && toRecord(row);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM sessions WHERE id = ?', [id]);
    return row && toRecord(row);
  }

  /** A user's long sessions, the newest first. */
  async listByUser(userId: string): Promise<SessionRecord[]> {
    const rows = await this.db.all<Row>('SELECT * FROM sessions WHERE user_id = ? ORDER BY created_at DESC, id DESC', [userId]);
    return rows.map(toRecord);
  }

  async revoke(id: string, now: number): Promise<void> {
    await this.db.run('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, id]);
  }

  /** Revokes every live session of a user (its address was just proven by someone who had none of them). */
  async revokeAllOfUser(userId: string, now: number): Promise<void> {
    await this.db.run('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL', [now, userId]);
  }

  async setChallenge(id: string, challenge: string | null): Promise<void> {
    await this.db.run('UPDATE sessions SET webauthn_challenge = ? WHERE id = ?', [challenge, id]);
  }

  /** Reads and clears the pending WebAuthn challenge in one step (single use). */
  takeChallenge(id: string): Promise<string | null> {
    return this.db.transaction(async () => {
      const row = await this.db.get<{ webauthn_challenge: string | null }>(`SELECT webauthn_challenge FROM sessions WHERE id = ?${this.db.forUpdate}`, [id]);
      await this.db.run('UPDATE sessions SET webauthn_challenge = NULL WHERE id = ?', [id]);
      return row?.webauthn_challenge ?? null;
    });
  }

  /** Records a fresh proof of the user for this long session (it counts as a log-in from now on). */
  async markReauthenticated(id: string, now: number): Promise<void> {
    await this.db.run('UPDATE sessions SET reauthenticated_at = ? WHERE id = ?', [now, id]);
  }

  async setReauthChallenge(id: string, challenge: string, expiresAt: number): Promise<void> {
    await this.db.run('UPDATE sessions SET reauth_challenge = ?, reauth_challenge_expires_at = ? WHERE id = ?', [challenge, expiresAt, id]);
  }

  /** Reads and clears the pending re-authentication challenge in one step; null when none or expired. */
  takeReauthChallenge(id: string, now: number): Promise<string | null> {
    return this.db.transaction(async () => {
      const row = await this.db.get<{ reauth_challenge: string | null; reauth_challenge_expires_at: number | null }>(
        `SELECT reauth_challenge, reauth_challenge_expires_at FROM sessions WHERE id = ?${this.db.forUpdate}`,
        [id],
      );
      await this.db.run('UPDATE sessions SET reauth_challenge = NULL, reauth_challenge_expires_at = NULL WHERE id = ?', [id]);
      return row?.reauth_challenge && (row.reauth_challenge_expires_at ?? 0) > now ? row.reauth_challenge : null;
    });
  }
}

function toRecord(row: Row): SessionRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    userId: row.user_id,
    orig: row.orig,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    reauthenticatedAt: row.reauthenticated_at,
  };
}
