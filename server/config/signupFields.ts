// The fields a project adds to sign-up (`signupFields` of its configuration): texts with a pattern and
// a length, and checkboxes agreeing to a linked text (terms, privacy) of a given version. Checked here
// when a project is configured, and the answers again on every sign-up: the widget's own check is a
// convenience, this one decides.
import type { SignupField, SignupFieldAnswer } from '../../src/core/api/types.ts';
import { ApiError } from '../ApiError.ts';
import { hasRefusedCharacter } from '../flow/identifierRules.ts';
import { arr, bool, obj, optional, str, type Issue } from '../schema.ts';
// (only functions of it are used, at call time: the two modules import each other)
import { isHttpUrl, LANGUAGES, type Language, type ProjectConfig } from './projectConfig.ts';

export type { SignupField, SignupFieldAnswer };

export const MAX_SIGNUP_FIELDS = 10;
const ID = /^[a-z][a-z0-9_-]{0,39}$/;
const TEXT_MAX_LENGTH = 500;
const DEFAULT_MAX_LENGTH = 100;
/** a checkbox label with a link: the linked words in [brackets], once */
const LINKED = /^[^[\]]*\[[^[\]]+\][^[\]]*$/;

/**
 * Who gave an answer: the visitor in the widget (`signup`: the server rendered the text it records),
 * or the host's backend for its user (`backend-api`, `import`: the text is the one the host says it showed).
 */
export type AnswerSource = 'signup' | 'backend-api' | 'import';

/** The text a field was answered on: its label in the language shown (with the linked words in [brackets]) and its link. */
export interface ShownText {
  language: Language;
  label: string;
  url?: string;
}

/** An answer as the process keeps it from signup-init (or a social start) to the user's creation. */
export interface StoredSignupAnswer {
  id: string;
  type: SignupField['type'];
  value?: string;
  accepted?: boolean;
  version?: string;
  /** ms since the epoch: when it was given */
  answeredAt: number;
  /** what was shown with it (absent in answers stored before it was kept) */
  shown?: ShownText;
  source?: AnswerSource;
}

/** How an answer was given: the language of its texts (the request's) and who gave it. */
export interface AnswerContext {
  now: number;
  language: Language;
  source: AnswerSource;
}

/** The answers to sign-up fields as a request body carries them (signup/init, social start, Backend API, import). */
export const signupAnswersBody = optional(
  arr(obj({ id: str({ min: 1, max: 100 }), value: optional(str({ max: 2000 })), accepted: optional(bool()), version: optional(str({ max: 200 })) }), {
    max: 20,
  }),
);

/**
 * The text of a field as the widget shows it in `language`: the label in that language, else the
 * English one (as the widget's fieldLabel falls back), and the link.
 */
export function shownText(field: SignupField, language: Language): ShownText {
  const shownIn: Language = field.label[language] !== undefined ? language : 'en';
  return { language: shownIn, label: field.label[shownIn] ?? '', ...(field.url !== undefined ? { url: field.url } : {}) };
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
 * else wrong is a field's error, shown on the field: an answer of the other type (a text for a box, a
 * tick for a text), a text that breaks the length or pattern or holds control characters, a tick on
 * another version of the text than the current one; and, unless `rulesOnly`, a required field left
 * empty or a required box left unticked (missingSignupFields: the Backend API and the import leave that
 * to the check at the user's creation).
 */
export function checkSignupAnswers(
  fields: readonly SignupField[],
  given: readonly SignupFieldAnswer[] | undefined,
  context: AnswerContext,
  issues: Issue[],
  rulesOnly = false,
): CheckedAnswers {
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
    const given = { answeredAt: context.now, shown: shownText(field, context.language), source: context.source };
    if (field.type === 'text') {
      if (answer && (answer.accepted !== undefined || answer.version !== undefined)) refuse('signup_field_invalid');
      const value = (answer?.value ?? '').trim().normalize('NFC');
      if (!value) continue;
      const length = lengthOf(value);
      const test = field.pattern === undefined ? undefined : patternTest(field.pattern);
      if (hasRefusedCharacter(value) || length < (field.minLength ?? 0) || length > (field.maxLength ?? DEFAULT_MAX_LENGTH) || (test && !test.test(value))) {
        refuse('signup_field_invalid');
      }
      answers.push({ id: field.id, type: 'text', value, ...given });
      continue;
    }
    if (answer?.value !== undefined) refuse('signup_field_invalid');
    let accepted = answer?.accepted === true;
    // a tick counts only for the text as it is now: an older (or made-up) version is not the one agreed to
    if (answer && (accepted || answer.version !== undefined) && answer.version !== field.version) {
      refuse('signup_field_outdated');
      accepted = false;
    }
    answers.push({ id: field.id, type: 'checkbox', accepted, version: field.version!, ...given });
  }
  if (!rulesOnly) for (const [id, code] of Object.entries(missingSignupFields(fields, answers))) errors[id] ??= code;
  return { answers, errors };
}

/**
 * The project's required fields that these answers leave unanswered, by id, with the error to show:
 * `signup_field_outdated` for a box ticked on another version of its text, else `signup_field_required`.
 * Empty when every required field is answered: a text not blank, a box ticked for the current version.
 */
export function missingSignupFields(fields: readonly SignupField[], answers: readonly StoredSignupAnswer[] | undefined): Record<string, SignupFieldErrorCode> {
  const missing: Record<string, SignupFieldErrorCode> = {};
  for (const field of fields) {
    if (!field.required) continue;
    const answer = answers?.find((a) => a.id === field.id && a.type === field.type);
    if (field.type === 'text' ? !answer?.value?.trim() : !(answer?.accepted === true && answer.version === field.version)) {
      missing[field.id] = answer?.accepted === true ? 'signup_field_outdated' : 'signup_field_required';
    }
  }
  return missing;
}

/** The refusal of an account whose required sign-up fields are not answered (400, naming each field). */
export class SignupFieldsMissing extends ApiError {
  constructor(readonly missing: Record<string, SignupFieldErrorCode>, fields: readonly SignupField[]) {
    const issues = Object.entries(missing).map(([id, code]) => {
      const field = fields.find((f) => f.id === id)!;
      const wanted = field.type === 'text' ? 'a text' : `a ticked box for version ${field.version}`;
      return { field: 'signupFields', message: `${id} is required by the project (${wanted})${code === 'signup_field_outdated' ? ': the answer is for another version' : ''}` };
    });
    super(400, 'invalid_request', 'Bad request', 'The project requires answers to its sign-up fields that were not given', issues);
  }
}

/**
 * THE check before an account is created (UsersRepo.insertUsers, the one place a user row is written, calls
 * it for every user, whatever way it came by): the user's answers satisfy every required field of the
 * project as it is configured now. Throws SignupFieldsMissing otherwise.
 */
export function assertSignupFieldsAnswered(project: ProjectConfig, answers: readonly StoredSignupAnswer[]): void {
  const missing = missingSignupFields(project.signupFields, answers);
  if (Object.keys(missing).length > 0) throw new SignupFieldsMissing(missing, project.signupFields);
}
