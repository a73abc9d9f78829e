// A project's own OAuth client per social provider (set with the admin command): the client id, and the
// client secret as the caller sealed it (session/KeyStore.ts). Nothing here ever decrypts a secret.
import type { SocialProvider } from '../config/projectConfig.ts';
import type { Database } from './Database.ts';

export interface ProjectOAuthClientRecord {
  projectId: string;
  provider: SocialProvider;
  clientId: string;
  /** sealed with KEY_ENCRYPTION_SECRET */
  sealedSecret: string;
  updatedAt: number;
}

interface Row {
  project_id: string;
  provider: SocialProvider;
  client_id: string;
  client_secret: string;
  updated_at: number;
}

export class ProjectOAuthClientsRepo {
  constructor(private readonly db: Database) {}

  async put(r: ProjectOAuthClientRecord): Promise<void> {
    await this.db.run(
      `INSERT INTO project_oauth_clients (project_id, provider, client_id, client_secret, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(project_id, provider) DO UPDATE SET client_id = excluded.client_id, client_secret = excluded.client_secret, updated_at = excluded.updated_at`,
      [r.projectId, r.provider, r.clientId, r.sealedSecret, r.updatedAt],
    );
  }

  async remove(projectId: string, provider: SocialProvider): Promise<void> {
    await this.db.run('DELETE FROM project_oauth_clients WHERE project_id = ? AND provider = ?', [projectId, provider]);
  }

  async get(projectId: string, provider: SocialProvider): Promise<ProjectOAuthClientRecord | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM project_oauth_clients WHERE project_id = ? AND provider = ?', [projectId, provider]);
    return row && toRecord(row);
  }

  async list(projectId: string): Promise<ProjectOAuthClientRecord[]> {
    const rows = await this.db.all<Row>('SELECT * FROM project_oauth_clients WHERE project_id = ? ORDER BY provider', [projectId]);
    return rows.map(toRecord);
  }
}

function toRecord(row: Row): ProjectOAuthClientRecord {
  return { projectId: row.project_id, provider: row.provider, clientId: row.client_id, sealedSecret: row.client_secret, updatedAt: row.updated_at };
}
