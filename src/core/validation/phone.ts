// Phone numbers (SPEC.md section 5): formatting as you type, the country of a pasted international
// number, per-country length and pattern rules and the four parse-error kinds. The rules are
// libphonenumber-js's "min" metadata; the code reading them is this file, a fraction of the size of
// the library's own parser and as-you-type formatter (see the README's "Performance" section).
// In the bundle this module is the metadata's text (vite.config.ts, slimPhoneMetadata), parsed on first
// use: the first screen rarely needs it, and a 70 KB object literal costs evaluation before the first
// render. Unbundled (tests) it is the object.
import metadataSource from 'libphonenumber-js/metadata.min.json';

export type CountryCode = string;
export const DEFAULT_COUNTRY: CountryCode = 'US';
/** the most digits the number field takes, beyond the calling code */
export const PHONE_INPUT_MAX = 13;
export const NATIONAL_DIGITS_MIN = 2;
export const NATIONAL_DIGITS_MAX = 17;
export const EXTENSION_DIGITS_MAX = 20;
export const RAW_INPUT_MAX = 250;
/** formatting templates are used for at most this many digits; longer input stays unformatted */
export const TEMPLATE_DIGITS_MAX = 15;

export type PhoneProblem = 'NOT_A_NUMBER' | 'INVALID_COUNTRY' | 'TOO_SHORT' | 'TOO_LONG' | 'INVALID';

// The compact metadata: per country an array whose positions name the fields used here.
type Format = [pattern: string, format: string, leadingDigits?: string[], nationalPrefixRule?: string | 0, optional?: unknown, international?: string];
type Plan = [
  callingCode: string,
  idd: string | 0 | 1,
  nationalNumber: string,
  lengths: number[],
  formats?: Format[] | 0,
  nationalPrefix?: string | 0,
  nationalPrefixRule?: string | 0,
  nationalPrefixForParsing?: string | 0,
  nationalPrefixTransform?: string | 0,
  nationalPrefixOptional?: unknown,
  leadingDigits?: string | 0,
  types?: ([string, ...unknown[]] | 0)[] | 0,
];
interface Metadata {
  countries: Record<string, Plan>;
  /** the countries of each calling code, its main one first; the bundle leaves it out (see below) */
  country_calling_codes?: Record<string, string[]>;
}
let metadata: Metadata | undefined;
const loaded = (): Metadata => (metadata ??= (typeof metadataSource === 'string' ? JSON.parse(metadataSource) : metadataSource) as Metadata);
const plans = () => loaded().countries;
/**
 * The bundle's metadata (vite.config.ts) has no table of calling codes: it is the countries in their
 * (alphabetical) order grouped by calling code, the main one of a shared code (marked 1 where the
 * unused international dialling prefix was) first.
 */
const byCallingCode = () => {
  const data = loaded();
  if (!data.country_calling_codes) {
    const table: Record<string, string[]> = {};
    for (const [code, plan] of Object.entries(data.countries)) (table[plan[0]] ??= [])[plan[1] === 1 ? 'unshift' : 'push'](code);
    data.country_calling_codes = table;
  }
  return data.country_calling_codes;
};

export interface Country {
  code: CountryCode;
  callingCode: string;
}

let countryList: Country[] | undefined;

/** Every country the metadata knows, with its calling code. */
export function countries(): Country[] {
  countryList ??= Object.keys(plans()).map((code) => ({ code, callingCode: plans()[code]![0] }));
  return countryList;
}

const regexCache = new Map<string, RegExp>();
function test(pattern: string, value: string, whole = true): boolean {
  const key = (whole ? '=' : '^') + pattern;
  let regex = regexCache.get(key);
  if (!regex) regexCache.set(key, (regex = new RegExp(whole ? `^(?:${pattern})$` : `^(?:${pattern})`)));
  return regex.test(value);
}

function formatsOf(plan: Plan): Format[] {
  return plan[4] || plans()[byCallingCode()[plan[0]]![0]!]![4] || [];
}

