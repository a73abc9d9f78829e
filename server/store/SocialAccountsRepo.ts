// Provider accounts linked to users (social sign-in). One row per project, provider and provider subject.
import type { SocialProvider } from '../config/projectConfig.ts';
import type { Database } from './Database.ts';

export interface SocialAccountRecord {
  id: string;
  projectId: string;
  userId: string;
  provider: SocialProvider;
  /** the provider's stable user id (`sub`) */
  subject: string;
  email: string;
  fullName: string;
  avatarUrl: string;
  createdAt: number;
  lastUsedAt: number;
}

interface Row {
  id: string;
  project_id: string;
  user_id: string;
  provider: SocialProvider;
  subject: string;
  email: string;
  full_name: string;
  avatar_url: string;
  created_at: number;
  last_used_at: number;
}

export class SocialAccountsRepo {
  constructor(private readonly db: Database) {}

  async insert(a: SocialAccountRecord): Promise<void> {
    await this.db.run(
      `INSERT INTO social_accounts (id, project_id, user_id, provider, subject, email, full_name, avatar_url, created_at, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [a.id, a.projectId, a.userId, a.provider, a.subject, a.email, a.fullName, a.avatarUrl, a.createdAt, a.lastUsedAt],
    );
  }

  async find(projectId: string, provider: SocialProvider, subject: string): Promise<SocialAccountRecord | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM social_accounts WHERE project_id = ? AND provider = ? AND subject = ?', [projectId, provider, subject]);
    return row && toRecord(row);
  }

  async listByUser(userId: string): Promise<SocialAccountRecord[]> {
    const rows = await this.db.all<Row>('SELECT * FROM social_accounts WHERE user_id = ? ORDER BY created_at, id', [userId]);
    return rows.map(toRecord);
  }

  /** Deletes one of a user's provider accounts; false when the user has no such one. */
  async deleteOwned(id: string, userId: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM social_accounts WHERE id = ? AND user_id = ?', [id, userId])) === 1;
  }

  /** Removes the user's provider accounts; the providers they were of. */
  async deleteByUser(userId: string): Promise<SocialProvider[]> {
    return (await this.db.all<{ provider: SocialProvider }>('DELETE FROM social_accounts WHERE user_id = ? RETURNING provider', [userId])).map((r) => r.provider);
  }

  /** A later sign-in refreshes what the provider says about the account. */
  async recordUse(id: string, profile: { email: string; fullName: string; avatarUrl: string }, now: number): Promise<void> {
    await this.db.run('UPDATE social_accounts SET email = ?, full_name = ?, avatar_url = ?, last_used_at = ? WHERE id = ?', [
      profile.email,
      profile.fullName,
      profile.avatarUrl,
      now,
      id,
    ]);
  }
}

function toRecord(row: Row): SocialAccountRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    userId: row.user_id,
    provider: row.provider,
    subject: row.subject,
    email: row.email,
    fullName: row.full_name,
    avatarUrl: row.avatar_url,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}
