// Phone numbers with libphonenumber-js (SPEC.md section 5): formatting as you type, country detection
// from a pasted international number, and the four parse-error kinds.
import {
  AsYouType,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberWithError,
  ParseError,
  validatePhoneNumberLength,
  type CountryCode,
} from 'libphonenumber-js/min';

export type { CountryCode };
export const DEFAULT_COUNTRY: CountryCode = 'US';
/** the most characters the number field holds, beyond the calling code */
export const PHONE_INPUT_MAX = 13;
export const NATIONAL_DIGITS_MIN = 2;
export const NATIONAL_DIGITS_MAX = 17;
export const EXTENSION_DIGITS_MAX = 20;
export const RAW_INPUT_MAX = 250;
/** formatting templates are used for at most this many digits; longer input stays unformatted */
export const TEMPLATE_DIGITS_MAX = 15;

export type PhoneProblem = 'NOT_A_NUMBER' | 'INVALID_COUNTRY' | 'TOO_SHORT' | 'TOO_LONG' | 'INVALID';

export interface Country {
  code: CountryCode;
  callingCode: string;
}

let countryList: Country[] | undefined;

/** Every country libphonenumber-js knows, with its calling code. */
export function countries(): Country[] {
  countryList ??= getCountries().map((code) => ({ code, callingCode: getCountryCallingCode(code) }));
  return countryList;
}

/** A flag from regional-indicator symbols: no images needed. */
export function flagOf(code: string): string {
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

const EXTENSION = /\s*(?:ext\.?|extension|x|#)\s*(\d*)$/i;

function splitExtension(text: string): { main: string; extension: string } {
  const match = EXTENSION.exec(text);
  return match ? { main: text.slice(0, match.index), extension: match[1] ?? '' } : { main: text, extension: '' };
}

export interface Typed {
  /** what the field shows */
  text: string;
  /** the country, changed when an international number was typed or pasted */
  country: CountryCode;
}

/**
 * Formats what the visitor typed for the chosen country. Input starting with + (or 00) is read as an
 * international number: its country is detected and the field keeps the national part.
 */
export function typePhone(raw: string, country: CountryCode): Typed {
  const { main, extension } = splitExtension(raw.slice(0, RAW_INPUT_MAX));
  const international = /^\s*(\+|00)/.test(main);
  if (international) {
    const digits = main.replace(/^\s*00/, '+').replace(/[^\d+]/g, '');
    const formatter = new AsYouType();
    formatter.input(digits);
    const detected = formatter.getCountry();
    const number = formatter.getNumber();
    if (detected && number) {
      return typePhone(number.nationalNumber + (extension ? ` ext. ${extension}` : ''), detected);
    }
    return { text: main.slice(0, PHONE_INPUT_MAX + 1), country };
  }
  const digits = main.replace(/\D/g, '').slice(0, PHONE_INPUT_MAX);
  let text = digits;
  if (digits.length <= TEMPLATE_DIGITS_MAX) text = new AsYouType(country).input(digits);
  const ext = extension.replace(/\D/g, '').slice(0, EXTENSION_DIGITS_MAX);
  if (/x|ext|#/i.test(raw.slice(main.length))) text += ` ext. ${ext}`;
  return { text, country };
}

export interface ParsedPhone {
  /** E.164, with ;ext= when an extension was given */
  e164?: string;
  problem?: PhoneProblem;
}

/** Checks the number for the country: the four parse-error kinds, then the country's own rules. */
export function parsePhone(text: string, country: CountryCode): ParsedPhone {
  const { main, extension } = splitExtension(text.slice(0, RAW_INPUT_MAX));
  const digits = main.replace(/\D/g, '');
  if (!digits) return { problem: 'NOT_A_NUMBER' };
  if (digits.length < NATIONAL_DIGITS_MIN) return { problem: 'TOO_SHORT' };
  if (digits.length > NATIONAL_DIGITS_MAX) return { problem: 'TOO_LONG' };
  if (extension.length > EXTENSION_DIGITS_MAX) return { problem: 'TOO_LONG' };
  try {
    const number = parsePhoneNumberWithError(main, country);
    const length = validatePhoneNumberLength(main, country);
    if (length === 'TOO_SHORT' || length === 'TOO_LONG' || length === 'NOT_A_NUMBER' || length === 'INVALID_COUNTRY') {
      return { problem: length };
    }
    if (!number.isValid()) return { problem: 'INVALID' };
    return { e164: number.number + (extension ? `;ext=${extension}` : '') };
  } catch (error) {
    if (error instanceof ParseError) {
      const kind = error.message as PhoneProblem;
      return { problem: ['NOT_A_NUMBER', 'INVALID_COUNTRY', 'TOO_SHORT', 'TOO_LONG'].includes(kind) ? kind : 'INVALID' };
    }
    return { problem: 'INVALID' };
  }
}

/** A number for display: international format, or what was given when it does not parse. */
export function displayPhone(e164: string): string {
  try {
    return parsePhoneNumberWithError(e164).formatInternational();
  } catch {
    return e164;
  }
}