/** Strips a typed national (trunk) prefix, the way the country's rules say it is written. */
function stripNationalPrefix(digits: string, plan: Plan): { national: string; prefixed: boolean } {
  const forParsing = plan[7] || plan[5];
  if (!forParsing) return { national: digits, prefixed: false };
  const match = new RegExp(`^(?:${forParsing})`).exec(digits);
  if (!match) return { national: digits, prefixed: false };
  const transform = plan[8];
  const national = transform && match[1] !== undefined
    ? transform.replace(/\$(\d)/g, (_, n: string) => match[Number(n)] ?? '') + digits.slice(match[0].length)
    : digits.slice(match[0].length);
  // keep the digits as typed when stripping would break a number that is fine as it is
  if (test(plan[2], digits) && !test(plan[2], national)) return { national: digits, prefixed: false };
  return { national, prefixed: national !== digits };
}

/** The country among those sharing a calling code: by leading digits or number types, else the main one. */
function countryForNational(callingCode: string, national: string): CountryCode | undefined {
  const candidates = byCallingCode()[callingCode];
  if (!candidates) return undefined;
  for (const code of candidates) {
    const plan = plans()[code];
    if (!plan) continue;
    if (plan[10] && test(plan[10], national, false)) return code;
    if (plan[11] && plan[11].some((type) => type && test(type[0], national))) return code;
  }
  return candidates.find((code) => plans()[code]);
}

interface Split {
  callingCode?: string;
  national: string;
}

/** "+4915…" or "004915…": the calling code and the national digits. */
function splitInternational(digits: string): Split {
  for (let length = 1; length <= 3; length++) {
    const callingCode = digits.slice(0, length);
    if (byCallingCode()[callingCode]) return { callingCode, national: digits.slice(length) };
  }
  return { national: digits };
}

