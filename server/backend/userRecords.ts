// Users and identifiers as the host's backend writes them (Backend API, `users import`): checked by the
// same rules as sign-up (flow/identifierRules.ts), then written with the ownership rules of
// flow/ownership.ts: a value another account holds verified is refused, a verified one takes the value
// from the accounts that hold it pending.
import { randomBytes } from 'node:crypto';
import { ApiError } from '../ApiError.ts';
import type { IdentifierType, Language, ProjectConfig } from '../config/projectConfig.ts';
import { checkSignupAnswers, type AnswerSource, type SignupFieldAnswer, type StoredSignupAnswer } from '../config/signupFields.ts';
import { canonicalFullName, canonicalIdentifier, FULL_NAME_RULE, hasRefusedCharacter, normalizedIdentifier } from '../flow/identifierRules.ts';
import type { EventRecorder } from '../events/WebhookEvents.ts';
import { removeOtherHolders } from '../flow/ownership.ts';
import { newId } from '../randomValues.ts';
import type { Issue } from '../schema.ts';
import { UniqueViolation } from '../store/Database.ts';
import type { Store } from '../store/Store.ts';
import type { IdentifierRecord, UserRecord } from '../store/UsersRepo.ts';

/** An identifier status as the Backend API names it: `primary` is a verified one made the primary of its type. */
export type WireIdentifierStatus = 'pending' | 'verified' | 'primary';

export const EXTERNAL_ID_MAX = 200;

export interface NewIdentifier {
  type: IdentifierType;
  value: string;
  normalized: string;
  status: WireIdentifierStatus;
}

/** A full name as stored, or an issue for `field`. */
export function checkedFullName(raw: string, field: string, issues: Issue[]): string {
  const name = canonicalFullName(raw);
  if (name.error) {
    issues.push({ field, message: FULL_NAME_RULE });
    return '';
  }
  return name.value;
}

/** A host's external id as stored (trimmed), or an issue for `field`. */
export function checkedExternalId(raw: string, field: string, issues: Issue[]): string {
  const value = raw.trim();
  if (!value || value.length > EXTERNAL_ID_MAX || hasRefusedCharacter(value)) {
    issues.push({ field, message: `must be 1 to ${EXTERNAL_ID_MAX} characters without control, bidi or zero-width characters` });
  }
  return value;
}

/** An identifier the project uses, in its stored form, or issues naming `fields` (of type and value). */
export function checkedIdentifier(
  project: ProjectConfig,
  type: IdentifierType,
  raw: string,
  status: WireIdentifierStatus,
  fields: { type: string; value: string },
  issues: Issue[],
): NewIdentifier | undefined {
  if (!project.identifiers[type].enabled) {
    issues.push({ field: fields.type, message: `this project does not use the identifier type ${type}` });
    return undefined;
  }
  if (!raw.trim()) {
    // Corbado's words for it: hosts may match on them
    issues.push({ field: fields.value, message: 'cannot be blank' });
    return undefined;
  }
  const value = canonicalIdentifier(type, raw);
  if (!value) {
    issues.push({ field: fields.value, message: `is not a valid ${type}${type === 'phone' ? ' (E.164, e.g. +4915112345678)' : ''}` });
    return undefined;
  }
  return { type, value, normalized: normalizedIdentifier(type, value), status };
}

export interface UserFields {
  fullName: string;
  status: UserRecord['status'];
  externalId: string | null;
}

/** A new user of the project: a fresh id and WebAuthn user handle. */
export function newUserRecord(project: ProjectConfig, fields: UserFields, now: number): UserRecord {
  return { id: newId('usr'), projectId: project.id, userHandle: randomBytes(32).toString('base64url'), createdAt: now, ...fields };
}

const ANSWER_PROBLEMS = {
  signup_field_invalid: "breaks the field's rules (a value for a text, accepted and version for a box; length, pattern, no control characters)",
  signup_field_outdated: "is for another version of the field's text than its current one",
  signup_field_required: 'is required',
} as const;

