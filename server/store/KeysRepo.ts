// The JWT signing key pair and server secrets, generated once and kept so they survive restarts and
// are shared by every instance on the same database.
import type { Database } from './Database.ts';

export interface SigningKeyRecord {
  kid: string;
  algorithm: string;
  privateKeyPem: string;
  publicJwk: string;
}

export class KeysRepo {
  constructor(private readonly db: Database) {}

  /** The oldest key, or the one `create` makes when there is none yet. */
  signingKey(create: () => SigningKeyRecord, now: number): Promise<SigningKeyRecord> {
    return this.db.transaction(async () => {
      await this.db.lockKey('signing_keys');
      const row = await this.db.get<{ kid: string; algorithm: string; private_key_pem: string; public_jwk: string }>(
        'SELECT * FROM signing_keys ORDER BY created_at LIMIT 1',
      );
      if (row) return { kid: row.kid, algorithm: row.algorithm, privateKeyPem: row.private_key_pem, publicJwk: row.public_jwk };
      const key = create();
      await this.db.run('INSERT INTO signing_keys (kid, algorithm, private_key_pem, public_jwk, created_at) VALUES (?, ?, ?, ?, ?)', [
        key.kid,
        key.algorithm,
        key.privateKeyPem,
        key.publicJwk,
        now,
      ]);
      return key;
    });
  }

  /** The named secret, or the one `create` makes when there is none yet. */
  secret(name: string, create: () => string, now: number): Promise<string> {
    return this.db.transaction(async () => {
      await this.db.lockKey(`server_secrets:${name}`);
      const row = await this.db.get<{ value: string }>('SELECT value FROM server_secrets WHERE name = ?', [name]);
      if (row) return row.value;
      const value = create();
      await this.db.run('INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?)', [name, value, now]);
      return value;
    });
  }

  /** Rewrites every stored key and secret not starting with `sealedPrefix` through `seal`; the count. */
  rewritePlain(sealedPrefix: string, seal: (value: string) => string): Promise<number> {
    return this.db.transaction(async () => {
      let count = 0;
      for (const row of await this.db.all<{ kid: string; private_key_pem: string }>('SELECT kid, private_key_pem FROM signing_keys')) {
        if (row.private_key_pem.startsWith(sealedPrefix)) continue;
        count += await this.db.run('UPDATE signing_keys SET private_key_pem = ? WHERE kid = ?', [seal(row.private_key_pem), row.kid]);
      }
      for (const row of await this.db.all<{ name: string; value: string }>('SELECT name, value FROM server_secrets')) {
        if (row.value.startsWith(sealedPrefix)) continue;
        count += await this.db.run('UPDATE server_secrets SET value = ? WHERE name = ?', [seal(row.value), row.name]);
      }
      return count;
    });
  }
}
