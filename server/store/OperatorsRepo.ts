// The console's operators (people with a role) and their console sessions (server/console/).
import type { Database } from './Database.ts';

export const OPERATOR_ROLES = ['owner', 'admin', 'support'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export interface OperatorRecord {
  id: string;
  /** lower case */
  email: string;
  role: OperatorRole;
  /** the projects an admin or support operator may see (an owner sees every project) */
  projects: string[];
  createdAt: number;
  updatedAt: number;
}

export interface ConsoleSessionRecord {
  id: string;
  operatorId: string;
  csrfToken: string;
  createdAt: number;
  /** when the operator last signed in (the recent-proof rule of destructive actions) */
  provedAt: number;
  expiresAt: number;
}

interface OperatorRow {
  id: string;
  email: string;
  role: OperatorRole;
  projects: string;
  created_at: number | string;
  updated_at: number | string;
}

interface SessionRow {
  id: string;
  operator_id: string;
  csrf_token: string;
  created_at: number | string;
  proved_at: number | string;
  expires_at: number | string;
}

function toOperator(row: OperatorRow): OperatorRecord {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    projects: JSON.parse(row.projects) as string[],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toSession(row: SessionRow): ConsoleSessionRecord {
  return {
    id: row.id,
    operatorId: row.operator_id,
    csrfToken: row.csrf_token,
    createdAt: Number(row.created_at),
    provedAt: Number(row.proved_at),
    expiresAt: Number(row.expires_at),
  };
}

export class OperatorsRepo {
  constructor(private readonly db: Database) {}

  async insert(o: OperatorRecord): Promise<void> {
    await this.db.run('INSERT INTO operators (id, email, role, projects, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
      o.id,
      o.email,
      o.role,
      JSON.stringify(o.projects),
      o.createdAt,
      o.updatedAt,
    ]);
  }

  async list(): Promise<OperatorRecord[]> {
    return (await this.db.all<OperatorRow>('SELECT * FROM operators ORDER BY created_at, id')).map(toOperator);
  }

  async get(id: string): Promise<OperatorRecord | undefined> {
    const row = await this.db.get<OperatorRow>('SELECT * FROM operators WHERE id = ?', [id]);
    return row && toOperator(row);
  }

  async byEmail(email: string): Promise<OperatorRecord | undefined> {
    const row = await this.db.get<OperatorRow>('SELECT * FROM operators WHERE email = ?', [email]);
    return row && toOperator(row);
  }

  async update(id: string, role: OperatorRole, projects: readonly string[], now: number): Promise<void> {
    await this.db.run('UPDATE operators SET role = ?, projects = ?, updated_at = ? WHERE id = ?', [role, JSON.stringify(projects), now, id]);
  }

  /** Removes the operator; their console sessions go with them. */
  async remove(id: string): Promise<boolean> {
    await this.db.run('DELETE FROM console_sessions WHERE operator_id = ?', [id]);
    return (await this.db.run('DELETE FROM operators WHERE id = ?', [id])) === 1;
  }

  async insertSession(s: ConsoleSessionRecord & { tokenHash: string }): Promise<void> {
    await this.db.run(
      'INSERT INTO console_sessions (id, token_hash, operator_id, csrf_token, created_at, proved_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [s.id, s.tokenHash, s.operatorId, s.csrfToken, s.createdAt, s.provedAt, s.expiresAt],
    );
  }

  /** The live session of a cookie's hash (an expired one is none). */
  async liveSession(tokenHash: string, now: number): Promise<ConsoleSessionRecord | undefined> {
    const row = await this.db.get<SessionRow>('SELECT * FROM console_sessions WHERE token_hash = ? AND expires_at > ?', [tokenHash, now]);
    return row && toSession(row);
  }

  async removeSession(tokenHash: string): Promise<void> {
    await this.db.run('DELETE FROM console_sessions WHERE token_hash = ?', [tokenHash]);
  }

  /** Drops the sessions that expired before `now`. */
  async pruneSessions(now: number): Promise<void> {
    await this.db.run('DELETE FROM console_sessions WHERE expires_at <= ?', [now]);
  }
}
