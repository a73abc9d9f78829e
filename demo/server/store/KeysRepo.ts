// The JWT signing key pair and server secrets, generated once and kept so they survive restarts.
import type { Db } from './openDatabase.ts';

export interface SigningKeyRecord {
  kid: string;
  algorithm: string;
  privateKeyPem: string;
  publicJwk: string;
}

export class KeysRepo {
  constructor(private readonly db: Db) {}

  /** The oldest key, or the one `create` makes when there is none yet. */
  signingKey(create: () => SigningKeyRecord, now: number): SigningKeyRecord {
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT * FROM signing_keys ORDER BY created_at LIMIT 1').get() as
        | { kid: string; algorithm: string; private_key_pem: string; public_jwk: string }
        | undefined;
      if (row) return { kid: row.kid, algorithm: row.algorithm, privateKeyPem: row.private_key_pem, publicJwk: row.public_jwk };
      const key = create();
      this.db
        .prepare('INSERT INTO signing_keys (kid, algorithm, private_key_pem, public_jwk, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(key.kid, key.algorithm, key.privateKeyPem, key.publicJwk, now);
      return key;
    })();
  }

  secret(name: string, create: () => string, now: number): string {
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT value FROM server_secrets WHERE name = ?').get(name) as { value: string } | undefined;
      if (row) return row.value;
      const value = create();
      this.db.prepare('INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?)').run(name, value, now);
      return value;
    })();
  }
}
