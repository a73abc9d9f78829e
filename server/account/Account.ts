// What a logged-in user can do with their session: read and change their profile, delete the account,
// read, add and delete passkeys, refresh the short session, see and end their sessions, and log out.
// (Identifiers: AccountIdentifiers.)
import type { MeResponse, MeSignupField, Passkey, PasskeyListResponse, RefreshResponse, UserSessionsResponse } from '../../src/core/api/types.ts';
import { handsOutLongSession, type ProjectConfig } from '../config/projectConfig.ts';
import type { AaguidCatalogue } from '../aaguids/AaguidCatalogue.ts';
import {
  parseRegistrationResponse,
  registrationOptions,
  verifyRegistration,
} from '../flow/passkeyCeremonies.ts';
import { ApiError } from '../ApiError.ts';
import { passkeyData } from '../events/eventTypes.ts';
import { recordSessionsEnded, type EventRecorder } from '../events/WebhookEvents.ts';
import { appendCredential } from '../flow/completion.ts';
import { canonicalFullName, FULL_NAME_MAX, FULL_NAME_RULE } from '../flow/identifierRules.ts';
import type { PresentedSession, Sessions } from '../session/Sessions.ts';
import { opensAccount } from './AccountIdentifiers.ts';
import { requireRecentLogin } from './recentLogin.ts';
import type { CredentialRecord } from '../store/CredentialsRepo.ts';
import type { SessionRecord } from '../store/SessionsRepo.ts';
import type { Store } from '../store/Store.ts';

export interface AccountDeps {
  store: Store;
  sessions: Sessions;
  now: () => number;
  /** names and icons of the authenticators, by AAGUID */
  aaguids: AaguidCatalogue;
  /** webhook events, recorded in the transaction of the change */
  events: EventRecorder;
}

/** yyyy-MM-dd'T'HH:mm:ss in UTC, the format of the spec's timestamps */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/**
 * A user's answers to the project's sign-up fields, in the project's order, with each field's current
 * label and, as `shown`, the text it was answered on: `/v2/me` and the Backend API show them.
 */
export async function signupFieldAnswers(store: Store, project: ProjectConfig, userId: string): Promise<MeSignupField[]> {
  const answers = await store.users.listSignupFields(userId);
  const position = (id: string) => {
    const index = project.signupFields.findIndex((f) => f.id === id);
    return index < 0 ? project.signupFields.length : index;
  };
  return answers
    .sort((a, b) => position(a.id) - position(b.id))
    .map((answer) => {
      const field = project.signupFields.find((f) => f.id === answer.id && f.type === answer.type);
      return {
        id: answer.id,
        type: answer.type,
        ...(field ? { label: field.label } : {}),
        ...(field?.url ? { url: field.url } : {}),
        ...(answer.value !== undefined ? { value: answer.value } : {}),
        ...(answer.accepted !== undefined ? { accepted: answer.accepted } : {}),
        ...(answer.version !== undefined ? { version: answer.version } : {}),
        answeredAt: timestamp(answer.answeredAt),
        ...(answer.shown ? { shown: answer.shown } : {}),
        ...(answer.source ? { source: answer.source } : {}),
      };
    });
}


export class Account {
  constructor(private readonly deps: AccountDeps) {}

  async me(project: ProjectConfig, session: SessionRecord): Promise<MeResponse> {
    const user = (await this.deps.store.users.get(session.userId))!;
    const signupFields = await signupFieldAnswers(this.deps.store, project, user.id);
    return {
      id: user.id,
      fullName: user.fullName,
      identifiers: (await this.deps.store.users.listIdentifiers(user.id)).map((i) => ({
        id: i.id,
        value: i.value,
        type: i.type,
        status: i.status,
        primary: i.primary,
      })),
      socialAccounts: (await this.deps.store.socialAccounts.listByUser(user.id)).map((a) => ({
        id: a.id,
        providerType: a.provider,
        identifierValue: a.email,
        avatarUrl: a.avatarUrl,
        fullName: a.fullName,
      })),
      ...(signupFields.length > 0 ? { signupFields } : {}),
    };
  }

