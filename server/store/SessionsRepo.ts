import type { Database } from './Database.ts';

export interface SessionRecord {
  id: string;
  projectId: string;
  userId: string;
  orig: string;
  /** sha256 of the long session's current value (it changes at each rotation) */
  tokenHash: string;
  /** when the user logged in (this long session was issued) */
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  /** when the user last gave a fresh proof on the account page (recent log-in), if ever */
  reauthenticatedAt: number | null;
  /** the browser and operating system it was issued to, from the User-Agent ('' before migration 12) */
  browser: string;
  os: string;
  /** the last refresh, if any since the log-in */
  lastUsedAt: number | null;
}

interface Row {
  id: string;
  token_hash: string;
  project_id: string;
  user_id: string;
  orig: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  reauthenticated_at: number | null;
  browser: string;
  os: string;
  last_used_at: number | null;
}

function toRecord(row: Row): SessionRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    userId: row.user_id,
    orig: row.orig,
    tokenHash: row.token_hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    reauthenticatedAt: row.reauthenticated_at,
    browser: row.browser,
    os: row.os,
    lastUsedAt: row.last_used_at,
  };
}

type NewSession = Omit<SessionRecord, 'reauthenticatedAt' | 'lastUsedAt'>;

const INSERT_SESSION = 'INSERT INTO sessions (id, token_hash, project_id, user_id, orig, created_at, expires_at, browser, os) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';

const insertParams = (s: NewSession) => [s.id, s.tokenHash, s.projectId, s.userId, s.orig, s.createdAt, s.expiresAt, s.browser, s.os];

export class SessionsRepo {
  constructor(private readonly db: Database) {}

  async insert(s: NewSession): Promise<void> {
    await this.db.run(INSERT_SESSION, insertParams(s));
  }

  /** insert at the transaction's commit (Database.writeAtCommit): for a session nothing reads before it. */
  insertAtCommit(s: NewSession): void {
    this.db.writeAtCommit(INSERT_SESSION, insertParams(s));
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

  /** The session a value that a rotation replaced belonged to, and when it was replaced. */
  async findRetired(tokenHash: string): Promise<{ sessionId: string; retiredAt: number } | undefined> {
    const row = await this.db.get<{ session_id: string; retired_at: number }>('SELECT session_id, retired_at FROM retired_session_tokens WHERE token_hash = ?', [tokenHash]);
    return row && { sessionId: row.session_id, retiredAt: row.retired_at };
  }

  /**
   * Replaces the session's value `fromHash` by `toHash` and keeps the old one as retired; false when
   * the session no longer holds `fromHash` (a concurrent refresh rotated it first) or has ended.
   */
  rotate(id: string, fromHash: string, toHash: string, now: number): Promise<boolean> {
    return this.db.transaction(async () => {
      const changed = await this.db.run('UPDATE sessions SET token_hash = ?, last_used_at = ? WHERE id = ? AND token_hash = ? AND revoked_at IS NULL', [
        toHash,
        now,
        id,
        fromHash,
      ]);
      if (changed === 0) return false;
      await this.db.run('INSERT INTO retired_session_tokens (token_hash, session_id, retired_at) VALUES (?, ?, ?)', [fromHash, id, now]);
      return true;
    });
  }

  async touch(id: string, now: number): Promise<void> {
    await this.db.run('UPDATE sessions SET last_used_at = ? WHERE id = ?', [now, id]);
  }

  /** A user's live sessions in a project, the most recently used first. */
  async listLive(userId: string, projectId: string, now: number): Promise<SessionRecord[]> {
    const rows = await this.db.all<Row>(
      'SELECT * FROM sessions WHERE user_id = ? AND project_id = ? AND revoked_at IS NULL AND expires_at > ? ORDER BY COALESCE(last_used_at, created_at) DESC, id',
      [userId, projectId, now],
    );
    return rows.map(toRecord);
  }

  /** Ends a session; whether it was live (not ended, not expired) until now. */
  async revoke(id: string, now: number): Promise<boolean> {
    const ended = await this.db.all<{ expires_at: number | string }>('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING expires_at', [now, id]);
    return ended.some((s) => Number(s.expires_at) > now);
  }

  /** Ends one live session if it is the user's; the number ended (0 or 1). */
  revokeOwned(id: string, userId: string, now: number): Promise<number> {
    return this.db.run('UPDATE sessions SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?', [now, id, userId, now]);
  }

  /** Ends every live session of the user but `keepId`; the ids of those ended. */
  async revokeOthers(userId: string, keepId: string, now: number): Promise<string[]> {
    const ended = await this.db.all<{ id: string }>(
      'UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND id <> ? AND revoked_at IS NULL AND expires_at > ? RETURNING id',
      [now, userId, keepId, now],
    );
    return ended.map((s) => s.id);
  }

  /** Revokes every session of a user not ended yet (a takeover, a disabled user); the ids of those that were live. */
  async revokeAllOfUser(userId: string, now: number): Promise<string[]> {
    const ended = await this.db.all<{ id: string; expires_at: number | string }>(
      'UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL RETURNING id, expires_at',
      [now, userId],
    );
    return ended.filter((s) => Number(s.expires_at) > now).map((s) => s.id);
  }

  /** Ends every live session of a project (its signing key was revoked); the ended sessions, with their users. */
  async revokeAllOfProject(projectId: string, now: number): Promise<{ id: string; userId: string }[]> {
    const ended = await this.db.all<{ id: string; user_id: string }>(
      'UPDATE sessions SET revoked_at = ? WHERE project_id = ? AND revoked_at IS NULL AND expires_at > ? RETURNING id, user_id',
      [now, projectId, now],
    );
    return ended.map((s) => ({ id: s.id, userId: s.user_id }));
  }

  /** Forgets the retired values of a user's sessions that ended or expired: they can be told from unknown ones no more. */
  async pruneRetired(userId: string, now: number): Promise<void> {
    await this.db.run(
      'DELETE FROM retired_session_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = ? AND (revoked_at IS NOT NULL OR expires_at <= ?))',
      [userId, now],
    );
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
