import type { Database } from './Database.ts';

export interface CredentialRecord {
  id: string;
  projectId: string;
  userId: string;
  credentialId: string;
  publicKey: Uint8Array;
  userHandle: string;
  aaguid: string;
  backupEligible: boolean;
  backupState: boolean;
  transports: string[];
  signCount: number;
  attestationType: string;
  sourceBrowser: string;
  sourceOS: string;
  status: 'active' | 'pending';
  createdAt: number;
  lastUsedAt: number;
}

interface Row {
  id: string;
  project_id: string;
  user_id: string;
  credential_id: string;
  public_key: Buffer;
  user_handle: string;
  aaguid: string;
  backup_eligible: number;
  backup_state: number;
  transports: string;
  sign_count: number;
  attestation_type: string;
  source_browser: string;
  source_os: string;
  status: 'active' | 'pending';
  created_at: number;
  last_used_at: number;
}

export class CredentialsRepo {
  constructor(private readonly db: Database) {}

  async insert(c: CredentialRecord): Promise<void> {
    await this.db.run(
      `INSERT INTO credentials (id, project_id, user_id, credential_id, public_key, user_handle, aaguid, backup_eligible,
         backup_state, transports, sign_count, attestation_type, source_browser, source_os, status, created_at, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        c.id,
        c.projectId,
        c.userId,
        c.credentialId,
        Buffer.from(c.publicKey),
        c.userHandle,
        c.aaguid,
        c.backupEligible ? 1 : 0,
        c.backupState ? 1 : 0,
        JSON.stringify(c.transports),
        c.signCount,
        c.attestationType,
        c.sourceBrowser,
        c.sourceOS,
        c.status,
        c.createdAt,
        c.lastUsedAt,
      ],
    );
  }

  async listByUser(userId: string): Promise<CredentialRecord[]> {
    const rows = await this.db.all<Row>('SELECT * FROM credentials WHERE user_id = ? ORDER BY created_at, id', [userId]);
    return rows.map(toRecord);
  }

  async findByCredentialId(projectId: string, credentialId: string): Promise<CredentialRecord | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM credentials WHERE project_id = ? AND credential_id = ?', [projectId, credentialId]);
    return row && toRecord(row);
  }

  async recordUse(id: string, signCount: number, backupState: boolean, now: number): Promise<void> {
    await this.db.run('UPDATE credentials SET sign_count = ?, backup_state = ?, last_used_at = ? WHERE id = ?', [signCount, backupState ? 1 : 0, now, id]);
  }

  /** The user's pending credentials become active: their account's e-mail address has been confirmed. */
  async activatePending(userId: string): Promise<void> {
    await this.db.run(`UPDATE credentials SET status = 'active' WHERE user_id = ? AND status = 'pending'`, [userId]);
  }

  /** Deletes the user's pending credentials but those named in `keep` (credential ids); answers the deleted ones. */
  async deletePendingExcept(userId: string, keep: readonly string[]): Promise<CredentialRecord[]> {
    const pending = await this.db.all<Row>(`SELECT * FROM credentials WHERE user_id = ? AND status = 'pending'`, [userId]);
    const deleted: CredentialRecord[] = [];
    for (const row of pending) {
      if (keep.includes(row.credential_id)) continue;
      await this.db.run('DELETE FROM credentials WHERE id = ?', [row.id]);
      deleted.push(toRecord(row));
    }
    return deleted;
  }

  /** Deletes a user's own credential; false when there is none with that id. */
  async deleteOwned(id: string, userId: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM credentials WHERE id = ? AND user_id = ?', [id, userId])) > 0;
  }
}

function toRecord(row: Row): CredentialRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    userId: row.user_id,
    credentialId: row.credential_id,
    publicKey: new Uint8Array(row.public_key),
    userHandle: row.user_handle,
    aaguid: row.aaguid,
    backupEligible: row.backup_eligible === 1,
    backupState: row.backup_state === 1,
    transports: JSON.parse(row.transports) as string[],
    signCount: row.sign_count,
    attestationType: row.attestation_type,
    sourceBrowser: row.source_browser,
    sourceOS: row.source_os,
    status: row.status,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}
