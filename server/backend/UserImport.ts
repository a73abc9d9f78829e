// Bringing a site's existing users (`npm run admin -- users import <project> <file.jsonl>`): one JSON
// object per line, `{"externalID"?, "fullName"?, "identifiers": [{"type", "value", "status"}],
// "signupFields"?, "signupLanguage"?}` (the answers to the project's sign-up fields: a project with a
// required one refuses a line without its answer, as the Backend API refuses such a user).
//
// Lines are checked by the rules of sign-up and the Backend API (userRecords.ts), then written in
// batches, one transaction each, with a few statements per batch rather than per user. The ownership
// rules hold as for one user created through the Backend API: a value another user holds verified
// fails the line; a verified one takes the value from accounts that hold it pending.
//
// Idempotent: a line whose `externalID` a user of the project has already, or (without one) whose first
// identifier a user of the project holds already, is counted as existing and changes nothing. A rerun
// of the same file creates nobody twice.
import { ApiError } from '../ApiError.ts';
import { LANGUAGES, type IdentifierType, type ProjectConfig } from '../config/projectConfig.ts';
import { signupAnswersBody, SignupFieldsMissing, type StoredSignupAnswer } from '../config/signupFields.ts';
import type { EventRecorder } from '../events/WebhookEvents.ts';
import { removeOtherHolders } from '../flow/ownership.ts';
import { newId } from '../randomValues.ts';
import { arr, obj, oneOf, optional, str, type Issue } from '../schema.ts';
import { UniqueViolation } from '../store/Database.ts';
import type { Store } from '../store/Store.ts';
import type { IdentifierRecord, NewUser } from '../store/UsersRepo.ts';
import { checkedExternalId, checkedFullName, checkedIdentifier, checkedSignupAnswers, newUserRecord, type NewIdentifier } from './userRecords.ts';

export const IMPORT_BATCH_SIZE = 1000;

/**
 * An import sends no webhook events: the users are the host's own, and the command's answer (created,
 * existing, failed) already tells it what happened. The pending copies of a value that an imported user
 * holds verified, taken from other accounts as a proof would, go unannounced too (server/README.md,
 * "Webhooks").
 */
const NO_EVENTS: EventRecorder = { record: async () => undefined, audit: async () => undefined };

const importLine = obj({
  externalID: optional(str({ max: 1000 })),
  fullName: optional(str({ max: 1000 })),
  identifiers: arr(
    obj({ type: oneOf(['email', 'phone', 'username'] as const), value: str({ max: 1000 }), status: oneOf(['pending', 'verified', 'primary'] as const) }),
    { max: 30 },
  ),
  signupFields: signupAnswersBody,
  signupLanguage: optional(oneOf(LANGUAGES)),
});

export interface ImportedLine {
  line: number;
  externalId: string | null;
  fullName: string;
  identifiers: NewIdentifier[];
  signupAnswers: StoredSignupAnswer[];
}

export interface ImportFailure {
  line: number;
  reason: string;
}

export interface ImportProgress {
  lines: number;
  created: number;
  existing: number;
  failed: number;
}

export interface ImportOptions {
  now: () => number;
  batchSize?: number;
  /** after each batch */
  onProgress?: (progress: ImportProgress) => void;
  onFailure?: (failure: ImportFailure) => void;
}

/** One line checked: the user to write, or every fault of it. */
export function parseImportLine(project: ProjectConfig, text: string, line: number, now: number): ImportedLine | ImportFailure {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { line, reason: 'not valid JSON' };
  }
  const issues: Issue[] = [];
  const body = importLine(json, '', issues);
  if (issues.length === 0) {
    const fullName = checkedFullName(body.fullName ?? '', 'fullName', issues);
    const externalId = body.externalID === undefined ? null : checkedExternalId(body.externalID, 'externalID', issues);
    const identifiers: NewIdentifier[] = [];
    body.identifiers.forEach((given, i) => {
      const field = `identifiers[${i}]`;
      const identifier = checkedIdentifier(project, given.type, given.value, given.status, { type: `${field}.type`, value: `${field}.value` }, issues);
      if (!identifier) return;
      if (identifiers.some((other) => other.type === identifier.type && other.normalized === identifier.normalized)) {
        issues.push({ field: `${field}.value`, message: 'is in the line twice' });
      } else identifiers.push(identifier);
    });
    if (body.identifiers.length === 0) issues.push({ field: 'identifiers', message: 'must hold at least one identifier' });
    for (const type of ['email', 'phone', 'username'] as const) {
      const ofType = identifiers.filter((i) => i.type === type);
      const max = project.identifiers[type].maxPerUser;
      if (ofType.length > max) issues.push({ field: 'identifiers', message: `holds ${ofType.length} of type ${type}; the project allows ${max} per user` });
      if (ofType.filter((i) => i.status === 'primary').length > 1) issues.push({ field: 'identifiers', message: `makes more than one ${type} primary` });
    }
    const signupAnswers = checkedSignupAnswers(project, body.signupFields, { now, language: body.signupLanguage, source: 'import' }, 'signupFields', issues);
    if (issues.length === 0) return { line, externalId, fullName, identifiers, signupAnswers };
  }
  return { line, reason: issues.map((issue) => `${issue.field || '(line)'}: ${issue.message}`).join('; ') };
}

const key = (i: { type: IdentifierType; normalized: string }) => `${i.type}:${i.normalized}`;

/**
 * Writes one batch in one transaction: which lines exist already (by external id, else by first
 * identifier), which values are held verified, then the new users and identifiers in bulk. Answers the
 * number created and existing, and the lines that failed.
 */
