import type { IdentifierType } from '../config/projectConfig.ts';
import type { StoredSignupAnswer } from '../config/signupFields.ts';
import type { Database } from './Database.ts';

export interface UserRecord {
  id: string;
  projectId: string;
  fullName: string;
  userHandle: string;
  createdAt: number;
}

export interface IdentifierRecord {
  id: string;
  userId: string;
  type: IdentifierType;
  value: string;
  normalized: string;
  status: 'verified' | 'pending';
  /** the one of its type that sessions name and codes go to */
  primary: boolean;
}

interface UserRow {
  id: string;
  project_id: string;
  full_name: string;
  user_handle: string;
  created_at: number;
}

interface IdentifierRow {
  id: string;
  user_id: string;
  type: IdentifierType;
  value: string;
  normalized: string;
  status: 'verified' | 'pending';
  is_primary: number;
}

interface SignupFieldRow {
  field_id: string;
  field_type: 'text' | 'checkbox';
  value: string | null;
  accepted: number | string | null;
  version: string | null;
  answered_at: number | string;
}

/** e-mail, phone, username; within a type the primary one first, then the oldest */
const IDENTIFIER_ORDER = `CASE type WHEN 'email' THEN 0 WHEN 'phone' THEN 1 ELSE 2 END, is_primary DESC, created_at, id`;

export class UsersRepo {
  constructor(private readonly db: Database) {}

  async insertUser(user: UserRecord): Promise<void> {
    await this.db.run('INSERT INTO users (id, project_id, full_name, user_handle, created_at) VALUES (?, ?, ?, ?, ?)', [
      user.id,
      user.projectId,
      user.fullName,
      user.userHandle,
      user.createdAt,
    ]);
  }

