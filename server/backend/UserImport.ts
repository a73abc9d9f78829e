// Bringing a site's existing users (`npm run admin -- users import <project> <file.jsonl>`): one JSON
// object per line, `{"externalID"?, "fullName"?, "identifiers": [{"type", "value", "status"}],
// "signupFields"?, "signupLanguage"?}` (the answers to the project's sign-up fields: a project with a
// required one refuses a line without its answer, as the Backend API refuses such a user).
//
// Lines are checked by the rules of sign-up and the Backend API (userRecords.ts), then written in
// batches, one transaction each, with a few statements per batch rather than per user. The ownership
// rules hold as for one user created through the Backend API: a value another user holds verified
// refuses the line; a verified one takes the value from accounts that hold it pending (a squatter's
// copy), who are told `identifier.removed`.
//
// An upsert, idempotent: a line is the account of the user with its `externalID`, or (without one) of
// the user who holds its first identifier **verified**. A pending holder proves nothing and is never
// taken for the customer, so a line without an `externalID` needs a verified (or primary) first
// identifier. A line for an account that exists updates it: a name given replaces the name, an
// identifier it lacks is added, a pending one the line gives verified is verified, one given `primary`
// becomes primary. Nothing is taken away: an identifier the line does not name stays (the person may
// have added it), and a verified one stays verified. A rerun of the same file changes nothing.
import { ApiError } from '../ApiError.ts';
import { LANGUAGES, type IdentifierType, type ProjectConfig } from '../config/projectConfig.ts';
import { signupAnswersBody, SignupFieldsMissing, type StoredSignupAnswer } from '../config/signupFields.ts';
import { EVENT_TYPES, identifierData, type EventType } from '../events/eventTypes.ts';
import { auditOf, type EventRecorder } from '../events/WebhookEvents.ts';
import { removeOtherHolders } from '../flow/ownership.ts';
import { newId } from '../randomValues.ts';
import { arr, obj, oneOf, optional, str, type Issue } from '../schema.ts';
import { UniqueViolation } from '../store/Database.ts';
import type { Store } from '../store/Store.ts';
import type { IdentifierRecord, UserRecord } from '../store/UsersRepo.ts';
import { checkedExternalId, checkedFullName, checkedIdentifier, checkedSignupAnswers, newUserRecord, type NewIdentifier } from './userRecords.ts';

export const IMPORT_BATCH_SIZE = 1000;

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
  /** null: the line gives no name (a new user gets none, an existing one keeps theirs) */
  fullName: string | null;
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
  updated: number;
  unchanged: number;
  refused: number;
}

export interface ImportOptions {
  now: () => number;
  /** webhook events: user.created (`source: import`), user.updated, identifier.added / verified / removed */
  events: EventRecorder;
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
    const fullName = body.fullName === undefined ? null : checkedFullName(body.fullName, 'fullName', issues);
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
    // no per-user maximum: the host's backend decides how many (as through the Backend API)
    for (const type of ['email', 'phone', 'username'] as const) {
      if (identifiers.filter((i) => i.type === type && i.status === 'primary').length > 1) issues.push({ field: 'identifiers', message: `makes more than one ${type} primary` });
    }
    if (externalId === null && identifiers[0]?.status === 'pending') {
      issues.push({ field: 'identifiers[0].status', message: 'without an externalID, the first identifier must be verified or primary: it is what finds the user again' });
    }
    const signupAnswers = checkedSignupAnswers(project, body.signupFields, { now, language: body.signupLanguage, source: 'import' }, 'signupFields', issues);
    if (issues.length === 0) return { line, externalId, fullName, identifiers, signupAnswers };
  }
  return { line, reason: issues.map((issue) => `${issue.field || '(line)'}: ${issue.message}`).join('; ') };
}

const key = (i: { type: IdentifierType; normalized: string }) => `${i.type}:${i.normalized}`;

/** An account as a batch sees it: as stored (or new), with what the batch's lines make of it. */
interface Account {
  user: UserRecord;
  /** what the batch has made of the identifiers, stored and added */
  identifiers: IdentifierRecord[];
  /** null: created by this batch */
  stored: { fullName: string; identifiers: IdentifierRecord[] } | null;
  /** a new account's answers to the project's sign-up fields, checked where users are written */
  signupAnswers: StoredSignupAnswer[];
}

/**
 * The one way the import creates an account: a new user of the project with the line's identifiers,
 * the one given `primary` (else the first of its type) the primary one.
 */
function newAccount(project: ProjectConfig, line: ImportedLine, now: number): Account {
  const user = newUserRecord(project, { fullName: line.fullName ?? '', status: 'active', externalId: line.externalId }, now);
  const account: Account = { user, identifiers: [], stored: null, signupAnswers: line.signupAnswers };
  applyLine(account, line);
  return account;
}

