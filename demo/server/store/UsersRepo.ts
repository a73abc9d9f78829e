import type { IdentifierType } from '../config/projectConfig.ts';
import type { Db } from './openDatabase.ts';

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
}

const IDENTIFIER_ORDER = `CASE type WHEN 'email' THEN 0 WHEN 'phone' THEN 1 ELSE 2 END`;

export class UsersRepo {
  constructor(private readonly db: Db) {}

  insertUser(user: UserRecord): void {
    this.db
      .prepare('INSERT INTO users (id, project_id, full_name, user_handle, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(user.id, user.projectId, user.fullName, user.userHandle, user.createdAt);
  }

  insertIdentifier(projectId: string, identifier: IdentifierRecord, now: number): void {
    this.db
      .prepare(
        `INSERT INTO identifiers (id, user_id, project_id, type, value, normalized, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(identifier.id, identifier.userId, projectId, identifier.type, identifier.value, identifier.normalized, identifier.status, now);
  }

  get(id: string): UserRecord | undefined {
    const row = this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as
      | { id: string; project_id: string; full_name: string; user_handle: string; created_at: number }
      | undefined;
    return row && { id: row.id, projectId: row.project_id, fullName: row.full_name, userHandle: row.user_handle, createdAt: row.created_at };
  }

  findIdentifier(projectId: string, type: IdentifierType, normalized: string): IdentifierRecord | undefined {
    const row = this.db
      .prepare('SELECT * FROM identifiers WHERE project_id = ? AND type = ? AND normalized = ?')
      .get(projectId, type, normalized) as IdentifierRow | undefined;
    return row && toIdentifier(row);
  }

  listIdentifiers(userId: string): IdentifierRecord[] {
    const rows = this.db
      .prepare(`SELECT * FROM identifiers WHERE user_id = ? ORDER BY ${IDENTIFIER_ORDER}, created_at`)
      .all(userId) as IdentifierRow[];
    return rows.map(toIdentifier);
  }

  markIdentifierVerified(id: string): void {
    this.db.prepare(`UPDATE identifiers SET status = 'verified' WHERE id = ?`).run(id);
  }
}

interface IdentifierRow {
  id: string;
  user_id: string;
  type: IdentifierType;
  value: string;
  normalized: string;
  status: 'verified' | 'pending';
}

function toIdentifier(row: IdentifierRow): IdentifierRecord {
  return { id: row.id, userId: row.user_id, type: row.type, value: row.value, normalized: row.normalized, status: row.status };
}
