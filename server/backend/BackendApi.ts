// The operations of the Backend API (Corbado's backend_api_public_v2.yml, the part its SDKs call): the
// host's backend reads and changes its project's users, identifiers, passkeys and long sessions. Each
// write happens in one method here, in one transaction, so that whatever should follow a change (an
// event to the host) has one place to go. Every id is looked up within the caller's project: another
// project's user, identifier, passkey or session answers as an unknown one does: 400 with
// `userID: does not exist` (or the id's own field), as Corbado's Backend API answers (server/README.md,
// "Backend API": where Corbado's answers differ from what REST would choose, hosts get Corbado's).
import type { MeSignupField } from '../../src/core/api/types.ts';
import { ApiError } from '../ApiError.ts';
import type { IdentifierType, ProjectConfig } from '../config/projectConfig.ts';
import { signupFieldAnswers, timestamp } from '../account/Account.ts';
import { normalizedIdentifier, canonicalIdentifier } from '../flow/identifierRules.ts';
import { identifierData, passkeyData } from '../events/eventTypes.ts';
import { recordSessionsEnded, type EventRecorder } from '../events/WebhookEvents.ts';
import { claimIdentifier } from '../flow/ownership.ts';
import { parseWith, type Issue } from '../schema.ts';
import type { CredentialRecord } from '../store/CredentialsRepo.ts';
import type { SessionRecord } from '../store/SessionsRepo.ts';
import type { Store } from '../store/Store.ts';
import type { IdentifierQuery, IdentifierRecord, UserRecord } from '../store/UsersRepo.ts';
import { paging, type ListQuery } from './listQuery.ts';
import {
  checkedExternalId,
  checkedFullName,
  checkedIdentifier,
  checkedSignupAnswers,
  identifierInUse,
  insertIdentifier,
  insertUser,
  type WireIdentifierStatus,
} from './userRecords.ts';
import { identifierCreateBody, identifierUpdateBody, longSessionUpdateBody, userCreateBody, userUpdateBody } from './wireBodies.ts';

export const USER_ID_PREFIX = 'usr-';

export interface WireUser {
  userID: string;
  fullName: string;
  status: UserRecord['status'];
  /** beyond the contract: the host's own id for the user, when it gave one */
  externalID?: string;
  /** beyond the contract, `GET /v2/users/{userID}` only: the answers to the project's sign-up fields */
  signupFields?: MeSignupField[];
}

export interface WireIdentifier {
  identifierID: string;
  type: IdentifierType;
  value: string;
  /** `primary`: verified, and the primary one of its type */
  status: 'pending' | 'verified' | 'primary';
  userID: string;
}

const TRANSPORTS = ['usb', 'nfc', 'ble', 'internal', 'hybrid', 'smart-card'];

export const IDENTIFIER_FILTERS = ['identifierValue', 'identifierType', 'userID', 'status'] as const;
export const IDENTIFIER_SORTS = ['created', 'identifierValue', 'identifierType', 'userID', 'status'] as const;
export const CREDENTIAL_FILTERS = ['status'] as const;
export const CREDENTIAL_SORTS = ['created', 'lastUsed'] as const;

const SORT_COLUMNS: Record<(typeof IDENTIFIER_SORTS)[number], IdentifierQuery['sort']['column']> = {
  created: 'created_at',
  identifierValue: 'normalized',
  identifierType: 'type',
  userID: 'user_id',
  status: 'status',
};

function toWireUser(user: UserRecord): WireUser {
  return { userID: user.id, fullName: user.fullName, status: user.status, ...(user.externalId !== null ? { externalID: user.externalId } : {}) };
}

function toWireIdentifier(i: IdentifierRecord): WireIdentifier {
  return { identifierID: i.id, type: i.type, value: i.value, status: i.status === 'verified' && i.primary ? 'primary' : i.status, userID: i.userId };
}

/**
 * An id the caller named that the project does not have (or another project's): 400 with the id's
 * field and `does not exist`, as Corbado answers (REST would say 404; hosts written against Corbado's
 * SDK look for this 400).
 */
function doesNotExist(field: string, details: string): ApiError {
  return ApiError.invalidRequest(details, [{ field, message: 'does not exist' }]);
}

function toWireCredential(c: CredentialRecord) {
  return {
    id: c.id,
    credentialID: c.credentialId,
    attestationType: c.attestationType,
    transport: c.transports.filter((t) => TRANSPORTS.includes(t)),
    backupEligible: c.backupEligible,
    backupState: c.backupState,
    authenticatorAAGUID: c.aaguid,
    sourceOS: c.sourceOS,
    sourceBrowser: c.sourceBrowser,
    lastUsed: timestamp(c.lastUsedAt),
    created: timestamp(c.createdAt),
    status: c.status,
  };
}