  /** Adds an identifier; it is primary unless told otherwise (sign-up enters one per type). */
  async insertIdentifier(projectId: string, identifier: Omit<IdentifierRecord, 'primary'> & { primary?: boolean }, now: number): Promise<void> {
    await this.db.run(
      `INSERT INTO identifiers (id, user_id, project_id, type, value, normalized, status, is_primary, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        identifier.id,
        identifier.userId,
        projectId,
        identifier.type,
        identifier.value,
        identifier.normalized,
        identifier.status,
        identifier.primary === false ? 0 : 1,
        now,
      ],
    );
  }

  /** A sign-up field's answer, stored with the user (one per field). */
  async insertSignupField(userId: string, answer: StoredSignupAnswer): Promise<void> {
    await this.db.run(
      'INSERT INTO user_signup_fields (user_id, field_id, field_type, value, accepted, version, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [userId, answer.id, answer.type, answer.value ?? null, answer.accepted === undefined ? null : answer.accepted ? 1 : 0, answer.version ?? null, answer.answeredAt],
    );
  }

  /** The user's answers to the sign-up fields, in the order they were stored. */
  async listSignupFields(userId: string): Promise<StoredSignupAnswer[]> {
    const rows = await this.db.all<SignupFieldRow>('SELECT * FROM user_signup_fields WHERE user_id = ? ORDER BY answered_at, field_id', [userId]);
    return rows.map((row) => ({
      id: row.field_id,
      type: row.field_type,
      ...(row.value !== null ? { value: row.value } : {}),
      ...(row.accepted !== null ? { accepted: Number(row.accepted) === 1 } : {}),
      ...(row.version !== null ? { version: row.version } : {}),
      answeredAt: Number(row.answered_at),
    }));
  }

  async updateFullName(userId: string, fullName: string): Promise<void> {
    await this.db.run('UPDATE users SET full_name = ? WHERE id = ?', [fullName, userId]);
  }

  /** Deletes a user; identifiers, passkeys, sessions, provider accounts and pending codes go with it. */
  async deleteUser(userId: string): Promise<void> {
    await this.db.run('DELETE FROM users WHERE id = ?', [userId]);
  }

  async getIdentifier(id: string): Promise<IdentifierRecord | undefined> {
    const row = await this.db.get<IdentifierRow>('SELECT * FROM identifiers WHERE id = ?', [id]);
    return row && toIdentifier(row);
  }

  async deleteIdentifier(id: string): Promise<void> {
    await this.db.run('DELETE FROM identifiers WHERE id = ?', [id]);
  }

  /** Makes one identifier the primary one of its type for its user. */
  async setPrimary(identifier: IdentifierRecord): Promise<void> {
    await this.db.run('UPDATE identifiers SET is_primary = CASE WHEN id = ? THEN 1 ELSE 0 END WHERE user_id = ? AND type = ?', [
      identifier.id,
      identifier.userId,
      identifier.type,
    ]);
  }

  async updateIdentifierValue(id: string, value: string, normalized: string): Promise<void> {
    await this.db.run('UPDATE identifiers SET value = ?, normalized = ? WHERE id = ?', [value, normalized, id]);
  }

  async get(id: string): Promise<UserRecord | undefined> {
    const row = await this.db.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]);
    return row && { id: row.id, projectId: row.project_id, fullName: row.full_name, userHandle: row.user_handle, createdAt: row.created_at };
  }

  /** The account that owns a value: the one holding it verified (at most one, by the unique index). */
  async findVerifiedIdentifier(projectId: string, type: IdentifierType, normalized: string): Promise<IdentifierRecord | undefined> {
    const row = await this.db.get<IdentifierRow>(
      `SELECT * FROM identifiers WHERE project_id = ? AND type = ? AND normalized = ? AND status = 'verified'`,
      [projectId, type, normalized],
    );
    return row && toIdentifier(row);
  }

  /**
   * The identifier a log-in by this value reaches: the verified holder; failing that, a pending copy held
   * by an account with no verified identifier at all (so that its address can be proven), the oldest
   * account first when several hold it. A pending copy on a verified account is never found: it was added
   * on the account page and proves nothing.
   */
  async findLoginIdentifier(projectId: string, type: IdentifierType, normalized: string): Promise<IdentifierRecord | undefined> {
    const row = await this.db.get<IdentifierRow>(
      `SELECT i.* FROM identifiers i JOIN users u ON u.id = i.user_id
       WHERE i.project_id = ? AND i.type = ? AND i.normalized = ?
         AND (i.status = 'verified' OR NOT EXISTS (SELECT 1 FROM identifiers v WHERE v.user_id = i.user_id AND v.status = 'verified'))
       ORDER BY CASE i.status WHEN 'verified' THEN 0 ELSE 1 END, u.created_at, u.id
       LIMIT 1`,
      [projectId, type, normalized],
    );
    return row && toIdentifier(row);
  }

  /**
   * Removes every pending copy of a value held by other users than `ownerId` (the one who proved it);
   * answers the removed ones.
   */
  async removePendingCopies(projectId: string, type: IdentifierType, normalized: string, ownerId: string): Promise<IdentifierRecord[]> {
    // one statement on the path of every proof (SQLite 3.35+ and PostgreSQL both answer RETURNING)
    const rows = await this.db.all<IdentifierRow>(
      `DELETE FROM identifiers WHERE project_id = ? AND type = ? AND normalized = ? AND status = 'pending' AND user_id <> ? RETURNING *`,
      [projectId, type, normalized, ownerId],
    );
    return rows.map(toIdentifier);
  }

  async listIdentifiers(userId: string): Promise<IdentifierRecord[]> {
    const rows = await this.db.all<IdentifierRow>(`SELECT * FROM identifiers WHERE user_id = ? ORDER BY ${IDENTIFIER_ORDER}`, [userId]);
    return rows.map(toIdentifier);
  }

  /** The user's identifiers that were added at or before `at`, in the order of listIdentifiers. */
  async listIdentifiersAddedBy(userId: string, at: number): Promise<IdentifierRecord[]> {
    const rows = await this.db.all<IdentifierRow>(`SELECT * FROM identifiers WHERE user_id = ? AND created_at <= ? ORDER BY ${IDENTIFIER_ORDER}`, [
      userId,
      at,
    ]);
    return rows.map(toIdentifier);
  }

  async markIdentifierVerified(id: string): Promise<void> {
    await this.db.run(`UPDATE identifiers SET status = 'verified' WHERE id = ?`, [id]);
  }
}

function toIdentifier(row: IdentifierRow): IdentifierRecord {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.type,
    value: row.value,
    normalized: row.normalized,
    status: row.status,
    primary: row.is_primary === 1,
  };
}
