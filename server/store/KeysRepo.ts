// The JWT signing keys (one set per project) and server secrets, generated when first needed and kept
// so they survive restarts and are shared by every instance on the same database.
import type { Database } from './Database.ts';

export interface SigningKeyRecord {
  kid: string;
  algorithm: string;
  /** PKCS#8 PEM, sealed under KEY_ENCRYPTION_SECRET when one is set */
  privateKeyPem: string;
  /** the public key as a JWK (JSON text) */
  publicJwk: string;
}

export interface StoredSigningKey extends SigningKeyRecord {
  /** the project that signs with it; null: the server-wide key of before per-project keys */
  projectId: string | null;
  createdAt: number;
  /** when it starts signing (it is published from createdAt on) */
  signsFrom: number;
  /** when it leaves the JWKS; null while it is the newest of its project */
  publishedUntil: number | null;
}

interface Row {
  kid: string;
  algorithm: string;
  private_key_pem: string;
  public_jwk: string;
  project_id: string | null;
  created_at: number;
  signs_from: number | null;
  published_until: number | null;
}

function toRecord(row: Row): StoredSigningKey {
  return {
    kid: row.kid,
    algorithm: row.algorithm,
    privateKeyPem: row.private_key_pem,
    publicJwk: row.public_jwk,
    projectId: row.project_id,
    createdAt: row.created_at,
    signsFrom: row.signs_from ?? row.created_at,
    publishedUntil: row.published_until,
  };
}

export class KeysRepo {
  constructor(private readonly db: Database) {}

  /** A project's keys (the latest to sign first) and the server-wide key of before while it is published. */
  async projectKeys(projectId: string, now: number): Promise<StoredSigningKey[]> {
    const rows = await this.db.all<Row>(
      'SELECT * FROM signing_keys WHERE (project_id = ? OR project_id IS NULL) AND (published_until IS NULL OR published_until > ?) ORDER BY COALESCE(signs_from, created_at) DESC, created_at DESC, kid',
      [projectId, now],
    );
    return rows.map(toRecord);
  }

  /** Every published key of every project (the JWKS asked for without a project). */
  async allPublished(now: number): Promise<StoredSigningKey[]> {
    const rows = await this.db.all<Row>('SELECT * FROM signing_keys WHERE published_until IS NULL OR published_until > ? ORDER BY COALESCE(signs_from, created_at) DESC, created_at DESC, kid', [now]);
    return rows.map(toRecord);
  }

  /** The project's keys; when it has none yet, `fresh` becomes its first (one per project, whichever instance comes first). */
  ensureProjectKey(projectId: string, fresh: SigningKeyRecord, now: number): Promise<StoredSigningKey[]> {
    return this.db.transaction(async () => {
      await this.db.lockKey(`signing_keys:${projectId}`);
      const held = await this.db.get<{ kid: string }>('SELECT kid FROM signing_keys WHERE project_id = ? LIMIT 1', [projectId]);
      if (!held) await this.insert(projectId, fresh, now, now);
      return this.projectKeys(projectId, now);
    });
  }

  /**
   * A rotation: the new key is published now and signs from `signsFrom`; every key of the project that
   * has no end yet stays published until `publishedUntil` (by then the last token it signed has
   * expired). Revoked (`publishedUntil` is `now`): every published key of the project leaves at once,
   * those still published for the tokens they signed too. Keys whose time has passed are deleted with
   * their private part. The keys it replaced, and when each leaves the JWKS.
   */
  rotate(projectId: string, fresh: SigningKeyRecord, signsFrom: number, publishedUntil: number, now: number): Promise<{ kid: string; publishedUntil: number }[]> {
    const revoke = publishedUntil <= now;
    const replaced = revoke ? 'project_id = ? AND (published_until IS NULL OR published_until > ?)' : 'project_id = ? AND published_until IS NULL';
    const params = revoke ? [projectId, now] : [projectId];
    return this.db.transaction(async () => {
      await this.db.lockKey(`signing_keys:${projectId}`);
      const ended = await this.db.all<{ kid: string }>(`SELECT kid FROM signing_keys WHERE ${replaced} ORDER BY kid`, params);
      await this.db.run(`UPDATE signing_keys SET published_until = ? WHERE ${replaced}`, [publishedUntil, ...params]);
      await this.db.run('DELETE FROM signing_keys WHERE published_until IS NOT NULL AND published_until <= ?', [now]);
      await this.insert(projectId, fresh, now, signsFrom);
      return ended.map((e) => ({ kid: e.kid, publishedUntil }));
    });
  }

  /** Ends the server-wide key of before: it signs no more and leaves the JWKS at `publishedUntil`. */
  async retireServerWideKey(publishedUntil: number): Promise<number> {
    return this.db.run('UPDATE signing_keys SET published_until = ? WHERE project_id IS NULL AND published_until IS NULL', [publishedUntil]);
  }

  private async insert(projectId: string, key: SigningKeyRecord, now: number, signsFrom: number): Promise<void> {
    await this.db.run(
      'INSERT INTO signing_keys (kid, algorithm, private_key_pem, public_jwk, created_at, project_id, signs_from) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [key.kid, key.algorithm, key.privateKeyPem, key.publicJwk, now, projectId, signsFrom],
    );
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