const EXTENSION = /\s*(?:ext\.?|extension|x|#)\s*(\d*)$/i;

function splitExtension(text: string): { main: string; extension: string } {
  const match = EXTENSION.exec(text);
  return match ? { main: text.slice(0, match.index), extension: match[1] ?? '' } : { main: text, extension: '' };
}

const INTERNATIONAL = /^\s*(\+|00)/;

function groupSizes(pattern: string): [min: number, max: number][] {
  return [...pattern.matchAll(/\(\\d(?:\{(\d+)(?:,(\d*))?\}|(\+))?\)/g)].map(([, min, max, plus]) =>
    plus ? [1, Infinity] : min ? [Number(min), max === undefined ? Number(min) : max === '' ? Infinity : Number(max)] : [1, 1],
  );
}

/**
 * Formats national digits (possibly still being typed) with the country's first format whose leading
 * digits match. A finished number that the format matches is formatted exactly; a partial one is laid
 * into the format's groups and cut after its last digit.
 */
function formatNational(national: string, plan: Plan, prefixTyped: boolean, international = false): string {
  if (!national || national.length > TEMPLATE_DIGITS_MAX) return national;
  const candidates = formatsOf(plan).filter((format) => {
    const leading = format[2];
    if (!leading?.length) return true;
    // the last pattern is the most specific; shorter input is judged by the earlier ones (the bundle keeps
    // only the first, which matches the start of every number a later one matches: vite.config.ts)
    return leading.some((pattern) => test(pattern, national, false));
  });
  const complete = candidates.find((format) => test(format[0], national));
  const chosen = complete ?? candidates.find((format) => groupSizes(format[0]).reduce((sum, [, max]) => sum + max, 0) >= national.length);
  if (!chosen) return national;
  // international numbers use spaces as their only separators
  let template = international ? (chosen[5] || chosen[1]).replace(/[()]/g, '').replace(/[-./\s]+/g, ' ') : chosen[1];
  const rule = chosen[3] || plan[6];
  // a rule that writes the national prefix applies when it was typed; a rule of brackets always does
  if (!international && rule && (prefixTyped || !/\d/.test(rule.replace('$1', '')))) template = template.replace('$1', rule);
  const sizes = groupSizes(chosen[0]);
  const groups: string[] = [];
  let rest = national;
  sizes.forEach(([min, max], index) => {
    const last = index === sizes.length - 1;
    const take = complete ? max : last ? rest.length : Math.min(min, rest.length);
    groups.push(rest.slice(0, take));
    rest = rest.slice(take);
  });
  if (complete) {
    const match = new RegExp(`^(?:${chosen[0]})$`).exec(national)!;
    return template.replace(/\$(\d)/g, (_, n: string) => match[Number(n)] ?? '');
  }
  // lay the digits into the template and stop right after the last one
  const filled = template.replace(/\$(\d)/g, (_, n: string) => groups[Number(n) - 1] ?? '');
  return filled.slice(0, filled.search(/\d\D*$/) + 1);
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
  // nothing past the cut counts, an extension marker neither
  const input = raw.slice(0, RAW_INPUT_MAX);
  const { main, extension } = splitExtension(input);
  const ext = extension.replace(/\D/g, '').slice(0, EXTENSION_DIGITS_MAX);
  const withExtension = (text: string) => (/x|ext|#/i.test(input.slice(main.length)) ? `${text} ext. ${ext}` : text);
  if (INTERNATIONAL.test(main)) {
    const split = splitInternational(main.replace(INTERNATIONAL, '').replace(/\D/g, ''));
    const detected = split.callingCode && countryForNational(split.callingCode, split.national);
    if (detected) return typePhone(withExtension(split.national.slice(0, PHONE_INPUT_MAX)), detected);
    return { text: main.slice(0, PHONE_INPUT_MAX + 1), country };
  }
  const plan = plans()[country];
  const digits = main.replace(/\D/g, '').slice(0, PHONE_INPUT_MAX);
  if (!plan) return { text: withExtension(digits), country };
  const { national, prefixed } = stripNationalPrefix(digits, plan);
  const formatted = prefixed ? formatNational(national, plan, true) : formatNational(digits, plan, false);
  // a national prefix the format does not show stays in front, so nothing typed disappears
  const prefix = prefixed && formatted.replace(/\D/g, '').length < digits.length ? digits.slice(0, digits.length - national.length) : '';
  return { text: withExtension(prefix ? `${prefix} ${formatted}`.trim() : formatted), country };
}

export interface ParsedPhone {
  /** E.164, with ;ext= when an extension was given */
  e164?: string;
  problem?: PhoneProblem;
}

/** Checks the number for the country: the four parse-error kinds, then the country's own rules. */
export function parsePhone(text: string, country: CountryCode): ParsedPhone {
  const { main, extension } = splitExtension(text.slice(0, RAW_INPUT_MAX));
  if (/[^\d\s()+\-./]/.test(main)) return { problem: 'NOT_A_NUMBER' };
  let digits = main.replace(/\D/g, '');
  if (!digits) return { problem: 'NOT_A_NUMBER' };
  if (INTERNATIONAL.test(main)) {
    const split = splitInternational(main.replace(INTERNATIONAL, '').replace(/\D/g, ''));
    const detected = split.callingCode && countryForNational(split.callingCode, split.national);
    if (!detected) return { problem: 'INVALID_COUNTRY' };
    country = detected;
    digits = split.national;
  }
  const plan = plans()[country];
  if (!plan) return { problem: 'INVALID_COUNTRY' };
  if (digits.length < NATIONAL_DIGITS_MIN) return { problem: 'TOO_SHORT' };
  if (digits.length > NATIONAL_DIGITS_MAX || extension.length > EXTENSION_DIGITS_MAX) return { problem: 'TOO_LONG' };
  const { national } = stripNationalPrefix(digits, plan);
  const lengths = plan[3];
  if (national.length < Math.min(...lengths)) return { problem: 'TOO_SHORT' };
  if (national.length > Math.max(...lengths)) return { problem: 'TOO_LONG' };
  if (!lengths.includes(national.length) || !test(plan[2], national)) return { problem: 'INVALID' };
  return { e164: `+${plan[0]}${national}${extension ? `;ext=${extension}` : ''}` };
}

/** The phone field as typed, checked: its E.164 form, or the translation key of what is wrong. */
export type PhoneCheck = { e164: string; problem?: undefined } | { e164?: undefined; problem: string };

export function checkPhone(text: string, country: CountryCode): PhoneCheck {
  if (!text.trim()) return { problem: 'validation.phoneRequired' };
  const parsed = parsePhone(text, country);
  return parsed.e164 ? { e164: parsed.e164 } : { problem: `validation.phone.${parsed.problem}` };
}

/** A number for display: international format, or what was given when it does not parse. */
export function displayPhone(e164: string): string {
  const split = splitInternational(e164.replace(/^\+/, '').replace(/;ext=.*$/, ''));
  const country = split.callingCode && countryForNational(split.callingCode, split.national);
  if (!country || !e164.startsWith('+')) return e164;
  return `+${split.callingCode} ${formatNational(split.national, plans()[country]!, false, true)}`;
}
