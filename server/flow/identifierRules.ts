// What an identifier (e-mail address, phone number, username) and a full name may contain, and the
// form they are stored in. Every server path that accepts one (sign-up, log-in, collect, the identifier
// edit of a process, the account's identifier and name calls) goes through this module, so the value
// checked is the value stored, shown and mailed.
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { domainToASCII, domainToUnicode } from 'node:url';
import type { IdentifierType } from '../config/projectConfig.ts';

const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;
const USERNAME_PATTERN = /^[A-Za-z0-9_-]{4,32}$/;
// the ASCII (IDNA) form of a mail domain: letter-digit-hyphen labels, at least two of them
const ASCII_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])$/;

export const FULL_NAME_MAX = 100;
/** The name rule in words, for the `validation` of a 400 answer. */
export const FULL_NAME_RULE = `must have at most ${FULL_NAME_MAX} characters and no control, bidi or zero-width characters`;

/**
 * Characters no identifier or name may contain: C0 and C1 controls (NUL included: nodemailer drops it,
 * PostgreSQL refuses it), DEL, bidi controls (they make a name or address read differently from what
 * it is), zero-width characters (two different values that look the same), and lone surrogates (they
 * turn into U+FFFD on the way to the database or a mail server).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const REFUSED_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060\uFEFF\p{Cs}]/u;

export function hasRefusedCharacter(value: string): boolean {
  return REFUSED_CHARACTERS.test(value);
}

/** The value as stored (phones in E.164), or undefined when the format is invalid. */
export function canonicalIdentifier(type: IdentifierType, raw: string): string | undefined {
  const value = raw.trim();
  if (hasRefusedCharacter(value)) return undefined;
  switch (type) {
    case 'email':
      return canonicalEmail(value.normalize('NFC'));
    case 'username':
      return USERNAME_PATTERN.test(value) ? value : undefined;
    case 'phone': {
      if (value.length > 32 || !value.startsWith('+') || !isValidPhoneNumber(value)) return undefined;
      return parsePhoneNumberFromString(value)?.number;
    }
  }
}

/**
 * local@domain with the domain in its IDNA-canonical Unicode form (lower case, UTS #46 mapped), so
 * that `BÜCHER.example`, `bücher.example` and `xn--bcher-kva.example` are one address, and the domain
 * stored is the one a mail server resolves. A domain IDNA cannot convert is refused.
 */
function canonicalEmail(value: string): string | undefined {
  if (value.length > 254 || !EMAIL_PATTERN.test(value)) return undefined;
  const at = value.lastIndexOf('@');
  const ascii = domainToASCII(value.slice(at + 1));
  if (!ascii || ascii.length > 253 || !ASCII_DOMAIN.test(ascii)) return undefined;
  const email = `${value.slice(0, at)}@${domainToUnicode(ascii)}`;
  return email.length <= 254 && EMAIL_PATTERN.test(email) ? email : undefined;
}

/**
 * A full name as stored: trimmed, NFC, at most FULL_NAME_MAX characters, none of the refused ones.
 * The error is the request error code of the name field: `missing_full_name` for a name too long (the
 * same answer as an empty one where a name is required), `invalid_full_name` for refused characters
 * (the user cannot see most of them, so the message says what is wrong). Whether an empty name will do
 * is the caller's to judge.
 */
export function canonicalFullName(raw: string): { value: string; error?: undefined } | { error: 'missing_full_name' | 'invalid_full_name' } {
  const value = raw.trim().normalize('NFC');
  if (hasRefusedCharacter(value)) return { error: 'invalid_full_name' };
  if (value.length > FULL_NAME_MAX) return { error: 'missing_full_name' };
  return { value };
}

/** A name from a social provider: not the user's typing to refuse, so the refused characters are dropped. */
export function cleanedFullName(raw: string): string {
  const chars = new RegExp(REFUSED_CHARACTERS.source, 'gu');
  const name = raw.replace(chars, '').trim().normalize('NFC');
  // cut at a code point, never between the halves of a surrogate pair
  return name.slice(0, FULL_NAME_MAX).replace(/[\uD800-\uDBFF]$/, '').trim();
}

/** The key uniqueness is checked on: case-insensitive for e-mail and username, E.164 for phone. */
export function normalizedIdentifier(type: IdentifierType, canonical: string): string {
  return type === 'phone' ? canonical : canonical.toLowerCase();
}

/** A best-effort key for looking a recipient up in the outbox. */
export function normalizedRecipient(value: string): string {
  const trimmed = value.trim();
  if (trimmed.includes('@')) return trimmed.toLowerCase();
  const phone = parsePhoneNumberFromString(trimmed);
  return phone?.number ?? trimmed.replace(/[\s()-]/g, '');
}