  /**
   * A user's answers to the project's sign-up fields: each text's value, each checkbox ticked or not
   * with the version of the text it was shown, and when; the field's current label and link beside
   * them, in the project's order (fields it has removed since last). `/v2/me` shows them, and this is
   * what the host's backend reads of them.
   */
  /** PATCH /v2/me: the full name, required where sign-up requires it, by the rules of sign-up's name. */
  async updateName(project: ProjectConfig, session: SessionRecord, fullName: string): Promise<void> {
    const name = canonicalFullName(fullName);
    if (name.error === 'invalid_full_name') throw new ApiError(400, 'invalid_full_name', 'Bad request', `The name ${FULL_NAME_RULE}`);
    if (name.error || (project.fullNameRequired && !name.value)) {
      throw new ApiError(400, 'missing_full_name', 'Bad request', `A name of 1 to ${FULL_NAME_MAX} characters is required`);
    }
    const { store } = this.deps;
    await store.transaction(async () => {
      const user = await store.users.get(session.userId);
      if (!user || user.fullName === name.value) return;
      await store.users.updateFullName(user.id, name.value);
      await this.deps.events.record(project.id, 'user.updated', { userId: user.id, fullName: name.value, status: user.status });
    });
  }

  /**
   * DELETE /v2/me: the user with identifiers, passkeys, sessions, provider accounts and pending codes;
   * only after a recent log-in.
   */
  async deleteAccount(project: ProjectConfig, session: SessionRecord): Promise<void> {
    requireRecentLogin(project, session, this.deps.now());
    const { store, events } = this.deps;
    await store.transaction(async () => {
      await store.users.deleteUser(session.userId);
      await events.record(project.id, 'user.deleted', { userId: session.userId });
    });
  }

  async passkeys(session: SessionRecord): Promise<PasskeyListResponse> {
    const passkeys = (await this.deps.store.credentials.listByUser(session.userId)).map((c) => toPasskey(c, this.deps.aaguids));
    return { passkeys, paging: { page: 1, totalPages: 1, totalItems: passkeys.length } };
  }

  async appendStart(project: ProjectConfig, session: SessionRecord, client: { isUserVerifyingPlatformAuthenticatorAvailable?: boolean }) {
    if (!project.passkeys || client.isUserVerifyingPlatformAuthenticatorAvailable === false) {
      return { attestationOptions: '', appendNotAllowedReason: 'passkeys_not_supported' };
    }
    const user = (await this.deps.store.users.get(session.userId))!;
    const name = session.orig;
    const options = await registrationOptions(
      project,
      { handle: user.userHandle, name, displayName: user.fullName || name },
      await this.deps.store.credentials.listByUser(user.id),
    );
    await this.deps.store.sessions.setChallenge(session.id, options.challenge);
    return { attestationOptions: options.json };
  }

  async appendFinish(project: ProjectConfig, session: SessionRecord, attestationResponse: string, userAgent: string | undefined): Promise<void> {
    const response = parseRegistrationResponse(attestationResponse, 'attestationResponse');
    const challenge = await this.deps.store.sessions.takeChallenge(session.id); // single use, before the verification
    const failed = new ApiError(400, 'passkey_verification_failed', 'Bad request', 'The passkey could not be verified');
    if (!challenge) throw failed;
    const credential = await verifyRegistration(project, response, challenge, userAgent, this.deps.now());
    if (!credential || (await this.deps.store.credentials.findByCredentialId(project.id, credential.credentialId))) throw failed;
    const { store, events } = this.deps;
    await store.transaction(async () => {
      const user = await store.users.get(session.userId);
      if (!user) throw ApiError.unauthorized();
      await appendCredential(store, events, project, user, credential);
    });
  }

  /** Deletes one of the user's passkeys; the last one only after a recent log-in. */
  async deletePasskey(project: ProjectConfig, session: SessionRecord, id: string): Promise<{ id: string }> {
    const { store } = this.deps;
    await store.transaction(async () => {
      // two deletions at once must not both see another passkey left
      await store.db.lockKey(`passkeys:${session.userId}`);
      const held = await store.credentials.listByUser(session.userId);
      const passkey = held.find((c) => c.id === id);
      if (!passkey) throw ApiError.notFound('No such passkey');
      if (held.length === 1) requireRecentLogin(project, session, this.deps.now());
      await store.credentials.deleteOwned(id, session.userId);
      await this.deps.events.record(project.id, 'passkey.removed', { userId: session.userId, passkey: passkeyData(passkey) });
    });
    return { id };
  }

