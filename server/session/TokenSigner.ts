// ES256 JSON Web Tokens with node:crypto. The key pair lives in the database (KeyStore), so tokens
// issued before a restart, or by another instance, verify everywhere.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { SigningKeyRecord } from '../store/KeysRepo.ts';

export type JwtClaims = Record<string, string | number | boolean | undefined>;

function b64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}

export class TokenSigner {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  readonly kid: string;
  readonly publicJwk: JsonWebKey;

  constructor(record: SigningKeyRecord) {
    this.kid = record.kid;
    this.privateKey = createPrivateKey(record.privateKeyPem);
    this.publicKey = createPublicKey(this.privateKey);
    this.publicJwk = JSON.parse(record.publicJwk) as JsonWebKey;
  }

  sign(claims: JwtClaims): string {
    const header = b64url(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: this.kid }));
    const payload = b64url(JSON.stringify(claims));
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), { key: this.privateKey, dsaEncoding: 'ieee-p1363' });
    return `${header}.${payload}.${b64url(signature)}`;
  }

  /** The claims when the signature is ours and valid (expiry is the caller's business), else undefined. */
  verify(token: string): JwtClaims | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [header, payload, signature] = parts as [string, string, string];
    try {
      const parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string; kid?: string };
      if (parsedHeader.alg !== 'ES256' || parsedHeader.kid !== this.kid) return undefined;
      const ok = verify(
        'sha256',
        Buffer.from(`${header}.${payload}`),
        { key: this.publicKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      );
      return ok ? (JSON.parse(Buffer.from(payload, 'base64url').toString()) as JwtClaims) : undefined;
    } catch {
      return undefined;
    }
  }

  jwks(): { keys: JsonWebKey[] } {
    return { keys: [{ ...this.publicJwk, kid: this.kid, alg: 'ES256', use: 'sig' }] };
  }
}

export function generateSigningKey(): SigningKeyRecord {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    kid: `key-${randomBytes(8).toString('hex')}`,
    algorithm: 'ES256',
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicJwk: JSON.stringify(publicKey.export({ format: 'jwk' })),
  };
}
