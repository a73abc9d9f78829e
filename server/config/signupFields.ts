// The fields a project adds to sign-up (`signupFields` of its configuration): texts with a pattern and
// a length, and checkboxes agreeing to a linked text (terms, privacy) of a given version. Checked here
// when a project is configured, and the answers again on every sign-up: the widget's own check is a
// convenience, this one decides.
import type { SignupField, SignupFieldAnswer } from '../../src/core/api/types.ts';
import { hasRefusedCharacter } from '../flow/identifierRules.ts';
import type { Issue } from '../schema.ts';
// (only functions of it are used, at call time: the two modules import each other)
import { isHttpUrl, LANGUAGES } from './projectConfig.ts';

export type { SignupField, SignupFieldAnswer };

export const MAX_SIGNUP_FIELDS = 10;
const ID = /^[a-z][a-z0-9_-]{0,39}$/;
const TEXT_MAX_LENGTH = 500;
const DEFAULT_MAX_LENGTH = 100;
/** a checkbox label with a link: the linked words in [brackets], once */
const LINKED = /^[^[\]]*\[[^[\]]+\][^[\]]*$/;

/** An answer as the process keeps it from signup-init (or a social start) to the user's creation. */
export interface StoredSignupAnswer {
  id: string;
  type: SignupField['type'];
  value?: string;
  accepted?: boolean;
  version?: string;
  /** ms since the epoch: when it was given */
  answeredAt: number;
}

/** The in-band error codes of a sign-up field (the widget translates them, by field type where it has a variant). */
export type SignupFieldErrorCode = 'signup_field_required' | 'signup_field_invalid' | 'signup_field_outdated';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The whole-value test of a text field's pattern; undefined when the pattern does not compile. */
export function patternTest(pattern: string): RegExp | undefined {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return undefined;
  }
}

/** Length in characters (code points), as the widget counts them. */
const lengthOf = (value: string) => [...value].length;

/**
 * The `signupFields` of a project configuration, checked: every problem goes to `issues` (the
 * configuration is then refused as a whole). Defaults: `required` false, a text's `maxLength` 100.
 * `expandUrl` fills in a checkbox link's `${DEMO_ORIGIN}` (development seeds).
 */
export function parseSignupFields(input: unknown, issues: Issue[], expandUrl: (url: string) => string = (url) => url): SignupField[] {
  if (input === undefined) return [];
  if (!Array.isArray(input)) {
    issues.push({ field: 'signupFields', message: 'must be an array' });
    return [];
  }
  if (input.length > MAX_SIGNUP_FIELDS) issues.push({ field: 'signupFields', message: `must have at most ${MAX_SIGNUP_FIELDS} entries` });
  const seen = new Set<string>();
  return input.slice(0, MAX_SIGNUP_FIELDS).map((raw, i) => {
    const at = `signupFields[${i}]`;
    const problem = (key: string, message: string) => issues.push({ field: `${at}${key ? `.${key}` : ''}`, message });
    if (!isObject(raw)) {
      problem('', 'must be an object');
      return { id: `field${i}`, type: 'text', label: {}, required: false };
    }
    const id = typeof raw.id === 'string' ? raw.id : '';
    if (!ID.test(id)) problem('id', 'must be 1 to 40 lower-case letters, digits, "-" or "_", starting with a letter');
    else if (seen.has(id)) problem('id', 'is given twice');
    seen.add(id);
    const type = raw.type;
    if (type !== 'text' && type !== 'checkbox') problem('type', 'must be one of text, checkbox');
    const required = raw.required ?? false;
    if (typeof required !== 'boolean') problem('required', 'must be a boolean');
    const label: Record<string, string> = {};
    if (!isObject(raw.label)) problem('label', 'must be an object of texts by language, with en and de');
    else {
      for (const language of ['en', 'de']) if (!(language in raw.label)) problem(`label.${language}`, 'is required');
      for (const [language, text] of Object.entries(raw.label)) {
        if (!(LANGUAGES as readonly string[]).includes(language)) problem(`label.${language}`, `is not a language: one of ${LANGUAGES.join(', ')}`);
        else if (typeof text !== 'string' || !text.trim() || text.length > 300 || hasRefusedCharacter(text)) {
          problem(`label.${language}`, 'must be a text of 1 to 300 characters without control characters');
        } else label[language] = text.trim();
      }
    }
    const field: SignupField = { id, type: type === 'checkbox' ? 'checkbox' : 'text', label, required: required === true };
    const only = (keys: string[], forType: string) => {
      for (const key of keys) if (raw[key] !== undefined) problem(key, `is for ${forType} fields only`);
    };
    if (field.type === 'text') {
      only(['url', 'version'], 'checkbox');
      const length = (key: 'minLength' | 'maxLength', fallback: number | undefined) => {
        const value = raw[key] ?? fallback;
        if (value === undefined) return undefined;
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > TEXT_MAX_LENGTH) {
          problem(key, `must be an integer from 0 to ${TEXT_MAX_LENGTH}`);
          return undefined;
        }
        return value;
      };
      const minLength = length('minLength', undefined);
      const maxLength = length('maxLength', DEFAULT_MAX_LENGTH);
      if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) problem('minLength', 'must not be above maxLength');
      if (minLength) field.minLength = minLength;
      if (maxLength !== undefined) field.maxLength = maxLength;
      if (raw.pattern !== undefined) {
        if (typeof raw.pattern !== 'string' || !raw.pattern || raw.pattern.length > 500 || !patternTest(raw.pattern)) {
          problem('pattern', 'must be a JavaScript regular expression (u flag) of at most 500 characters');
        } else field.pattern = raw.pattern;
      }
    } else {
      only(['pattern', 'minLength', 'maxLength'], 'text');
      if (typeof raw.version !== 'string' || !raw.version.trim() || raw.version.length > 100 || hasRefusedCharacter(raw.version)) {
        problem('version', 'is required for a checkbox: the version of the text agreed to (1 to 100 characters)');
      } else field.version = raw.version.trim();
      if (raw.url !== undefined) {
        const url = typeof raw.url === 'string' ? expandUrl(raw.url) : undefined;
        if (url === undefined || url.length > 500 || !isHttpUrl(url)) problem('url', 'must be an http(s) URL');
        else field.url = url;
      }
      for (const [language, text] of Object.entries(label)) {
        if (field.url !== undefined && !LINKED.test(text)) problem(`label.${language}`, 'must mark the linked words once, in [brackets]');
        if (field.url === undefined && /[[\]]/.test(text)) problem(`label.${language}`, 'has [brackets] but the field has no url');
      }
    }
    return field;
  });
}

