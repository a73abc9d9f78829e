// One-time codes and e-mail link tokens. Only an HMAC of the secret is stored.
import type { VerificationMethod } from '../config/projectConfig.ts';
import type { Database } from './Database.ts';

export interface VerificationSecret {
  id: string;
  processId: string;
  method: VerificationMethod;
  identifierType: string;
  identifierValue: string;
  secretHash: string;
  attempts: number;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  revokedAt: number | null;
}

interface Row {
  id: string;
  process_id: string;
  method: VerificationMethod;
  identifier_type: string;
  identifier_value: string;
  secret_hash: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

export class VerificationSecretsRepo {
  constructor(private readonly db: Database) {}

  /** Stores a new secret and revokes every older open one of the process for that identifier type. */
  issue(s: Omit<VerificationSecret, 'attempts' | 'usedAt' | 'revokedAt'>): Promise<void> {
    return this.db.transaction(async () => {
      await this.revokeOpen(s.processId, s.identifierType, s.createdAt);
      await this.db.run(
        `INSERT INTO verification_secrets (id, process_id, method, identifier_type, identifier_value, secret_hash, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [s.id, s.processId, s.method, s.identifierType, s.identifierValue, s.secretHash, s.createdAt, s.expiresAt],
      );
    });
  }

  async revokeOpen(processId: string, identifierType: string, now: number): Promise<void> {
    await this.db.run(
      `UPDATE verification_secrets SET revoked_at = ?
       WHERE process_id = ? AND identifier_type = ? AND used_at IS NULL AND revoked_at IS NULL`,
      [now, processId, identifierType],
    );
  }

  /**
   * The newest secret of the process for that identifier type and method, whatever its state. Of two
   * issued in the same millisecond, the older one was revoked by the newer.
   */
  async latest(processId: string, identifierType: string, method: VerificationMethod): Promise<VerificationSecret | undefined> {
    const row = await this.db.get<Row>(
      `SELECT * FROM verification_secrets WHERE process_id = ? AND identifier_type = ? AND method = ?
       ORDER BY created_at DESC, CASE WHEN revoked_at IS NULL THEN 0 ELSE 1 END LIMIT 1`,
      [processId, identifierType, method],
    );
    return row && toSecret(row);
  }

  async findByHash(processId: string, method: VerificationMethod, secretHash: string): Promise<VerificationSecret | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM verification_secrets WHERE process_id = ? AND method = ? AND secret_hash = ?', [
      processId,
      method,
      secretHash,
    ]);
    return row && toSecret(row);
  }

  async recordFailedAttempt(id: string): Promise<void> {
    await this.db.run('UPDATE verification_secrets SET attempts = attempts + 1 WHERE id = ?', [id]);
  }

  /** Marks the secret used; false when it was already used or revoked (so it can be used once only). */
  async consume(id: string, now: number): Promise<boolean> {
    return (await this.db.run('UPDATE verification_secrets SET used_at = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL', [now, id])) === 1;
  }
}

function toSecret(row: Row): VerificationSecret {
  return {
    id: row.id,
    processId: row.process_id,
    method: row.method,
    identifierType: row.identifier_type,
    identifierValue: row.identifier_value,
    secretHash: row.secret_hash,
    attempts: row.attempts,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    revokedAt: row.revoked_at,
  };
}
