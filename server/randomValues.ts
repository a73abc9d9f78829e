// Random identifiers, secrets and hashes used across the server.
import { createHash, createHmac, randomFillSync, randomInt, timingSafeEqual } from 'node:crypto';

const NINE_DIGITS = 1_000_000_000;

/**
 * An id like `usr-4821...` (19 random digits after the prefix, the first not 0): three draws (a
 * digit, then two blocks of nine, each uniform), the same ids as a digit drawn at a time.
 */
export function newId(prefix: string): string {
  const block = () => String(randomInt(0, NINE_DIGITS)).padStart(9, '0');
  return `${prefix}-${randomInt(1, 10)}${block()}${block()}`;
}

/**
 * Random bytes drawn from the CSPRNG a few kilobytes at a time (one call into the system's generator
 * instead of one per token, as node:crypto's randomUUID does); each byte is handed out once.
 */
const ENTROPY_BYTES = 4096;
const entropy = Buffer.alloc(ENTROPY_BYTES);
let entropyUsed = ENTROPY_BYTES;

/** An unguessable token: 32 random bytes (256 bits), base64url. */
export function newSecretToken(): string {
  if (entropyUsed + 32 > ENTROPY_BYTES) {
    randomFillSync(entropy);
    entropyUsed = 0;
  }
  const start = entropyUsed;
  entropyUsed += 32;
  return entropy.toString('base64url', start, entropyUsed);
}

/** A six-digit one-time code from a CSPRNG. */
export function newOtpCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The three-digit code an e-mail link shows where it is opened in another browser, and the tab that
 * asked for it too, so the person can tell their own request from someone else's. It proves nothing.
 */
export function newMatchCode(): string {
  return String(randomInt(100, 1000));
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function hmacHex(key: string, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

export function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