async function writeBatch(store: Store, project: ProjectConfig, batch: ImportedLine[], now: number) {
  return store.transaction(async () => {
    const failures: ImportFailure[] = [];
    let existing = 0;
    const externalIds = batch.flatMap((l) => (l.externalId === null ? [] : [l.externalId]));
    const takenIds = await store.users.takenExternalIds(project.id, externalIds);
    const firstValues = batch.filter((l) => l.externalId === null).map((l) => l.identifiers[0]!);
    const heldFirst = new Set((await store.users.findValues(project.id, firstValues, false)).map(key));
    const verifiedValues = batch.flatMap((l) => l.identifiers.filter((i) => i.status !== 'pending'));
    const heldVerified = new Set((await store.users.findValues(project.id, verifiedValues, true)).map(key));

    const users: NewUser[] = [];
    const identifiers: IdentifierRecord[] = [];
    const seenIds = new Set<string>();
    const seenFirst = new Set<string>();
    for (const line of batch) {
      const first = key(line.identifiers[0]!);
      if (line.externalId !== null ? takenIds.has(line.externalId) || seenIds.has(line.externalId) : heldFirst.has(first) || seenFirst.has(first)) {
        existing += 1;
        continue;
      }
      const claimed = line.identifiers.find((i) => i.status !== 'pending' && heldVerified.has(key(i)));
      if (claimed) {
        failures.push({ line: line.line, reason: `${claimed.type} ${claimed.value} is held verified by another user` });
        continue;
      }
      if (line.externalId !== null) seenIds.add(line.externalId);
      else seenFirst.add(first);
      const user = { ...newUserRecord(project, { fullName: line.fullName, status: 'active', externalId: line.externalId }, now), signupAnswers: line.signupAnswers };
      users.push(user);
      for (const identifier of line.identifiers) {
        if (identifier.status !== 'pending') heldVerified.add(key(identifier));
        const ofType = line.identifiers.filter((i) => i.type === identifier.type);
        // the one given as primary, else the first of its type
        const primary = ofType.some((i) => i.status === 'primary') ? identifier.status === 'primary' : ofType[0] === identifier;
        identifiers.push({
          id: newId('ide'),
          userId: user.id,
          type: identifier.type,
          value: identifier.value,
          normalized: identifier.normalized,
          status: identifier.status === 'pending' ? 'pending' : 'verified',
          primary,
        });
      }
    }
    await store.users.insertUsers(project, users);
    await store.users.insertIdentifiers(project.id, identifiers, now);
    // other accounts that held a now verified value pending lose it (rare: looked up once per batch)
    const verified = identifiers.filter((i) => i.status === 'verified');
    const pendingElsewhere = (await store.users.findValues(project.id, verified, false)).filter((i) => i.status === 'pending');
    const owners = new Map(verified.map((i) => [key(i), i.userId]));
    for (const copy of pendingElsewhere) await removeOtherHolders(store, NO_EVENTS, project.id, copy.type, copy.normalized, owners.get(key(copy))!);
    return { created: users.length, existing, failures };
  });
}

/**
 * Imports the lines of a JSONL source into a project. Empty lines are skipped. A batch that meets a
 * concurrent sign-up of one of its values (a unique violation) is written again line by line, so that
 * only that line fails.
 */
export async function importUsers(store: Store, project: ProjectConfig, lines: AsyncIterable<string>, options: ImportOptions): Promise<ImportProgress> {
  const progress: ImportProgress = { lines: 0, created: 0, existing: 0, failed: 0 };
  const size = options.batchSize ?? IMPORT_BATCH_SIZE;
  let batch: ImportedLine[] = [];
  const fail = (failure: ImportFailure) => {
    progress.failed += 1;
    options.onFailure?.(failure);
  };
  const flush = async () => {
    if (batch.length === 0) return;
    let results;
    try {
      results = [await writeBatch(store, project, batch, options.now())];
    } catch (error) {
      // a line refused at the users' creation (a required sign-up field unanswered), or one that met a
      // concurrent sign-up: line by line, so that only that line fails
      if (!(error instanceof UniqueViolation || error instanceof SignupFieldsMissing)) throw error;
      results = [];
      for (const line of batch) {
        try {
          results.push(await writeBatch(store, project, [line], options.now()));
        } catch (lineError) {
          if (lineError instanceof SignupFieldsMissing) {
            results.push({ created: 0, existing: 0, failures: [{ line: line.line, reason: lineError.validation!.map((i) => `${i.field}: ${i.message}`).join('; ') }] });
          } else if (lineError instanceof UniqueViolation) {
            results.push({ created: 0, existing: 0, failures: [{ line: line.line, reason: 'a value or the external id was taken meanwhile' }] });
          } else throw lineError;
        }
      }
    }
    for (const result of results) {
      progress.created += result.created;
      progress.existing += result.existing;
      result.failures.forEach(fail);
    }
    batch = [];
    options.onProgress?.({ ...progress });
  };
  for await (const text of lines) {
    progress.lines += 1;
    if (!text.trim()) continue;
    const parsed = parseImportLine(project, text, progress.lines, options.now());
    if ('reason' in parsed) fail(parsed);
    else batch.push(parsed);
    if (batch.length >= size) await flush();
  }
  await flush();
  return progress;
}

/** The project to import into, or a refusal naming it. */
export async function importProject(store: Store, projectId: string): Promise<ProjectConfig> {
  const project = await store.projects.get(projectId);
  if (!project) throw ApiError.notFound(`There is no project ${projectId}`);
  return project;
}
