// Random identifiers, secrets and hashes used across the server.
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** An id like `usr-4821...` (19 random digits after the prefix). */
export function newId(prefix: string): string {
  let digits = String(randomInt(1, 10));
  while (digits.length < 19) digits += String(randomInt(0, 10));
  return `${prefix}-${digits}`;
}

/** An unguessable token: 32 random bytes (256 bits), base64url. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
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
