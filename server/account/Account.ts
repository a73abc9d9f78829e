// What a logged-in user can do with their session: read and change their profile, delete the account,
// read, add and delete passkeys, refresh the short session and log out. (Identifiers: AccountIdentifiers.)
import type { MeResponse, Passkey, PasskeyListResponse, RefreshResponse } from '../../src/core/api/types.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { AaguidCatalogue } from '../aaguids/AaguidCatalogue.ts';
import {
  parseRegistrationResponse,
  registrationOptions,
  verifyRegistration,
} from '../flow/passkeyCeremonies.ts';
import { ApiError } from '../ApiError.ts';
import { insertCredential } from '../flow/completion.ts';
import { canonicalFullName, FULL_NAME_MAX, FULL_NAME_RULE } from '../flow/identifierRules.ts';
import type { Sessions } from '../session/Sessions.ts';
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
}

/** yyyy-MM-dd'T'HH:mm:ss in UTC, the format of the spec's timestamps */
function timestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

export class Account {
  constructor(private readonly deps: AccountDeps) {}

  async me(session: SessionRecord): Promise<MeResponse> {
    const user = (await this.deps.store.users.get(session.userId))!;
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
    };
  }

  /** PATCH /v2/me: the full name, required where sign-up requires it, by the rules of sign-up's name. */
  async updateName(project: ProjectConfig, session: SessionRecord, fullName: string): Promise<void> {
    const name = canonicalFullName(fullName);
    if (name.error === 'invalid_full_name') throw new ApiError(400, 'invalid_full_name', 'Bad request', `The name ${FULL_NAME_RULE}`);
    if (name.error || (project.fullNameRequired && !name.value)) {
      throw new ApiError(400, 'missing_full_name', 'Bad request', `A name of 1 to ${FULL_NAME_MAX} characters is required`);
    }
    await this.deps.store.users.updateFullName(session.userId, name.value);
  }

  /**
   * DELETE /v2/me: the user with identifiers, passkeys, sessions, provider accounts and pending codes;
   * only after a recent log-in.
   */
  async deleteAccount(project: ProjectConfig, session: SessionRecord): Promise<void> {
    requireRecentLogin(project, session, this.deps.now());
    await this.deps.store.users.deleteUser(session.userId);
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
    const user = await this.deps.store.users.get(session.userId);
    if (!user) throw ApiError.unauthorized();
    await insertCredential(this.deps.store, project, user.id, user.userHandle, credential);
  }

  /** Deletes one of the user's passkeys; the last one only after a recent log-in. */
  async deletePasskey(project: ProjectConfig, session: SessionRecord, id: string): Promise<{ id: string }> {
    const { store } = this.deps;
    await store.transaction(async () => {
      // two deletions at once must not both see another passkey left
      await store.db.lockKey(`passkeys:${session.userId}`);
      const held = await store.credentials.listByUser(session.userId);
      if (!held.some((c) => c.id === id)) throw ApiError.notFound('No such passkey');
      if (held.length === 1) requireRecentLogin(project, session, this.deps.now());
      await store.credentials.deleteOwned(id, session.userId);
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
      await store.socialAccounts.deleteOwned(id, session.userId);
    });
  }

  /** A new short session from a live long session (it is not rotated: logging out or deleting the account revokes it). */
  async refresh(project: ProjectConfig, session: SessionRecord, frontendApiUrl: string): Promise<RefreshResponse> {
    const token = await this.deps.sessions.shortSession(project, session.userId, session.orig, frontendApiUrl, this.deps.now());
    return { shortSession: token, sessionToken: token };
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
