// The server's keys: the projects' ES256 key pairs that sign sessions (KeyRing) and the server's
// secrets (the HMAC secret of codes and links, the one long sessions rotate with). They live in the
// database, so every instance on it signs and checks the same way and they survive restarts. With a
// key-encryption secret (required in production) they are stored encrypted with AES-256-GCM; without
// one (development) they are stored as they are. Messages waiting to be sent (senders/DeliveryWorker.ts)
// are sealed the same way.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Store } from '../store/Store.ts';

/** What a sealed value starts with. */
export const PREFIX = 'enc:v1:';
export const MIN_SECRET_LENGTH = 32;

export class KeyStore {
  private readonly key: Buffer | undefined;

  constructor(
    private readonly store: Store,
    encryptionSecret: string | undefined,
  ) {
    if (encryptionSecret !== undefined && encryptionSecret.length < MIN_SECRET_LENGTH) {
      throw new Error(`KEY_ENCRYPTION_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
    }
    this.key = encryptionSecret === undefined ? undefined : createHash('sha256').update(`corbado-key-store:${encryptionSecret}`).digest();
  }

  async secret(name: string, now: number): Promise<string> {
    const stored = await this.store.keys.secret(name, () => this.seal(randomBytes(32).toString('hex')), now);
    return this.unseal(stored, `secret ${name}`);
  }

  /** Encrypts keys a development database stored in the clear (once a secret is configured). */
  async sealStoredKeys(): Promise<number> {
    if (!this.key) return 0;
    return this.store.keys.rewritePlain(PREFIX, (value) => this.seal(value));
  }

  /** Encrypts a value for the database (as it is without a key-encryption secret); also used for messages waiting to be sent. */
  seal(value: string): string {
    if (!this.key) return value;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
  }

  /** The value `seal` stored; `what` names it in errors. */
  unseal(stored: string, what: string): string {
    if (!stored.startsWith(PREFIX)) {
      if (this.key) throw new Error(`The ${what} is stored unencrypted; start once with KEY_ENCRYPTION_SECRET to seal it`);
      return stored;
    }
    if (!this.key) throw new Error(`The ${what} is encrypted: KEY_ENCRYPTION_SECRET is needed to read it`);
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`The ${what} cannot be decrypted: KEY_ENCRYPTION_SECRET is not the one it was stored with`);
    }
  }
}
