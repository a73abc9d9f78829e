import type { IdentifierType, Language, ProjectConfig } from '../config/projectConfig.ts';
import { assertSignupFieldsAnswered, type AnswerSource, type StoredSignupAnswer } from '../config/signupFields.ts';
import type { Database } from './Database.ts';

export type UserStatus = 'active' | 'disabled';

export interface UserRecord {
  id: string;
  projectId: string;
  fullName: string;
  userHandle: string;
  createdAt: number;
  /** a disabled user gets no session (set by the host through the Backend API) */
  status: UserStatus;
  /** the host's own id for the user (Backend API, import), unique within the project */
  externalId: string | null;
}

/** A user to create, with the answers to the project's sign-up fields it is created with. */
export interface NewUser extends UserRecord {
  signupAnswers: readonly StoredSignupAnswer[];
}

/** A query over a project's identifiers (the Backend API's identifier list). */
export interface IdentifierQuery {
  projectId: string;
  /** any of these values */
  values?: { type: IdentifierType; normalized: string }[];
  type?: IdentifierType;
  userId?: string;
  /** as the Backend API shows it: `primary` is a verified identifier that is the primary of its type, `verified` another verified one */
  status?: 'verified' | 'pending' | 'primary';
  sort: { column: 'created_at' | 'normalized' | 'type' | 'user_id' | 'status'; descending: boolean };
  limit: number;
  offset: number;
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
  status: UserStatus;
  external_id: string | null;
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
  shown_language: Language | null;
  shown_label: string | null;
  shown_url: string | null;
  source: AnswerSource | null;
}

/** e-mail, phone, username; within a type the primary one first, then the oldest */
const IDENTIFIER_ORDER = `CASE type WHEN 'email' THEN 0 WHEN 'phone' THEN 1 ELSE 2 END, is_primary DESC, created_at, id`;

export class UsersRepo {
  constructor(private readonly db: Database) {}

  /**
   * The one way a user row is written (sign-up, Backend API, import): every user is first checked against
   * the project's required sign-up fields (assertSignupFieldsAnswered: SignupFieldsMissing, nothing
   * written), then the users and their answers go in, in few statements.
   */
  async insertUsers(project: ProjectConfig, users: readonly NewUser[]): Promise<void> {
    for (const user of users) {
      if (user.projectId !== project.id) throw new Error(`user ${user.id} is not of project ${project.id}`);
      assertSignupFieldsAnswered(project, user.signupAnswers);
    }
    for (const chunk of chunks(users, 500)) {
      await this.db.run(
        `INSERT INTO users (id, project_id, full_name, user_handle, created_at, status, external_id) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((u) => [u.id, u.projectId, u.fullName, u.userHandle, u.createdAt, u.status, u.externalId]),
      );
    }
    const answers = users.flatMap((u) => u.signupAnswers.map((answer) => ({ userId: u.id, answer })));
    for (const chunk of chunks(answers, 100)) {
      await this.db.run(
        `INSERT INTO user_signup_fields (user_id, field_id, field_type, value, accepted, version, answered_at, shown_language, shown_label, shown_url, source)
         VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap(({ userId, answer: a }) => [
          userId,
          a.id,
          a.type,
          a.value ?? null,
          a.accepted === undefined ? null : a.accepted ? 1 : 0,
          a.version ?? null,
          a.answeredAt,
          a.shown?.language ?? null,
          a.shown?.label ?? null,
          a.shown?.url ?? null,
          a.source ?? null,
        ]),
      );
    }
  }