function invalid(issues: Issue[]): void {
  if (issues.length > 0) throw ApiError.invalidRequest('The request body is invalid', issues);
}

/** A user id as the SDK may give it in a filter: with or without `usr-` (its listByUserId strips it). */
function userIdOf(value: string): string {
  return value.startsWith(USER_ID_PREFIX) ? value : `${USER_ID_PREFIX}${value}`;
}

type StoredValue = { type: IdentifierType; normalized: string };

/** Every stored form an identifier value could have, per type (a filter need not name the type). */
function storedForms(value: string, type: IdentifierType | undefined): StoredValue[] {
  const types: IdentifierType[] = type ? [type] : ['email', 'phone', 'username'];
  return types.flatMap((t) => {
    const canonical = canonicalIdentifier(t, value);
    return canonical ? [{ type: t, normalized: normalizedIdentifier(t, canonical) }] : [];
  });
}

export class BackendApi {
  constructor(private readonly deps: { store: Store; now: () => number; events: EventRecorder }) {}

  private get store(): Store {
    return this.deps.store;
  }

  /** The project's user; 400 `userID: does not exist` for an unknown one and for another project's. */
  private async user(project: ProjectConfig, userId: string): Promise<UserRecord> {
    const user = await this.store.users.get(userId);
    if (!user || user.projectId !== project.id) throw doesNotExist('userID', `There is no user ${userId.slice(0, 40)} in this project`);
    return user;
  }

  private async identifier(project: ProjectConfig, userId: string, identifierId: string): Promise<IdentifierRecord> {
    await this.user(project, userId);
    const identifier = await this.store.users.getIdentifier(identifierId);
    if (!identifier || identifier.userId !== userId) throw doesNotExist('identifierID', `The user has no identifier ${identifierId.slice(0, 40)}`);
    return identifier;
  }

  // ---- users

  async createUser(project: ProjectConfig, raw: unknown): Promise<WireUser> {
    const body = parseWith(userCreateBody, raw);
    const issues: Issue[] = [];
    const fullName = body.fullName.trim() ? checkedFullName(body.fullName, 'fullName', issues) : '';
    if (!body.fullName.trim()) issues.push({ field: 'fullName', message: 'cannot be blank' });
    const externalId = body.externalID === undefined ? null : checkedExternalId(body.externalID, 'externalID', issues);
    if (body.explicitWebauthnID !== undefined) issues.push({ field: 'explicitWebauthnID', message: 'is not supported (Corbado Connect projects only)' });
    const now = this.deps.now();
    const answers = checkedSignupAnswers(project, body.signupFields, { now, language: body.signupLanguage, source: 'backend-api' }, 'signupFields', issues);
    invalid(issues);
    const user = await this.store.transaction(async () => {
      const created = await insertUser(this.store, project, { fullName, status: body.status, externalId }, answers, now);
      await this.deps.events.record(project.id, 'user.created', { userId: created.id, fullName: created.fullName, identifiers: [], passkeys: [], socialProviders: [], source: 'backend-api' });
      return created;
    });
    return toWireUser(user);
  }

  /** Beyond the contract: `signupFields`, the answers to the project's own sign-up fields (agreements with their version and time), when there are any. */
  async getUser(project: ProjectConfig, userId: string): Promise<WireUser> {
    const user = await this.user(project, userId);
    const signupFields = await signupFieldAnswers(this.store, project, user.id);
    return { ...toWireUser(user), ...(signupFields.length > 0 ? { signupFields } : {}) };
  }

  /** The full name and the status; disabling a user ends every session of theirs at once. */
  async updateUser(project: ProjectConfig, userId: string, raw: unknown): Promise<WireUser> {
    const body = parseWith(userUpdateBody, raw);
    const issues: Issue[] = [];
    const fullName = body.fullName === undefined ? undefined : checkedFullName(body.fullName, 'fullName', issues);
    invalid(issues);
    return this.store.transaction(async () => {
      const user = await this.user(project, userId);
      const renamed = fullName !== undefined && fullName !== user.fullName;
      const restated = body.status !== undefined && body.status !== user.status;
      if (renamed) await this.store.users.updateFullName(user.id, fullName);
      if (restated) {
        await this.store.users.updateStatus(user.id, body.status!);
        if (body.status === 'disabled') {
          await recordSessionsEnded(this.deps.events, project.id, user.id, await this.store.sessions.revokeAllOfUser(user.id, this.deps.now()), 'user-disabled');
        }
        await this.deps.events.audit(project.id, { event: body.status === 'disabled' ? 'user.disabled' : 'user.enabled', userId: user.id, target: `user:${user.id}` });
      }
      const changed = (await this.store.users.get(user.id))!;
      if (renamed || restated) await this.deps.events.record(project.id, 'user.updated', { userId: user.id, fullName: changed.fullName, status: changed.status });
      return toWireUser(changed);
    });
  }

