// A software passkey authenticator: P-256 keys from node:crypto, attestation "none", authenticator
// data with UP|UV|AT (+ BE|BS) and an AAGUID. It produces the JSON the browser would send.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { cborEncode } from './cbor.ts';

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

export const GOOGLE_PASSWORD_MANAGER = 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4';

interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  rpId: string;
  signCount: number;
}

function b64url(bytes: Uint8Array | string): string {
  return Buffer.from(bytes).toString('base64url');
}

function sha256(data: Uint8Array | string): Buffer {
  return createHash('sha256').update(data).digest();
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export class SoftAuthenticator {
  readonly credentials: StoredCredential[] = [];

  constructor(
    readonly origin = 'http://localhost:5173',
    readonly aaguid = GOOGLE_PASSWORD_MANAGER,
    /** attachment and transports: a phone reached over hybrid is 'cross-platform' with ['hybrid'] */
    readonly options: { userVerified?: boolean; backedUp?: boolean; attachment?: 'platform' | 'cross-platform'; transports?: string[] } = {},
  ) {}

  /** navigator.credentials.create() for a `{"publicKey": …}` JSON string; returns the JSON string sent back. */
  create(optionsJson: string, overrides: { origin?: string; challenge?: string } = {}): string {
    const { publicKey } = JSON.parse(optionsJson) as {
      publicKey: { challenge: string; rp: { id: string }; user: { id: string } };
    };
    const { privateKey, publicKey: pub } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = pub.export({ format: 'jwk' });
    const id = randomBytes(32);
    const cose = cborEncode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(publicKey.rp.id),
      Buffer.from([this.flags() | FLAG_AT]),
      u32(0),
      Buffer.from(this.aaguid.replace(/-/g, ''), 'hex'),
      idLength,
      id,
      cose,
    ]);
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: overrides.challenge ?? publicKey.challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: false,
    });
    const attestationObject = cborEncode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.credentials.push({ id, privateKey, publicKey: pub, userHandle: publicKey.user.id, rpId: publicKey.rp.id, signCount: 0 });
    return JSON.stringify({
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      authenticatorAttachment: this.options.attachment ?? 'platform',
      response: {
        clientDataJSON: b64url(clientData),
        attestationObject: b64url(attestationObject),
        transports: this.options.transports ?? ['internal', 'hybrid'],
      },
      clientExtensionResults: {},
    });
  }

  /** navigator.credentials.get(); picks an allowed credential, or the newest one (discoverable). */
  get(optionsJson: string, overrides: { credential?: StoredCredential; origin?: string } = {}): string {
    const { publicKey } = JSON.parse(optionsJson) as {
      publicKey: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] };
    };
    const allowed = publicKey.allowCredentials?.map((c) => c.id) ?? [];
    const credential =
      overrides.credential ??
      [...this.credentials].reverse().find((c) => allowed.length === 0 || allowed.includes(b64url(c.id)));
    if (!credential) throw new Error('no matching credential');
    credential.signCount += 1;
    const authData = Buffer.concat([sha256(publicKey.rpId ?? credential.rpId), Buffer.from([this.flags()]), u32(credential.signCount)]);
    const clientData = JSON.stringify({
      type: 'webauthn.get',
      challenge: publicKey.challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: false,
    });
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.privateKey);
    return JSON.stringify({
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      authenticatorAttachment: this.options.attachment ?? 'platform',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    });
  }

  private flags(): number {
    let flags = FLAG_UP;
    if (this.options.userVerified !== false) flags |= FLAG_UV;
    if (this.options.backedUp !== false) flags |= FLAG_BE | FLAG_BS;
    return flags;
  }
}
