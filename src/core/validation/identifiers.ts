// Client-side checks of what a visitor types (SPEC.md section 5). The server checks the same and more.
import type { IdentifierType, SignupField, SignupFieldAnswer } from '../api/types';

export const USERNAME_MIN = 4;
export const USERNAME_MAX = 32;
const USERNAME = /^[A-Za-z0-9_-]+$/;
// local part, @, a domain with at least one dot: what every mail system accepts, without chasing RFC 5322
const EMAIL = /^[^\s@"<>,;:()[\]\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** A translation key of the problem, or undefined when the value is fine. */
export type Problem = string | undefined;

export function checkUsername(value: string): Problem {
  if (!value) return 'validation.usernameRequired';
  if (value.length < USERNAME_MIN || value.length > USERNAME_MAX || !USERNAME.test(value)) {
    return 'errors.identifier_invalid_format.username';
  }
  return undefined;
}

export function checkEmail(value: string): Problem {
  if (!value) return 'validation.emailRequired';
  if (value.length > 254 || !EMAIL.test(value)) return 'errors.identifier_invalid_format.email';
  return undefined;
}

export function checkFullName(value: string): Problem {
  return value.trim() ? undefined : 'validation.fullNameRequired';
}

/** The e-mail-or-username field of login-init: an @ means e-mail. */
export function checkEmailOrUsername(value: string): Problem {
  if (!value) return 'validation.emailOrUsernameRequired';
  return value.includes('@') ? checkEmail(value) : checkUsername(value);
}

export function identifierTypeOf(value: string): IdentifierType {
  return value.includes('@') ? 'email' : 'username';
}

/**
 * A project's sign-up field (SignupField): the translation key of what is wrong with its answer, as the
 * server checks it (which decides; this spares the round trip): a required text left empty or box left
 * unticked, a text of the wrong length (in characters) or not matching the pattern as a whole.
 */
export function checkSignupField(field: SignupField, answer: string | boolean | undefined): Problem {
  const text = typeof answer === 'string' ? answer.trim().normalize('NFC') : '';
  if (field.type === 'checkbox' ? field.required && answer !== true : field.required && !text) return `errors.signup_field_required.${field.type}`;
  const length = [...text].length;
  if (text && (length < (field.minLength ?? 0) || length > (field.maxLength ?? 100) || (field.pattern && !new RegExp(`^(?:${field.pattern})$`, 'u').test(text)))) {
    return 'errors.signup_field_invalid';
  }
  return undefined;
}

/** What signup/init sends for the project's fields: each text trimmed, each box ticked or not with the version of its text. */
export function signupAnswers(fields: SignupField[], answers: Record<string, string | boolean>): SignupFieldAnswer[] {
  return fields.map(({ id, type, version }) =>
    type === 'text' ? { id, value: String(answers[id] ?? '').trim() } : { id, accepted: answers[id] === true, version },
  );
}