  /**
   * Deletes the user with identifiers, passkeys, sessions (a refresh answers 401 from now on), provider
   * accounts and pending codes; the addresses are free for a new sign-up at once.
   */
  async deleteUser(project: ProjectConfig, userId: string): Promise<void> {
    await this.store.transaction(async () => {
      const user = await this.user(project, userId);
      await this.store.users.deleteUser(user.id);
      await this.deps.events.record(project.id, 'user.deleted', { userId: user.id });
    });
  }

  // ---- identifiers

  async createIdentifier(project: ProjectConfig, userId: string, raw: unknown): Promise<WireIdentifier> {
    const body = parseWith(identifierCreateBody, raw);
    const issues: Issue[] = [];
    const identifier = checkedIdentifier(project, body.identifierType, body.identifierValue, body.status, { type: 'identifierType', value: 'identifierValue' }, issues);
    invalid(issues);
    return this.store.transaction(async () => {
      const user = await this.user(project, userId);
      const added = await insertIdentifier(this.store, this.deps.events, project, user.id, identifier!, this.deps.now());
      await this.deps.events.record(project.id, 'identifier.added', { userId: user.id, identifier: identifierData(added) });
      return toWireIdentifier(added);
    });
  }

  /**
   * `verified` (or `primary`, verified and the primary of its type) claims the value as a proof by code
   * does: 409 when another user holds it verified, and other users' pending copies are removed.
   * `pending` takes the verification back.
   */
  async updateIdentifier(project: ProjectConfig, userId: string, identifierId: string, raw: unknown): Promise<WireIdentifier> {
    const { status } = parseWith(identifierUpdateBody, raw);
    return this.store.transaction(async () => {
      const identifier = await this.identifier(project, userId, identifierId);
      await this.changeStatus(project, identifier, status);
      return toWireIdentifier((await this.store.users.getIdentifier(identifier.id))!);
    });
  }

  private async changeStatus(project: ProjectConfig, identifier: IdentifierRecord, status: WireIdentifierStatus): Promise<void> {
    if (status === 'pending') {
      if (identifier.status === 'verified') {
        await this.store.users.markIdentifierPending(identifier.id);
        await this.deps.events.audit(project.id, { event: 'identifier.unverified', userId: identifier.userId, target: `identifier:${identifier.id}`, details: { type: identifier.type } });
      }
      return;
    }
    if (identifier.status === 'pending' && !(await claimIdentifier(this.store, this.deps.events, project.id, identifier))) throw identifierInUse();
    if (status === 'primary') {
      await this.store.users.setPrimary(identifier);
      if (!identifier.primary) await this.deps.events.audit(project.id, { event: 'identifier.made_primary', userId: identifier.userId, target: `identifier:${identifier.id}`, details: { type: identifier.type } });
    }
  }

  /** Removes an identifier (even the last: the host decides); another of its type becomes primary if it was. */
  async deleteIdentifier(project: ProjectConfig, userId: string, identifierId: string): Promise<void> {
    await this.store.transaction(async () => {
      const identifier = await this.identifier(project, userId, identifierId);
      await this.store.users.deleteIdentifier(identifier.id);
      await this.deps.events.record(project.id, 'identifier.removed', { userId, identifier: identifierData(identifier) });
      if (!identifier.primary) return;
      const rest = (await this.store.users.listIdentifiers(userId)).filter((i) => i.type === identifier.type);
      const successor = rest.find((i) => i.status === 'verified') ?? rest[0];
      if (successor) await this.store.users.setPrimary(successor);
    });
  }

  async listIdentifiers(
    project: ProjectConfig,
    query: ListQuery<(typeof IDENTIFIER_FILTERS)[number], (typeof IDENTIFIER_SORTS)[number]>,
  ): Promise<{ identifiers: WireIdentifier[]; paging: ReturnType<typeof paging> }> {
    const issues: Issue[] = [];
    const sql: IdentifierQuery = {
      projectId: project.id,
      sort: { column: SORT_COLUMNS[query.sort?.field ?? 'created'], descending: query.sort?.descending ?? false },
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    };
    // several filters on one field must all hold: a second, different value matches nothing
    let values: string[] | undefined;
    for (const filter of query.filters) {
      if (filter.field === 'identifierType') {
        if (!['email', 'phone', 'username'].includes(filter.value)) issues.push({ field: 'filter[]', message: 'identifierType must be email, phone or username' });
        else if (sql.type && sql.type !== filter.value) return { identifiers: [], paging: paging(query.page, query.pageSize, 0) };
        else sql.type = filter.value as IdentifierType;
      } else if (filter.field === 'status') {
        if (filter.value !== 'pending' && filter.value !== 'verified' && filter.value !== 'primary') {
          issues.push({ field: 'filter[]', message: 'status must be pending, verified or primary' });
        } else sql.status = filter.value;
      } else if (filter.field === 'userID') {
        const id = userIdOf(filter.value);
        if (sql.userId && sql.userId !== id) return { identifiers: [], paging: paging(query.page, query.pageSize, 0) };
        sql.userId = id;
      } else {
        values = values === undefined ? [filter.value] : [...values, filter.value];
      }
    }
    if (issues.length > 0) throw ApiError.invalidRequest('The list parameters are invalid', issues);
    if (values) {
      // several values must all hold: only the forms they have in common can match
      const forms = values.map((v) => storedForms(v, sql.type));
      sql.values = forms.reduce((common, next) => common.filter((f) => next.some((n) => n.type === f.type && n.normalized === f.normalized)));
    }
    const { identifiers, total } = await this.store.users.queryIdentifiers(sql);
    return { identifiers: identifiers.map(toWireIdentifier), paging: paging(query.page, query.pageSize, total) };
  }

