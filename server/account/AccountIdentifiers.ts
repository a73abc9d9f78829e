// A logged-in user's own identifiers (/v2/me/identifier*): add an e-mail address, phone number or
// username, verify an added address or number with a one-time code, make a verified one the primary
// one of its type (where the project allows more than one), change the username, and remove one, never
// the last verified identifier the user can log in with. Codes go through the same send and attempt
// limits as the codes of the auth process.
import type { MeIdentifierCreateRequest, MeIdentifierUpdateRequest, MeIdentifierVerifyFinishRequest } from '../../src/core/api/types.ts';
import { ApiError } from '../ApiError.ts';
import { masked } from '../audit/AuditTrail.ts';
import { identifierData } from '../events/eventTypes.ts';
import type { EventRecorder } from '../events/WebhookEvents.ts';
import { RESEND_COOLDOWN } from '../metrics/Metrics.ts';
import { logsIn, type IdentifierType, type ProjectConfig } from '../config/projectConfig.ts';
import { acceptSecret } from '../flow/acceptSecret.ts';
import { canonicalIdentifier, normalizedIdentifier } from '../flow/identifierRules.ts';
import { claimIdentifier } from '../flow/ownership.ts';
import { issueSecret, otpMethodOf, resendWaitMs, sendCode, takeSendLimits, type MessageRequest } from '../flow/sendVerification.ts';
import type { RateLimiter } from '../limits/RateLimiter.ts';
import { newId, newOtpCode } from '../randomValues.ts';
import type { Messenger } from '../senders/Messenger.ts';
import { UniqueViolation } from '../store/Database.ts';
import type { SessionRecord } from '../store/SessionsRepo.ts';
import { requireRecentLogin } from './recentLogin.ts';
import type { Store } from '../store/Store.ts';
import type { IdentifierRecord } from '../store/UsersRepo.ts';

export interface AccountIdentifiersDeps {
  store: Store;
  limiter: RateLimiter;
  messenger: Messenger;
  /** HMAC key for one-time codes */
  secretKey: string;
  now: () => number;
  /** webhook events, recorded in the transaction of the change */
  events: EventRecorder;
}

function notAllowed(details: string): ApiError {
  return new ApiError(400, 'identifier_not_allowed', 'Bad request', details);
}

function inUse(): ApiError {
  return new ApiError(409, 'identifier_already_in_use', 'Conflict', 'Another account uses this identifier');
}

/** The stored form of a value, or 400 identifier_invalid_format. */
function canonical(type: IdentifierType, value: string): string {
  const result = canonicalIdentifier(type, value);
  if (!result) throw new ApiError(400, 'identifier_invalid_format', 'Bad request', `This is not a valid ${type}`);
  return result;
}

/** An identifier the user can log in with on their own: a verified one of a login type. */
export function opensAccount(project: ProjectConfig, identifier: IdentifierRecord): boolean {
  return logsIn(project, identifier.type) && identifier.status === 'verified';
}

export class AccountIdentifiers {
  constructor(private readonly deps: AccountIdentifiersDeps) {}

  private get store(): Store {
    return this.deps.store;
  }

  /** One of the session user's identifiers; 404 for anyone else's. */
  private async own(session: Pick<SessionRecord, 'userId'>, identifierID: string): Promise<IdentifierRecord> {
    const identifier = await this.store.users.getIdentifier(identifierID);
    if (!identifier || identifier.userId !== session.userId) throw ApiError.notFound('No such identifier');
    return identifier;
  }

  /**
   * Inserts a new identifier (and tells identifier.added); 409 when another account holds the value
   * verified, or the user holds it already. Pending copies on other accounts do not matter: whoever
   * proves the value first owns it.
   */
  private async insert(project: ProjectConfig, record: Omit<IdentifierRecord, 'id'>): Promise<void> {
    if (await this.store.users.findVerifiedIdentifier(project.id, record.type, record.normalized)) throw inUse();
    const identifier = { id: newId('ide'), ...record };
    try {
      await this.store.users.insertIdentifier(project.id, identifier, this.deps.now());
    } catch (error) {
      throw error instanceof UniqueViolation ? inUse() : error;
    }
    await this.deps.events.record(project.id, 'identifier.added', { userId: record.userId, identifier: identifierData(identifier) });
  }

  /** Deletes one of the user's identifiers and tells identifier.removed. */
  private async delete(project: ProjectConfig, identifier: IdentifierRecord): Promise<void> {
    await this.store.users.deleteIdentifier(identifier.id);
    await this.deps.events.record(project.id, 'identifier.removed', { userId: identifier.userId, identifier: identifierData(identifier) });
  }

  /** Adds an identifier: a username is verified as it is, an e-mail address or phone number pending. */
  async create(project: ProjectConfig, session: SessionRecord, body: MeIdentifierCreateRequest): Promise<void> {
    const type = body.identifierType;
    const cfg = project.identifiers[type];
    if (!cfg.enabled) throw notAllowed(`This project does not use the identifier type ${type}`);
    const value = canonical(type, body.value);
    await this.store.transaction(async () => {
      const held = (await this.store.users.listIdentifiers(session.userId)).filter((i) => i.type === type);
      if (held.length >= cfg.maxPerUser) {
        throw new ApiError(400, 'identifier_limit_reached', 'Bad request', `A user may hold ${cfg.maxPerUser} of type ${type}`);
      }
      await this.insert(project, {
        userId: session.userId,
        type,
        value,
        normalized: normalizedIdentifier(type, value),
        status: type === 'username' ? 'verified' : 'pending',
        primary: held.length === 0,
      });
    });
  }