/** Applies a line to an account (new or stored); whether it changed anything. Takes nothing away. */
function applyLine(account: Account, line: ImportedLine): boolean {
  let changed = false;
  if (line.fullName !== null && line.fullName !== account.user.fullName) {
    account.user = { ...account.user, fullName: line.fullName };
    changed = true;
  }
  for (const given of line.identifiers) {
    let held = account.identifiers.find((i) => i.type === given.type && i.normalized === given.normalized);
    if (!held) {
      held = {
        id: newId('ide'),
        userId: account.user.id,
        type: given.type,
        value: given.value,
        normalized: given.normalized,
        status: given.status === 'pending' ? 'pending' : 'verified',
        primary: !account.identifiers.some((i) => i.type === given.type),
      };
      account.identifiers.push(held);
      changed = true;
    } else if (given.status !== 'pending' && held.status === 'pending') {
      held.status = 'verified';
      changed = true;
    }
    if (given.status === 'primary' && !held.primary) {
      for (const other of account.identifiers) if (other.type === held.type) other.primary = other === held;
      changed = true;
    }
  }
  return changed;
}

/**
 * Only the events some endpoint of the project receives go out as webhooks (asked once per batch, not
 * once per user); the trail keeps every one.
 */
async function wantedEvents(store: Store, projectId: string, events: EventRecorder): Promise<EventRecorder> {
  const wanted = new Set<EventType>();
  for (const type of EVENT_TYPES) if ((await store.webhookEndpoints.receiving(projectId, type)).length > 0) wanted.add(type);
  return {
    record: async (p, type, data) => (wanted.has(type) ? events.record(p, type, data) : events.audit(p, auditOf(type, data))),
    audit: (p, event) => events.audit(p, event),
  };
}

interface BatchResult {
  created: number;
  updated: number;
  unchanged: number;
  refusals: ImportFailure[];
}

/**
 * Writes one batch in one transaction: finds the accounts its lines are for (by external id, else by
 * the first identifier held verified), which values are held verified by whom, applies the lines in
 * order (a later line sees what an earlier one did), then writes the new accounts in bulk and the
 * changes of stored ones, and tells the events.
 */
async function writeBatch(store: Store, project: ProjectConfig, batch: ImportedLine[], now: number, allEvents: EventRecorder): Promise<BatchResult> {
  return store.transaction(async () => {
    const events = await wantedEvents(store, project.id, allEvents);
    const result: BatchResult = { created: 0, updated: 0, unchanged: 0, refusals: [] };
    const byExternalId = new Map<string, Account>();
    const byVerifiedValue = new Map<string, Account>();
    // the stored accounts the lines name
    const named = await store.users.byExternalIds(project.id, batch.flatMap((l) => (l.externalId === null ? [] : [l.externalId])));
    const verifiedValues = batch.flatMap((l) => l.identifiers.filter((i) => i.status !== 'pending'));
    const heldVerified = await store.users.findValues(project.id, verifiedValues, true);
    const firstHolders = new Set(batch.filter((l) => l.externalId === null).map((l) => key(l.identifiers[0]!)));
    const users = [...named, ...(await store.users.getMany(heldVerified.filter((i) => firstHolders.has(key(i))).map((i) => i.userId)))];
    const stored = await store.users.identifiersOfUsers(users.map((u) => u.id));
    const accounts = new Map<string, Account>();
    for (const user of users) {
      const identifiers = stored.filter((i) => i.userId === user.id);
      accounts.set(user.id, { user, identifiers: identifiers.map((i) => ({ ...i })), stored: { fullName: user.fullName, identifiers }, signupAnswers: [] });
    }
    for (const account of accounts.values()) if (account.user.externalId !== null) byExternalId.set(account.user.externalId, account);
    // who holds each verified value: an account of the batch, or another user (by id)
    const owners = new Map<string, string>(heldVerified.map((i) => [key(i), i.userId]));
    for (const identifier of heldVerified) {
      const account = accounts.get(identifier.userId);
      if (account) byVerifiedValue.set(key(identifier), account);
    }

    for (const line of batch) {
      const found = line.externalId !== null ? byExternalId.get(line.externalId) : byVerifiedValue.get(key(line.identifiers[0]!));
      const userId = found?.user.id;
      const claimed = line.identifiers.find((i) => i.status !== 'pending' && owners.has(key(i)) && owners.get(key(i)) !== userId);
      if (claimed) {
        result.refusals.push({ line: line.line, reason: `${claimed.type} ${claimed.value} is held verified by another user` });
        continue;
      }
      let account = found;
      if (account) {
        if (applyLine(account, line)) result.updated += 1;
        else result.unchanged += 1;
      } else {
        account = newAccount(project, line, now);
        accounts.set(account.user.id, account);
        if (line.externalId !== null) byExternalId.set(line.externalId, account);
        result.created += 1;
      }
      for (const identifier of account.identifiers) {
        if (identifier.status !== 'verified') continue;
        owners.set(key(identifier), account.user.id);
        byVerifiedValue.set(key(identifier), account);
      }
    }

    const created = [...accounts.values()].filter((a) => a.stored === null);
    await store.users.insertUsers(project, created.map((a) => ({ ...a.user, signupAnswers: a.signupAnswers })));
    const newIdentifiers: IdentifierRecord[] = created.flatMap((a) => a.identifiers);
    const verifiedNow: IdentifierRecord[] = created.flatMap((a) => a.identifiers.filter((i) => i.status === 'verified'));
    const changed = [...accounts.values()].filter((a) => a.stored !== null);
    for (const account of changed) {
      const before = account.stored!;
      newIdentifiers.push(...account.identifiers.filter((i) => !before.identifiers.some((b) => b.id === i.id)));
    }
    await store.users.insertIdentifiers(project.id, newIdentifiers, now);
    for (const account of changed) {
      const before = account.stored!;
      if (account.user.fullName !== before.fullName) {
        await store.users.updateFullName(account.user.id, account.user.fullName);
        await events.record(project.id, 'user.updated', { userId: account.user.id, fullName: account.user.fullName, status: account.user.status });
      }
      for (const identifier of account.identifiers) {
        const was = before.identifiers.find((b) => b.id === identifier.id);
        if (!was) {
          await events.record(project.id, 'identifier.added', { userId: account.user.id, identifier: identifierData(identifier) });
          if (identifier.status === 'verified') verifiedNow.push(identifier);
        } else if (was.status === 'pending' && identifier.status === 'verified') {
          await store.users.markIdentifierVerified(identifier.id);
          await events.record(project.id, 'identifier.verified', { userId: account.user.id, identifier: identifierData(identifier) });
          verifiedNow.push(identifier);
        }
        if (identifier.primary && !(was?.primary ?? false)) await store.users.setPrimary(identifier);
      }
    }
    for (const account of created) {
      const { user, identifiers } = account;
      await events.record(project.id, 'user.created', {
        userId: user.id,
        fullName: user.fullName,
        identifiers: identifiers.map(identifierData),
        passkeys: [],
        socialProviders: [],
        source: 'import',
      });
    }
    // other accounts that held a now verified value pending lose it (rare: looked up once per batch)
    const pendingElsewhere = (await store.users.findValues(project.id, verifiedNow, false)).filter((i) => i.status === 'pending');
    const newOwners = new Map(verifiedNow.map((i) => [key(i), i.userId]));
    for (const copy of pendingElsewhere) await removeOtherHolders(store, events, project.id, copy.type, copy.normalized, newOwners.get(key(copy))!);
    // a verified e-mail address confirms the pending passkeys of a stored account, as a proof would
    for (const account of changed) {
      if (verifiedNow.some((i) => i.userId === account.user.id && i.type === 'email')) await store.credentials.activatePending(account.user.id);
    }
    return result;
  });
}

