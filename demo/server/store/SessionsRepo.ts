import type { Db } from './openDatabase.ts';

export interface SessionRecord {
  id: string;
  projectId: string;
  userId: string;
  orig: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export class SessionsRepo {
  constructor(private readonly db: Db) {}

  insert(s: SessionRecord & { tokenHash: string }): void {
    this.db
      .prepare(
        'INSERT INTO sessions (id, token_hash, project_id, user_id, orig, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(s.id, s.tokenHash, s.projectId, s.userId, s.orig, s.createdAt, s.expiresAt);
  }

  findByTokenHash(tokenHash: string): SessionRecord | undefined {
    const row = this.db.prepare('SELECT * FROM sessions WHERE token_hash = ?').get(tokenHash) as
      | { id: string; project_id: string; user_id: string; orig: string; created_at: number; expires_at: number; revoked_at: number | null }
      | undefined;
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

  revoke(id: string, now: number): void {
    this.db.prepare('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id);
  }

  setChallenge(id: string, challenge: string | null): void {
    this.db.prepare('UPDATE sessions SET webauthn_challenge = ? WHERE id = ?').run(challenge, id);
  }

  /** Reads and clears the pending WebAuthn challenge in one step (single use). */
  takeChallenge(id: string): string | null {
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT webauthn_challenge FROM sessions WHERE id = ?').get(id) as
        | { webauthn_challenge: string | null }
        | undefined;
      this.db.prepare('UPDATE sessions SET webauthn_challenge = NULL WHERE id = ?').run(id);
      return row?.webauthn_challenge ?? null;
    })();
  }
}
