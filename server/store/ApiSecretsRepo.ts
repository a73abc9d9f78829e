// The API secrets of the Backend API: only their SHA-256 is kept, with the last four characters to tell
// them apart in a list. Read on every Backend API call, so a new or revoked secret counts at once, in
// every instance on the database.
import type { Database } from './Database.ts';

export interface ApiSecretRecord {
  id: string;
  projectId: string;
  hint: string;
  label: string;
  createdAt: number;
  revokedAt: number | null;
}

interface Row {
  id: string;
  project_id: string;
  hint: string;
  label: string;
  created_at: number;
  revoked_at: number | null;
}

export class ApiSecretsRepo {
  constructor(private readonly db: Database) {}

  async insert(secret: Omit<ApiSecretRecord, 'revokedAt'> & { secretHash: string }): Promise<void> {
    await this.db.run('INSERT INTO api_secrets (id, project_id, secret_hash, hint, label, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      secret.id,
      secret.projectId,
      secret.secretHash,
      secret.hint,
      secret.label,
      secret.createdAt,
    ]);
  }

  /** The live secret with this hash, if any (a revoked one is never found). */
  async findLive(secretHash: string): Promise<ApiSecretRecord | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM api_secrets WHERE secret_hash = ? AND revoked_at IS NULL', [secretHash]);
    return row && toRecord(row);
  }

  async listByProject(projectId: string): Promise<ApiSecretRecord[]> {
    const rows = await this.db.all<Row>('SELECT * FROM api_secrets WHERE project_id = ? ORDER BY created_at, id', [projectId]);
    return rows.map(toRecord);
  }

  async get(id: string): Promise<ApiSecretRecord | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM api_secrets WHERE id = ?', [id]);
    return row && toRecord(row);
  }

  /** Revokes one secret; false when there is no live secret with that id. */
  async revoke(id: string, now: number): Promise<boolean> {
    return (await this.db.run('UPDATE api_secrets SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, id])) === 1;
  }

  /** Revokes the project's live secrets with this label (`npm start` replaces the one it made last time). */
  async revokeLabelled(projectId: string, label: string, now: number): Promise<void> {
    await this.db.run('UPDATE api_secrets SET revoked_at = ? WHERE project_id = ? AND label = ? AND revoked_at IS NULL', [now, projectId, label]);
  }
}

function toRecord(row: Row): ApiSecretRecord {
  return { id: row.id, projectId: row.project_id, hint: row.hint, label: row.label, createdAt: row.created_at, revokedAt: row.revoked_at };
}
