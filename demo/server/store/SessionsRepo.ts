import type { Database } from './Database.ts';

export interface SessionRecord {
  id: string;
  projectId: string;
  userId: string;
  orig: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

interface Row {
  id: string;
  project_id: string;
  user_id: string;
  orig: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export class SessionsRepo {
  constructor(private readonly db: Database) {}

  async insert(s: SessionRecord & { tokenHash: string }): Promise<void> {
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
    return (
      row && {
        id: row.id,
        projectId: row.project_id,
        userId: row.user_id,
        orig: row.orig,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        revokedAt: row.revoked_at,
      }
    );
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
}