/**
 * The answers a host gives for its user (Backend API, import), by the rules of sign-up's, or issues for
 * `field`. Whether every required field is answered is not asked here: the user's creation checks that
 * (UsersRepo.insertUsers). `language`: the one the host showed the texts in (default: the project's).
 */
export function checkedSignupAnswers(
  project: ProjectConfig,
  given: readonly SignupFieldAnswer[] | undefined,
  context: { now: number; language: Language | undefined; source: AnswerSource },
  field: string,
  issues: Issue[],
): StoredSignupAnswer[] {
  const fieldIssues: Issue[] = [];
  const language = context.language ?? project.language;
  const { answers, errors } = checkSignupAnswers(project.signupFields, given, { ...context, language }, fieldIssues, true);
  issues.push(...fieldIssues.map((issue) => ({ ...issue, field: issue.field.replace(/^signupFields/, field) })));
  for (const [id, code] of Object.entries(errors)) issues.push({ field, message: `the answer to ${id} ${ANSWER_PROBLEMS[code]}` });
  return answers;
}

/**
 * Writes a new user with its answers to the sign-up fields; 409 when the external id is taken in the
 * project, 400 when a required field is not answered (SignupFieldsMissing).
 */
export async function insertUser(store: Store, project: ProjectConfig, fields: UserFields, signupAnswers: readonly StoredSignupAnswer[], now: number): Promise<UserRecord> {
  const user = newUserRecord(project, fields, now);
  try {
    // a savepoint: a refused insert leaves the caller's transaction usable (PostgreSQL)
    await store.transaction(() => store.users.insertUsers(project, [{ ...user, signupAnswers }]));
  } catch (error) {
    if (error instanceof UniqueViolation) throw new ApiError(409, 'external_id_in_use', 'Conflict', 'Another user of the project has this external id');
    throw error;
  }
  return user;
}

export function identifierInUse(): ApiError {
  return new ApiError(409, 'identifier_already_in_use', 'Conflict', 'Another user holds this identifier verified, or the user holds it already');
}

/**
 * Adds an identifier to a user, in the caller's transaction. Refused: a value another user holds
 * verified or this user holds already (409). The project's `maxPerUser` does not bind the host's backend
 * (it is the account page's limit for what a person adds), as Corbado's Backend API is not bound by it.
 * A verified one takes the value from other users' pending copies; the first of its type (or one given
 * as `primary`) is the primary one.
 */
export async function insertIdentifier(
  store: Store,
  events: EventRecorder,
  project: ProjectConfig,
  userId: string,
  identifier: NewIdentifier,
  now: number,
): Promise<IdentifierRecord> {
  const held = (await store.users.listIdentifiers(userId)).filter((i) => i.type === identifier.type);
  if (await store.users.findVerifiedIdentifier(project.id, identifier.type, identifier.normalized)) throw identifierInUse();
  const record: IdentifierRecord = {
    id: newId('ide'),
    userId,
    type: identifier.type,
    value: identifier.value,
    normalized: identifier.normalized,
    status: identifier.status === 'pending' ? 'pending' : 'verified',
    primary: held.length === 0,
  };
  try {
    await store.transaction(() => store.users.insertIdentifier(project.id, record, now));
  } catch (error) {
    // PostgreSQL: a concurrent sign-up or proof of the same value committed first
    if (error instanceof UniqueViolation) throw identifierInUse();
    throw error;
  }
  if (record.status === 'verified') {
    await removeOtherHolders(store, events, project.id, record.type, record.normalized, userId);
    // as a proof by code does: a confirmed e-mail address confirms the user's pending passkeys
    if (record.type === 'email') await store.credentials.activatePending(userId);
  }
  if (identifier.status === 'primary' && !record.primary) {
    await store.users.setPrimary(record);
    record.primary = true;
  }
  return record;
}
