// One-time codes and e-mail link tokens. Only an HMAC of the secret is stored. Each secret has an owner:
// the auth process that sent it (verification_secrets), or the identifier a logged-in user added to
// their account (identifier_secrets), or the long session a code re-authenticates (reauth_secrets). The
// tables have the same shape and rules.
import type { VerificationMethod } from '../config/projectConfig.ts';
import type { Database } from './Database.ts';

/** Where a kind of secret lives: its table and the column naming its owner. */
export interface SecretScope {
  table: 'verification_secrets' | 'identifier_secrets' | 'reauth_secrets';
  owner: 'process_id' | 'identifier_id' | 'session_id';
}

export const PROCESS_SECRETS: SecretScope = { table: 'verification_secrets', owner: 'process_id' };
export const IDENTIFIER_SECRETS: SecretScope = { table: 'identifier_secrets', owner: 'identifier_id' };
export const REAUTH_SECRETS: SecretScope = { table: 'reauth_secrets', owner: 'session_id' };

export interface VerificationSecret {
  id: string;
  /** the process, the account identifier or the long session the secret was sent for */
  ownerId: string;
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
  owner_id: string;
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
  private readonly table: string;
  private readonly owner: string;
  private readonly columns: string;

  constructor(
    private readonly db: Database,
    scope: SecretScope = PROCESS_SECRETS,
  ) {
    this.table = scope.table;
    this.owner = scope.owner;
    this.columns = `id, ${scope.owner} AS owner_id, method, identifier_type, identifier_value, secret_hash, attempts, created_at, expires_at, used_at, revoked_at`;
  }

  /** Stores a new secret and revokes every older open one of its owner for that identifier type. */
  issue(s: Omit<VerificationSecret, 'attempts' | 'usedAt' | 'revokedAt'>): Promise<void> {
    return this.db.transaction(async () => {
      await this.revokeOpen(s.ownerId, s.identifierType, s.createdAt);
      await this.db.run(
        `INSERT INTO ${this.table} (id, ${this.owner}, method, identifier_type, identifier_value, secret_hash, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [s.id, s.ownerId, s.method, s.identifierType, s.identifierValue, s.secretHash, s.createdAt, s.expiresAt],
      );
    });
  }

  async revokeOpen(ownerId: string, identifierType: string, now: number): Promise<void> {
    await this.db.run(
      `UPDATE ${this.table} SET revoked_at = ?
       WHERE ${this.owner} = ? AND identifier_type = ? AND used_at IS NULL AND revoked_at IS NULL`,
      [now, ownerId, identifierType],
    );
  }

  /**
   * The newest secret of the owner for that identifier type and method, whatever its state. Of two
   * issued in the same millisecond, the older one was revoked by the newer.
   */
  async latest(ownerId: string, identifierType: string, method: VerificationMethod): Promise<VerificationSecret | undefined> {
    const row = await this.db.get<Row>(
      `SELECT ${this.columns} FROM ${this.table} WHERE ${this.owner} = ? AND identifier_type = ? AND method = ?
       ORDER BY created_at DESC, CASE WHEN revoked_at IS NULL THEN 0 ELSE 1 END LIMIT 1`,
      [ownerId, identifierType, method],
    );
    return row && toSecret(row);
  }

  async findByHash(ownerId: string, method: VerificationMethod, secretHash: string): Promise<VerificationSecret | undefined> {
    const row = await this.db.get<Row>(`SELECT ${this.columns} FROM ${this.table} WHERE ${this.owner} = ? AND method = ? AND secret_hash = ?`, [
      ownerId,
      method,
      secretHash,
    ]);
    return row && toSecret(row);
  }

  async recordFailedAttempt(id: string): Promise<void> {
    await this.db.run(`UPDATE ${this.table} SET attempts = attempts + 1 WHERE id = ?`, [id]);
  }

  /** Marks the secret used; false when it was already used or revoked (so it can be used once only). */
  async consume(id: string, now: number): Promise<boolean> {
    return (await this.db.run(`UPDATE ${this.table} SET used_at = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL`, [now, id])) === 1;
  }
}

function toSecret(row: Row): VerificationSecret {
  return {
    id: row.id,
    ownerId: row.owner_id,
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