  /**
   * Unlinks one of the user's provider accounts: after a recent log-in (it is a way in that a stolen
   * session must not take away), and never the last way in, which is another provider account or a
   * verified identifier the user logs in with (a passkey alone does not count: it needs one of them to
   * be found by).
   */
  async unlinkSocialAccount(project: ProjectConfig, session: SessionRecord, id: string): Promise<void> {
    const { store } = this.deps;
    await store.transaction(async () => {
      // two unlinks at once must not both see the other as the way that remains
      await store.db.lockKey(`login-ways:${session.userId}`);
      const accounts = await store.socialAccounts.listByUser(session.userId);
      if (!accounts.some((a) => a.id === id)) throw ApiError.notFound('No such social account');
      requireRecentLogin(project, session, this.deps.now());
      const identifiers = await store.users.listIdentifiers(session.userId);
      if (accounts.length === 1 && !identifiers.some((i) => opensAccount(project, i))) {
        throw new ApiError(400, 'last_login_identifier', 'Bad request', 'This provider account is the last way the user can log in');
      }
      if (await store.socialAccounts.deleteOwned(id, session.userId)) {
        const { provider } = accounts.find((a) => a.id === id)!;
        await this.deps.events.record(project.id, 'social_account.unlinked', { userId: session.userId, provider });
      }
    });
  }

  /**
   * A new short session from a live long session; with `rotate` also the long session's next value
   * (see Sessions: rotation with reuse detection). 401 when the session ended meanwhile.
   */
  async refresh(
    project: ProjectConfig,
    presented: PresentedSession,
    rotate: boolean,
    issuer: string,
    crossSite = false,
  ): Promise<{ answer: RefreshResponse; longSession?: { token: string; maxAgeSeconds: number } }> {
    const refreshed = await this.deps.sessions.refresh(project, presented, rotate, issuer, this.deps.now());
    if (!refreshed) throw ApiError.unauthorized();
    const answer: RefreshResponse = { shortSession: refreshed.shortSession, sessionToken: refreshed.shortSession };
    // a prod project's long session travels only as the HttpOnly cookie (crossSiteSessions: "storage" aside)
    if (refreshed.longSession && handsOutLongSession(project, crossSite)) answer.longSession = refreshed.longSession.token;
    return { answer, ...(refreshed.longSession ? { longSession: refreshed.longSession } : {}) };
  }

  /** GET /v2/me/sessions: the user's live sessions in this project, the calling one marked `current`. */
  async sessions(session: SessionRecord): Promise<UserSessionsResponse> {
    const live = await this.deps.store.sessions.listLive(session.userId, session.projectId, this.deps.now());
    return {
      sessions: live.map((s) => {
        const lastUsedMs = s.lastUsedAt ?? s.createdAt;
        return {
          id: s.id,
          browser: s.browser || 'Unknown browser',
          os: s.os || 'Unknown OS',
          created: timestamp(s.createdAt),
          lastUsed: timestamp(lastUsedMs),
          createdMs: s.createdAt,
          lastUsedMs,
          current: s.id === session.id,
        };
      }),
    };
  }

  /**
   * DELETE /v2/me/sessions/:id: ends one of the user's own live sessions (that device's next refresh
   * or check fails). Another user's session, an unknown or an ended one: 404, and nothing changes.
   */
  async endSession(session: SessionRecord, id: string): Promise<{ id: string }> {
    const { store } = this.deps;
    await store.transaction(async () => {
      if ((await store.sessions.revokeOwned(id, session.userId, this.deps.now())) === 0) throw ApiError.notFound('No such session');
      await recordSessionsEnded(this.deps.events, session.projectId, session.userId, [id], 'ended-by-user', { details: { from: session.id } });
    });
    return { id };
  }

  /** DELETE /v2/me/sessions: ends every live session of the user but the calling one ("sign out everywhere else"). */
  async endOtherSessions(session: SessionRecord): Promise<{ ended: number }> {
    const { store } = this.deps;
    return store.transaction(async () => {
      const ended = await store.sessions.revokeOthers(session.userId, session.id, this.deps.now());
      await recordSessionsEnded(this.deps.events, session.projectId, session.userId, ended, 'ended-by-user', { details: { from: session.id } });
      return { ended: ended.length };
    });
  }

  async logout(session: SessionRecord | undefined): Promise<void> {
    if (session) await this.deps.sessions.end(session, this.deps.now());
  }
}

function toPasskey(c: CredentialRecord, aaguids: AaguidCatalogue): Passkey {
  return {
    id: c.id,
    credentialID: c.credentialId,
    attestationType: c.attestationType,
    transport: c.transports,
    backupEligible: c.backupEligible,
    backupState: c.backupState,
    authenticatorAAGUID: c.aaguid,
    aaguidDetails: aaguids.details(c.aaguid),
    sourceOS: c.sourceOS,
    sourceBrowser: c.sourceBrowser,
    lastUsed: timestamp(c.lastUsedAt),
    created: timestamp(c.createdAt),
    status: c.status,
    createdMs: c.createdAt,
    lastUsedMs: c.lastUsedAt,
    tags: [...(c.backupState ? ['synced'] : []), ...(c.transports.includes('hybrid') ? ['hybrid'] : [])],
  };
}