export interface CheckedAnswers {
  /** what was entered, as the process keeps it (also where it is refused, to show it again) */
  answers: StoredSignupAnswer[];
  /** the fields refused, by id */
  errors: Record<string, SignupFieldErrorCode>;
}

/**
 * The answers of a sign-up against the project's fields. An answer to a field the project does not have,
 * or two answers to one field, is a forged request: an issue (the call answers 400 with them). Anything
 * else wrong is a field's error, shown on the field: a required field left empty or a required box left
 * unticked, an answer of the other type (a text for a box, a tick for a text), a text that breaks the
 * length or pattern or holds control characters, a tick on another version of the text than the current one.
 */
export function checkSignupAnswers(fields: readonly SignupField[], given: readonly SignupFieldAnswer[] | undefined, now: number, issues: Issue[]): CheckedAnswers {
  const byId = new Map<string, SignupFieldAnswer>();
  (given ?? []).forEach((answer, i) => {
    if (!fields.some((f) => f.id === answer.id)) issues.push({ field: `signupFields[${i}].id`, message: 'is not a sign-up field of this project' });
    else if (byId.has(answer.id)) issues.push({ field: `signupFields[${i}].id`, message: 'is answered twice' });
    byId.set(answer.id, answer);
  });
  const answers: StoredSignupAnswer[] = [];
  const errors: Record<string, SignupFieldErrorCode> = {};
  for (const field of fields) {
    const answer = byId.get(field.id);
    const refuse = (code: SignupFieldErrorCode) => (errors[field.id] ??= code);
    if (field.type === 'text') {
      if (answer && (answer.accepted !== undefined || answer.version !== undefined)) refuse('signup_field_invalid');
      const value = (answer?.value ?? '').trim().normalize('NFC');
      if (!value) {
        if (field.required) refuse('signup_field_required');
        continue;
      }
      const length = lengthOf(value);
      const test = field.pattern === undefined ? undefined : patternTest(field.pattern);
      if (hasRefusedCharacter(value) || length < (field.minLength ?? 0) || length > (field.maxLength ?? DEFAULT_MAX_LENGTH) || (test && !test.test(value))) {
        refuse('signup_field_invalid');
      }
      answers.push({ id: field.id, type: 'text', value, answeredAt: now });
      continue;
    }
    if (answer?.value !== undefined) refuse('signup_field_invalid');
    let accepted = answer?.accepted === true;
    // a tick counts only for the text as it is now: an older (or made-up) version is not the one agreed to
    if (answer && (accepted || answer.version !== undefined) && answer.version !== field.version) {
      refuse('signup_field_outdated');
      accepted = false;
    }
    if (field.required && !accepted) refuse('signup_field_required');
    answers.push({ id: field.id, type: 'checkbox', accepted, version: field.version!, answeredAt: now });
  }
  return { answers, errors };
}

/** Whether a process's answers satisfy every required field (a social sign-up skips the form). */
export function requiredAnswered(fields: readonly SignupField[], answers: readonly StoredSignupAnswer[] | undefined): boolean {
  return fields.every((field) => {
    if (!field.required) return true;
    const answer = answers?.find((a) => a.id === field.id);
    return field.type === 'text' ? !!answer?.value : answer?.accepted === true && answer.version === field.version;
  });
}