  // ---- passkeys

  async listCredentials(project: ProjectConfig, userId: string, query: ListQuery<(typeof CREDENTIAL_FILTERS)[number], (typeof CREDENTIAL_SORTS)[number]>) {
    const user = await this.user(project, userId);
    let credentials = await this.store.credentials.listByUser(user.id);
    for (const filter of query.filters) credentials = credentials.filter((c) => c.status === filter.value);
    const key = query.sort?.field === 'lastUsed' ? (c: CredentialRecord) => c.lastUsedAt : (c: CredentialRecord) => c.createdAt;
    credentials.sort((a, b) => (key(a) - key(b) || a.id.localeCompare(b.id)) * (query.sort?.descending ? -1 : 1));
    const start = (query.page - 1) * query.pageSize;
    return {
      credentials: credentials.slice(start, start + query.pageSize).map(toWireCredential),
      paging: paging(query.page, query.pageSize, credentials.length),
    };
  }

  /** Removes one passkey of the user (a lost device); the host decides, no recent log-in is asked. */
  async deleteCredential(project: ProjectConfig, userId: string, credentialId: string): Promise<void> {
    await this.store.transaction(async () => {
      const user = await this.user(project, userId);
      const passkey = (await this.store.credentials.listByUser(user.id)).find((c) => c.id === credentialId);
      if (!passkey || !(await this.store.credentials.deleteOwned(passkey.id, user.id))) throw doesNotExist('credentialID', `The user has no passkey ${credentialId.slice(0, 40)}`);
      await this.deps.events.record(project.id, 'passkey.removed', { userId: user.id, passkey: passkeyData(passkey) });
    });
  }

  // ---- long sessions

  private toWireSession(session: SessionRecord) {
    const status = session.revokedAt !== null ? 'revoked' : session.expiresAt <= this.deps.now() ? 'expired' : 'active';
    return { longSessionID: session.id, userID: session.userId, identifierValue: session.orig, status, expires: timestamp(session.expiresAt) };
  }

  private async session(project: ProjectConfig, userId: string | undefined, longSessionId: string): Promise<SessionRecord> {
    const session = await this.store.sessions.get(longSessionId);
    if (!session || session.projectId !== project.id || (userId !== undefined && session.userId !== userId)) {
      throw doesNotExist('longSessionID', `There is no long session ${longSessionId.slice(0, 40)}`);
    }
    return session;
  }

  /** Beyond the contract (which has no list): a user's long sessions, the newest first, so that a host can end them. */
  async listLongSessions(project: ProjectConfig, userId: string, page: number, pageSize: number) {
    const user = await this.user(project, userId);
    const sessions = await this.store.sessions.listByUser(user.id);
    const start = (page - 1) * pageSize;
    return { longSessions: sessions.slice(start, start + pageSize).map((s) => this.toWireSession(s)), paging: paging(page, pageSize, sessions.length) };
  }

  async getLongSession(project: ProjectConfig, userId: string | undefined, longSessionId: string) {
    if (userId !== undefined) await this.user(project, userId);
    return this.toWireSession(await this.session(project, userId, longSessionId));
  }

  /** Revokes a long session (`revoked`, or `logged_out`): no new short session comes from it. */
  async updateLongSession(project: ProjectConfig, userId: string, longSessionId: string, raw: unknown) {
    parseWith(longSessionUpdateBody, raw);
    return this.store.transaction(async () => {
      await this.user(project, userId);
      const session = await this.session(project, userId, longSessionId);
      if (await this.store.sessions.revoke(session.id, this.deps.now())) {
        await recordSessionsEnded(this.deps.events, project.id, session.userId, [session.id], 'revoked-by-host');
      }
      return this.toWireSession((await this.store.sessions.get(session.id))!);
    });
  }
}