/**
 * Imports the lines of a JSONL source into a project. Empty lines are skipped. A batch that meets a
 * concurrent sign-up of one of its values (a unique violation) is written again line by line, so that
 * only that line is refused.
 */
export async function importUsers(store: Store, project: ProjectConfig, lines: AsyncIterable<string>, options: ImportOptions): Promise<ImportProgress> {
  const progress: ImportProgress = { lines: 0, created: 0, updated: 0, unchanged: 0, refused: 0 };
  const size = options.batchSize ?? IMPORT_BATCH_SIZE;
  let batch: ImportedLine[] = [];
  const refuse = (failure: ImportFailure) => {
    progress.refused += 1;
    options.onFailure?.(failure);
  };
  const flush = async () => {
    if (batch.length === 0) return;
    let results: BatchResult[];
    try {
      results = [await writeBatch(store, project, batch, options.now(), options.events)];
    } catch (error) {
      // a line refused at the users' creation (a required sign-up field unanswered), or one that met a
      // concurrent sign-up: line by line, so that only that line fails
      if (!(error instanceof UniqueViolation || error instanceof SignupFieldsMissing)) throw error;
      results = [];
      for (const line of batch) {
        try {
          results.push(await writeBatch(store, project, [line], options.now(), options.events));
        } catch (lineError) {
          if (lineError instanceof SignupFieldsMissing) {
            results.push({ created: 0, updated: 0, unchanged: 0, refusals: [{ line: line.line, reason: lineError.validation!.map((i) => `${i.field}: ${i.message}`).join('; ') }] });
          } else if (lineError instanceof UniqueViolation) {
            results.push({ created: 0, updated: 0, unchanged: 0, refusals: [{ line: line.line, reason: 'a value or the external id was taken meanwhile' }] });
          } else throw lineError;
        }
      }
    }
    for (const result of results) {
      progress.created += result.created;
      progress.updated += result.updated;
      progress.unchanged += result.unchanged;
      result.refusals.forEach(refuse);
    }
    batch = [];
    options.onProgress?.({ ...progress });
  };
  for await (const text of lines) {
    progress.lines += 1;
    if (!text.trim()) continue;
    const parsed = parseImportLine(project, text, progress.lines, options.now());
    if ('reason' in parsed) refuse(parsed);
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
