// The keys that sign short sessions: a set per project, so that one project's key never vouches for
// another project's token and rotating one project's key leaves every other project alone. Tokens are
// signed (ES256) with jose; the private keys live in the database sealed under KEY_ENCRYPTION_SECRET
// (KeyStore), so every instance signs with the same key and tokens survive restarts.
//
// A rotation publishes the new key at once and lets it sign only after ROTATION_LEAD_MS, by which
// time every instance has read it and every backend's cached key set (jose and @corbado/node-sdk keep
// theirs up to 10 minutes) has been fetched again; the key it replaces stays published until the last
// token it signed has expired. Instances read a project's keys again at most every KEY_CACHE_MS.
import { createPrivateKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { SigningKeyRecord, StoredSigningKey } from '../store/KeysRepo.ts';
import type { Store } from '../store/Store.ts';
import type { KeyStore } from './KeyStore.ts';

export const ALGORITHM = 'ES256';
/** How long an instance keeps a project's keys before it reads them again. */
export const KEY_CACHE_MS = 60_000;
/** How long a rotated-in key is published before it signs (backends refresh cached key sets within 10 minutes). */
export const ROTATION_LEAD_MS = 15 * 60_000;
/** Clocks of instances and backends that drift: a retired key stays published this much longer. */
export const CLOCK_TOLERANCE_MS = 60_000;
/** The longest short-session lifetime a project may have (config/projectConfig.ts). */
const LONGEST_SHORT_SESSION_MS = 86_400_000;

/** A public key as the JWKS lists it. */
export type PublicJwk = JWK & { kid: string; alg: typeof ALGORITHM; use: 'sig' };

export interface RotationResult {
  project: string;
  /** the new key: published now, the signer from `signsFrom` */
  kid: string;
  signsFrom: string;
  /** the keys it replaces, and when each leaves the JWKS (now, when they were revoked) */
  replaced: { kid: string; publishedUntil: string }[];
  /** the keys it replaces were revoked: out of the JWKS and deleted at once */
  revoked: boolean;
}

export interface RotationOptions {
  /** how long the new key is published before it signs (default ROTATION_LEAD_MS; 0 with `revoke`) */
  leadMs?: number;
  /**
   * A key that leaked: the new key signs at once and the keys it replaces leave the JWKS now, deleted
   * with their private part, so that a token they sign (a forged one too) verifies nowhere that reads
   * the key set again.
   */
  revoke?: boolean;
  /** run in the rotation's transaction, after it (its records; what else a revocation ends): if it throws, nothing is rotated */
  within?: (rotation: RotationResult) => Promise<void>;
}

interface Cached {
  loadedAt: number;
  keys: StoredSigningKey[];
}

export class KeyRing {
  readonly #projects = new Map<string, Cached>();
  /** the private keys this instance has opened, by kid */
  readonly #privateKeys = new Map<string, { privateKey: KeyObject; publicJwk: string }>();

  constructor(
    private readonly store: Store,
    private readonly sealer: KeyStore,
    private readonly now: () => number,
  ) {}

  /** A JWT of the project, signed with its current key. */
  async sign(projectId: string, claims: JWTPayload): Promise<string> {
    const now = this.now();
    const own = (await this.#keys(projectId)).filter((k) => k.projectId === projectId);
    // newest first: the newest that has started signing (a rotated-in key waits for its lead time)
    const key = own.find((k) => k.signsFrom <= now) ?? own.at(-1)!;
    // signed here, synchronously (node:crypto), not by WebCrypto on the thread pool: the call signs
    // inside its transaction, and a hop to another thread would hold the transaction open meanwhile
    const input = `${base64url({ alg: ALGORITHM, typ: 'JWT', kid: key.kid })}.${base64url(claims)}`;
    const signature = cryptoSign('sha256', Buffer.from(input), { key: this.#privateKey(key), dsaEncoding: 'ieee-p1363' });
    return `${input}.${signature.toString('base64url')}`;
  }

  /**
   * The project's published public keys, newest first (its first key is made when there is none yet).
   * Read from the database each time, not from the cache the signer uses: a key another instance or the
   * admin command just made is published at once.
   */
  async jwks(projectId: string): Promise<{ keys: PublicJwk[] }> {
    return { keys: this.#published(await this.#keys(projectId, true)) };
  }

  /** Every project's published public keys: the set for verifiers that name no project (they must check `aud`). */
  async allJwks(): Promise<{ keys: PublicJwk[] }> {
    return { keys: this.#published(await this.store.keys.allPublished(this.now())) };
  }

  /**
   * `npm run admin -- keys rotate <project>`: a new key for the project, signing after the lead time;
   * the keys it replaces stay published until the tokens they signed (the project's lifetime from then,
   * plus the instances' key cache and a clock tolerance) have expired; or, revoked, leave at once. One
   * transaction, with what `within` writes (the rotation's records).
   */
  async rotate(project: ProjectConfig, options: RotationOptions = {}): Promise<RotationResult> {
    const revoke = options.revoke === true;
    const now = this.now();
    const signsFrom = now + (revoke ? 0 : (options.leadMs ?? ROTATION_LEAD_MS));
    const publishedUntil = revoke ? now : signsFrom + KEY_CACHE_MS + project.shortSessionLifetimeSeconds * 1000 + CLOCK_TOLERANCE_MS;
    const fresh = await newSigningKey(this.sealer);
    try {
      return await this.store.transaction(async () => {
        await this.#keys(project.id, true); // a project without a key gets its first one: that is what is replaced
        const replaced = await this.store.keys.rotate(project.id, fresh, signsFrom, publishedUntil, now);
        const rotation: RotationResult = {
          project: project.id,
          kid: fresh.kid,
          signsFrom: new Date(signsFrom).toISOString(),
          replaced: replaced.map((k) => ({ kid: k.kid, publishedUntil: new Date(k.publishedUntil).toISOString() })),
          revoked: revoke,
        };
        await options.within?.(rotation);
        return rotation;
      });
    } finally {
      this.#projects.delete(project.id);
    }
  }

  /**
   * At start-up: the server-wide key of before per-project keys signs no more; it stays published
   * until a token it signed could have expired. Every stored key must open with this
   * KEY_ENCRYPTION_SECRET (else the start-up stops, naming the cause), and one of them is kept for the
   * readiness check.
   */
  async open(): Promise<void> {
    const now = this.now();
    await this.store.keys.retireServerWideKey(now + KEY_CACHE_MS + LONGEST_SHORT_SESSION_MS + CLOCK_TOLERANCE_MS);
    for (const key of await this.store.keys.allPublished(now)) this.#privateKey(key);
  }

  /** Readiness: a key this instance holds signs a token that verifies with its public key ('ok' before it holds any). */
  async check(): Promise<string> {
    const held = [...this.#privateKeys.values()].at(-1);
    if (!held) return 'ok';
    const token = await new SignJWT({ sub: 'readiness' }).setProtectedHeader({ alg: ALGORITHM }).setExpirationTime('1m').sign(held.privateKey);
    await jwtVerify(token, await importJWK(JSON.parse(held.publicJwk) as JWK, ALGORITHM), { algorithms: [ALGORITHM] });
    return 'ok';
  }

  async #keys(projectId: string, reread = false): Promise<StoredSigningKey[]> {
    const now = this.now();
    const cached = this.#projects.get(projectId);
    if (cached && !reread && fresh(cached, now)) return cached.keys;
    let keys = await this.store.keys.projectKeys(projectId, now);
    if (!keys.some((k) => k.projectId === projectId)) keys = await this.store.keys.ensureProjectKey(projectId, await newSigningKey(this.sealer), now);
    this.#projects.set(projectId, { loadedAt: now, keys });
    return keys;
  }

  #published(keys: StoredSigningKey[]): PublicJwk[] {
    const now = this.now();
    return keys
      .filter((k) => k.publishedUntil === null || k.publishedUntil > now)
      .map((k) => ({ ...(JSON.parse(k.publicJwk) as JWK), kid: k.kid, alg: ALGORITHM, use: 'sig' }));
  }

  /** The key opened once per instance; one that does not open (a wrong KEY_ENCRYPTION_SECRET) throws and is not kept. */
  #privateKey(key: StoredSigningKey): KeyObject {
    let held = this.#privateKeys.get(key.kid);
    if (!held) {
      held = { privateKey: createPrivateKey(this.sealer.unseal(key.privateKeyPem, `signing key ${key.kid}`)), publicJwk: key.publicJwk };
      this.#privateKeys.set(key.kid, held);
    }
    return held.privateKey;
  }
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function fresh(cached: Cached, now: number): boolean {
  return now >= cached.loadedAt && now - cached.loadedAt < KEY_CACHE_MS;
}

/** A new ES256 key pair, its private part sealed for the database; the kid is its JWK thumbprint (RFC 7638). */
async function newSigningKey(sealer: KeyStore): Promise<SigningKeyRecord> {
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return {
    kid: await calculateJwkThumbprint(jwk),
    algorithm: ALGORITHM,
    privateKeyPem: sealer.seal(await exportPKCS8(privateKey)),
    publicJwk: JSON.stringify(jwk),
  };
}