  /** Inserts many identifiers in few statements (the import). */
  async insertIdentifiers(projectId: string, identifiers: readonly IdentifierRecord[], now: number): Promise<void> {
    for (const chunk of chunks(identifiers, 500)) {
      await this.db.run(
        `INSERT INTO identifiers (id, user_id, project_id, type, value, normalized, status, is_primary, created_at)
         VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((i) => [i.id, i.userId, projectId, i.type, i.value, i.normalized, i.status, i.primary ? 1 : 0, now]),
      );
    }
  }

  /** The project's users with one of these external ids (the import's reruns). */
  async byExternalIds(projectId: string, externalIds: readonly string[]): Promise<UserRecord[]> {
    const found: UserRecord[] = [];
    for (const chunk of chunks([...new Set(externalIds)], 500)) {
      const rows = await this.db.all<UserRow>(`SELECT * FROM users WHERE project_id = ? AND external_id IN (${chunk.map(() => '?').join(', ')})`, [projectId, ...chunk]);
      found.push(...rows.map(toUser));
    }
    return found;
  }

  /** These users (those that exist), in few statements. */
  async getMany(ids: readonly string[]): Promise<UserRecord[]> {
    const found: UserRecord[] = [];
    for (const chunk of chunks([...new Set(ids)], 500)) {
      const rows = await this.db.all<UserRow>(`SELECT * FROM users WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk);
      found.push(...rows.map(toUser));
    }
    return found;
  }

  /** The identifiers of these users, in few statements. */
  async identifiersOfUsers(userIds: readonly string[]): Promise<IdentifierRecord[]> {
    const found: IdentifierRecord[] = [];
    for (const chunk of chunks([...new Set(userIds)], 500)) {
      const rows = await this.db.all<IdentifierRow>(
        `SELECT * FROM identifiers WHERE user_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY ${IDENTIFIER_ORDER}`,
        chunk,
      );
      found.push(...rows.map(toIdentifier));
    }
    return found;
  }

  /**
   * The identifiers of the project with one of these values (`type` and `normalized`), of any user;
   * only verified ones with `verifiedOnly`. Several values in few statements (the import).
   */
  async findValues(projectId: string, values: readonly { type: IdentifierType; normalized: string }[], verifiedOnly: boolean): Promise<IdentifierRecord[]> {
    const found: IdentifierRecord[] = [];
    // by type, so that each statement walks the index on (project_id, type, normalized) instead of the project's rows
    for (const type of new Set(values.map((v) => v.type))) {
      for (const chunk of chunks([...new Set(values.filter((v) => v.type === type).map((v) => v.normalized))], 400)) {
        const rows = await this.db.all<IdentifierRow>(
          `SELECT * FROM identifiers WHERE project_id = ? AND type = ?${verifiedOnly ? ` AND status = 'verified'` : ''}
             AND normalized IN (${chunk.map(() => '?').join(', ')})`,
          [projectId, type, ...chunk],
        );
        found.push(...rows.map(toIdentifier));
      }
    }
    return found;
  }

  async updateStatus(userId: string, status: UserStatus): Promise<void> {
    await this.db.run('UPDATE users SET status = ? WHERE id = ?', [status, userId]);
  }

  /** The project's user with this external id (the host's own id for it). */
  async findByExternalId(projectId: string, externalId: string): Promise<UserRecord | undefined> {
    const row = await this.db.get<UserRow>('SELECT * FROM users WHERE project_id = ? AND external_id = ?', [projectId, externalId]);
    return row && toUser(row);
  }

