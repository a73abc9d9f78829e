// Format rules and normalisation of e-mail addresses, phone numbers and usernames.
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import type { IdentifierType } from '../config/projectConfig.ts';

const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;
const USERNAME_PATTERN = /^[A-Za-z0-9_-]{4,32}$/;

/** The value as stored (phones in E.164), or undefined when the format is invalid. */
export function canonicalIdentifier(type: IdentifierType, raw: string): string | undefined {
  const value = raw.trim();
  switch (type) {
    case 'email':
      return value.length <= 254 && EMAIL_PATTERN.test(value) ? value : undefined;
    case 'username':
      return USERNAME_PATTERN.test(value) ? value : undefined;
    case 'phone': {
      if (value.length > 32 || !value.startsWith('+') || !isValidPhoneNumber(value)) return undefined;
      return parsePhoneNumberFromString(value)?.number;
    }
  }
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