  /**
   * Removes an identifier; another of its type becomes primary if it was. A verified one the user logs
   * in with only after a recent log-in (a pending one opens nothing).
   */
  async remove(project: ProjectConfig, session: SessionRecord, identifierID: string): Promise<void> {
    await this.store.transaction(async () => {
      const identifier = await this.own(session, identifierID);
      if (opensAccount(project, identifier)) requireRecentLogin(project, session, this.deps.now());
      const rest = (await this.store.users.listIdentifiers(session.userId)).filter((i) => i.id !== identifier.id);
      if (logsIn(project, identifier.type) && !rest.some((i) => opensAccount(project, i))) {
        throw new ApiError(400, 'last_login_identifier', 'Bad request', 'This is the last verified identifier the user can log in with');
      }
      await this.delete(project, identifier);
      const successor = rest.filter((i) => i.type === identifier.type).sort((a, b) => Number(b.status === 'verified') - Number(a.status === 'verified'))[0];
      if (identifier.primary && successor) await this.store.users.setPrimary(successor);
    });
  }

  /**
   * A changed value replaces a username (a new identifierID); `primary: true` with the current value
   * makes a verified e-mail address or phone number the primary one, where the project allows several
   * (after a recent log-in).
   */
  async update(project: ProjectConfig, session: SessionRecord, body: MeIdentifierUpdateRequest): Promise<void> {
    await this.store.transaction(async () => {
      const identifier = await this.own(session, body.identifierID);
      if (identifier.type !== body.identifierType) throw ApiError.invalidRequest(`The identifier is a ${identifier.type}`);
      const value = canonical(identifier.type, body.value);
      const normalized = normalizedIdentifier(identifier.type, value);
      if (normalized === identifier.normalized) {
        // the same username in other letter case keeps its identifierID
        if (identifier.type === 'username' && value !== identifier.value) await this.store.users.updateIdentifierValue(identifier.id, value, normalized);
        if (!body.primary || identifier.primary) return;
        if (identifier.status !== 'verified') throw notAllowed('Only a verified identifier can be primary');
        if (project.identifiers[identifier.type].maxPerUser < 2) throw notAllowed(`This project allows one ${identifier.type} per user`);
        // the primary address is where codes and the session's claims go: moving it needs a recent log-in
        requireRecentLogin(project, session, this.deps.now());
        await this.store.users.setPrimary(identifier);
        await this.deps.events.audit(project.id, { event: 'identifier.made_primary', userId: identifier.userId, target: `identifier:${identifier.id}`, details: { type: identifier.type } });
        return;
      }
      if (identifier.type !== 'username') {
        throw notAllowed('Only a username can be changed; add the new e-mail address or phone number, verify it, then remove the old one');
      }
      const { id: _, ...kept } = identifier;
      await this.delete(project, identifier);
      await this.insert(project, { ...kept, value, normalized });
    });
  }

  /**
   * Sends a one-time code to a pending e-mail address or phone number of the user; `page`: the page's
   * origin (SMS) and the visitor's language. The console starts it for the user too (`session` then
   * names only the user): the person enters the code where they would have, on the account page.
   */
  async verifyStart(project: ProjectConfig, session: Pick<SessionRecord, 'userId'>, identifierID: string, clientIp: string, page: MessageRequest): Promise<void> {
    const identifier = await this.own(session, identifierID);
    const type = identifier.type;
    if (type === 'username' || identifier.status === 'verified') throw notAllowed('Only a pending e-mail address or phone number is verified');
    if (!project.identifiers[type].enabled) throw notAllowed(`This project does not use the identifier type ${type}`);
    const owner = await this.store.users.findVerifiedIdentifier(project.id, type, identifier.normalized);
    if (owner && owner.userId !== session.userId) throw inUse();
    const method = otpMethodOf(type);
    const now = this.deps.now();
    const wait = resendWaitMs((await this.store.identifierSecrets.latest(identifier.id, type, method))?.createdAt, now);
    if (wait > 0) throw ApiError.tooManyRequests('A code was sent a moment ago', wait / 1000, RESEND_COOLDOWN);
    await takeSendLimits(this.deps.limiter, project, clientIp, type, identifier.value);
    const code = newOtpCode();
    // the code and its message in one transaction: neither is kept without the other
    await this.store.transaction(async () => {
      await issueSecret(this.store.identifierSecrets, this.deps.secretKey, { ownerId: identifier.id, method, type, value: identifier.value, secret: code, now });
      await sendCode(this.deps.messenger, project, type, identifier.value, code, now, page);
      await this.deps.events.audit(project.id, { event: 'code.sent', userId: identifier.userId, target: `identifier:${identifier.id}`, details: { method, to: masked(type, identifier.value) } });
    });
  }

  /** Checks the code sent by verifyStart; the identifier is verified when it matches. */
  async verifyFinish(project: ProjectConfig, session: SessionRecord, body: MeIdentifierVerifyFinishRequest, clientIp: string): Promise<void> {
    const identifier = await this.own(session, body.identifierID);
    const type = identifier.type;
    if (identifier.status === 'verified') return;
    if (type === 'username') throw notAllowed('A username is not verified by a code');
    const method = otpMethodOf(type);
    const repo = this.store.identifierSecrets;
    const accepted = await acceptSecret(
      { limiter: this.deps.limiter, secretKey: this.deps.secretKey, project, clientIp, repo, identifier: { type, value: identifier.value }, now: this.deps.now() },
      body.code,
      () => repo.latest(identifier.id, type, method),
    );
    if (!accepted) throw new ApiError(400, `invalid_challenge_solution_${method}`, 'Bad request', 'The code is invalid or expired');
    // the account's own session proved it: claimed, without the take-over a log-in into an unverified
    // account gets (whoever holds this session has just shown that the address is theirs)
    if (!(await claimIdentifier(this.store, this.deps.events, project.id, identifier))) throw inUse();
  }
}