  /** One page of a project's identifiers, and how many match in all. */
  async queryIdentifiers(query: IdentifierQuery): Promise<{ identifiers: IdentifierRecord[]; total: number }> {
    const where = ['project_id = ?'];
    const params: unknown[] = [query.projectId];
    if (query.values) {
      if (query.values.length === 0) return { identifiers: [], total: 0 };
      // one (type, normalized) pair per term: each is a search of the index on (project_id, type, normalized)
      where.push(`(${query.values.map(() => '(type = ? AND normalized = ?)').join(' OR ')})`);
      params.push(...query.values.flatMap((v) => [v.type, v.normalized]));
    }
    if (query.type) {
      where.push('type = ?');
      params.push(query.type);
    }
    if (query.userId) {
      where.push('user_id = ?');
      params.push(query.userId);
    }
    if (query.status) {
      where.push(query.status === 'pending' ? 'status = ?' : 'status = ? AND is_primary = ?');
      params.push(...(query.status === 'pending' ? ['pending'] : ['verified', query.status === 'primary' ? 1 : 0]));
    }
    const condition = where.join(' AND ');
    const total = await this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM identifiers WHERE ${condition}`, params);
    const direction = query.sort.descending ? 'DESC' : 'ASC';
    const rows = await this.db.all<IdentifierRow>(
      `SELECT * FROM identifiers WHERE ${condition} ORDER BY ${query.sort.column} ${direction}, id ${direction} LIMIT ? OFFSET ?`,
      [...params, query.limit, query.offset],
    );
    return { identifiers: rows.map(toIdentifier), total: Number(total?.n ?? 0) };
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
      ...(row.shown_language !== null && row.shown_label !== null
        ? { shown: { language: row.shown_language, label: row.shown_label, ...(row.shown_url !== null ? { url: row.shown_url } : {}) } }
        : {}),
      ...(row.source !== null ? { source: row.source } : {}),
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
    return row && toUser(row);
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
   * on the account page and proves nothing. Nor is a user the host disabled.
   */
  async findLoginIdentifier(projectId: string, type: IdentifierType, normalized: string): Promise<IdentifierRecord | undefined> {
    const row = await this.db.get<IdentifierRow>(
      `SELECT i.* FROM identifiers i JOIN users u ON u.id = i.user_id
       WHERE i.project_id = ? AND i.type = ? AND i.normalized = ? AND u.status = 'active'
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

  /**
   * The console's user search: matches of the project's users after the keyset `after` ([key, user id]),
   * ordered by the key each matched on, then the user id: an identifier value (normalized: lower case, a
   * phone in E.164), the user id or the external id (lower case) that starts with `prefix` (already
   * lower-cased by the caller). An empty prefix lists every user by id. Each kind is a walk of one index
   * (migration 19) from the cursor, compared byte by byte, that stops after `limit` rows: however many
   * users match, a page reads a page of rows.
   */
  async searchMatches(projectId: string, prefix: string, after: readonly [string, string], limit: number): Promise<{ key: string; id: string }[]> {
    const c = this.db.dialect === 'postgres' ? ' COLLATE "C"' : '';
    if (prefix === '') {
      return this.db.all<{ key: string; id: string }>(`SELECT id AS key, id FROM users WHERE project_id = ? AND id${c} > ? ORDER BY id${c} LIMIT ?`, [projectId, after[1], limit]);
    }
    // every string that starts with the prefix sorts below the prefix followed by the highest code point
    const end = `${prefix}\u{10FFFF}`;
    const kinds = [
      { table: 'identifiers', key: `normalized${c}`, id: 'user_id', extra: '' },
      { table: 'users', key: `id${c}`, id: 'id', extra: '' },
      { table: 'users', key: `lower(external_id)${c}`, id: 'id', extra: ' AND external_id IS NOT NULL' },
    ];
    const found = await Promise.all(
      kinds.map((k) =>
        this.db.all<{ key: string; id: string }>(
          `SELECT ${k.key} AS key, ${k.id} AS id FROM ${k.table} WHERE project_id = ?${k.extra} AND ${k.key} >= ? AND ${k.key} < ? AND (${k.key}, ${k.id}) > (?, ?)
           ORDER BY ${k.key}, ${k.id} LIMIT ?`,
          [projectId, prefix, end, after[0], after[1], limit],
        ),
      ),
    );
    return found.flat().sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async markIdentifierPending(id: string): Promise<void> {
    await this.db.run(`UPDATE identifiers SET status = 'pending' WHERE id = ?`, [id]);
  }

  async markIdentifierVerified(id: string): Promise<void> {
    await this.db.run(`UPDATE identifiers SET status = 'verified' WHERE id = ?`, [id]);
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function toUser(row: UserRow): UserRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    fullName: row.full_name,
    userHandle: row.user_handle,
    createdAt: row.created_at,
    status: row.status,
    externalId: row.external_id,
  };
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
