// A fresh proof without leaving the account page (/v2/me/reauth*), for what needs a recent log-in: a
// passkey of the user's (a WebAuthn assertion like the log-in's) or a one-time code sent to a verified
// e-mail address or phone number of the user. Either marks THIS long session freshly authenticated.
//
// Only what the user held at their last proof counts: a passkey or an address added since then could be
// the work of whoever holds the long session (a stolen one adds the thief's address, verifies it and
// would otherwise "prove" himself with it). A code belongs to the long session that asked for it, is
// used once, expires, and goes through the send and wrong-code limits of every other code; a passkey
// challenge belongs to the long session too, is taken once and expires.
import type {
  MeReauthCodeFinishRequest,
  MeReauthOptions,
  MeReauthPasskeyStartResponse,
} from '../../src/core/api/types.ts';
import { ApiError } from '../ApiError.ts';
import { RESEND_COOLDOWN } from '../metrics/Metrics.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import { acceptSecret } from '../flow/acceptSecret.ts';
import { authenticationOptions, parseAuthenticationResponse, verifyAuthentication } from '../flow/passkeyCeremonies.ts';
import { issueSecret, otpMethodOf, resendWaitMs, sendCode, takeSendLimits, type MessageRequest } from '../flow/sendVerification.ts';
import type { RateLimiter } from '../limits/RateLimiter.ts';
import { newOtpCode } from '../randomValues.ts';
import type { Messenger } from '../senders/Messenger.ts';
import type { CredentialRecord } from '../store/CredentialsRepo.ts';
import type { SessionRecord } from '../store/SessionsRepo.ts';
import type { Store } from '../store/Store.ts';
import type { IdentifierRecord } from '../store/UsersRepo.ts';
import { lastAuthenticatedAt } from './recentLogin.ts';

export interface ReauthenticationDeps {
  store: Store;
  limiter: RateLimiter;
  messenger: Messenger;
  /** HMAC key for one-time codes */
  secretKey: string;
  now: () => number;
}

/** As long as the log-in's passkey ceremony may take. */
const CHALLENGE_LIFETIME_MS = 5 * 60_000;

type Address = IdentifierRecord & { type: 'email' | 'phone' };

export class Reauthentication {
  constructor(private readonly deps: ReauthenticationDeps) {}

  private get store(): Store {
    return this.deps.store;
  }

  /** The user's passkeys that may prove them: those they had at their last proof. */
  private async passkeys(project: ProjectConfig, session: SessionRecord): Promise<CredentialRecord[]> {
    if (!project.passkeys) return [];
    const since = lastAuthenticatedAt(session);
    return (await this.store.credentials.listByUser(session.userId)).filter((c) => c.createdAt <= since);
  }

  /** Verified e-mail addresses, then phone numbers, the primary first, that the user had at their last proof. */
  private async addresses(session: SessionRecord): Promise<Address[]> {
    const held = await this.store.users.listIdentifiersAddedBy(session.userId, lastAuthenticatedAt(session));
    return held.filter((i): i is Address => i.type !== 'username' && i.status === 'verified');
  }

  private async address(session: SessionRecord, identifierID: string): Promise<Address> {
    const address = (await this.addresses(session)).find((i) => i.id === identifierID);
    if (!address) throw new ApiError(400, 'identifier_not_allowed', 'Bad request', 'A code goes only to a verified address the user had at log-in');
    return address;
  }

  /** GET /v2/me/reauth: which proofs the user can give (the widget offers these). */
  async options(project: ProjectConfig, session: SessionRecord): Promise<MeReauthOptions> {
    const [address] = await this.addresses(session);
    return {
      passkey: (await this.passkeys(project, session)).length > 0,
      ...(address ? { code: { identifierID: address.id, identifierType: address.type, value: address.value } } : {}),
    };
  }

  async passkeyStart(project: ProjectConfig, session: SessionRecord, clientIp: string): Promise<MeReauthPasskeyStartResponse> {
    const allowed = await this.passkeys(project, session);
    if (allowed.length === 0) throw new ApiError(400, 'passkey_verification_failed', 'Bad request', 'The user has no passkey to confirm with');
    await this.deps.limiter.take(project, [{ limit: 'passkeyStartsPerIp', subject: clientIp }]);
    const options = await authenticationOptions(project, allowed);
    await this.store.sessions.setReauthChallenge(session.id, options.challenge, this.deps.now() + CHALLENGE_LIFETIME_MS);
    return { assertionOptions: options.json };
  }

  async passkeyFinish(project: ProjectConfig, session: SessionRecord, assertionResponse: string): Promise<void> {
    const response = parseAuthenticationResponse(assertionResponse, 'assertionResponse');
    const failed = new ApiError(400, 'passkey_verification_failed', 'Bad request', 'The passkey could not be verified');
    const now = this.deps.now();
    const challenge = await this.store.sessions.takeReauthChallenge(session.id, now); // single use, before the verification
    if (!challenge) throw failed;
    const credential = (await this.passkeys(project, session)).find((c) => c.credentialId === response.id);
    const userHandle = response.response.userHandle;
    if (!credential || (userHandle && userHandle !== credential.userHandle)) throw failed;
    const result = await verifyAuthentication(project, response, challenge, credential);
    if (!result) throw failed;
    await this.store.credentials.recordUse(credential.id, result.signCount, result.backupState, now);
    await this.store.sessions.markReauthenticated(session.id, now);
  }

  /** Sends a code for this long session to one of the user's addresses (GET /v2/me/reauth names it). */
  async codeStart(project: ProjectConfig, session: SessionRecord, identifierID: string, clientIp: string, page: MessageRequest): Promise<void> {
    const address = await this.address(session, identifierID);
    const method = otpMethodOf(address.type);
    const now = this.deps.now();
    const wait = resendWaitMs((await this.store.reauthSecrets.latest(session.id, address.type, method))?.createdAt, now);
    if (wait > 0) throw ApiError.tooManyRequests('A code was sent a moment ago', wait / 1000, RESEND_COOLDOWN);
    await takeSendLimits(this.deps.limiter, project, clientIp, address.type, address.value);
    const code = newOtpCode();
    // the code and its message in one transaction: neither is kept without the other
    await this.store.transaction(async () => {
      await issueSecret(this.store.reauthSecrets, this.deps.secretKey, { ownerId: session.id, method, type: address.type, value: address.value, secret: code, now });
      await sendCode(this.deps.messenger, project, address.type, address.value, code, now, page);
    });
  }

  async codeFinish(project: ProjectConfig, session: SessionRecord, body: MeReauthCodeFinishRequest, clientIp: string): Promise<void> {
    const address = await this.address(session, body.identifierID);
    const method = otpMethodOf(address.type);
    const repo = this.store.reauthSecrets;
    const now = this.deps.now();
    const accepted = await acceptSecret(
      { limiter: this.deps.limiter, secretKey: this.deps.secretKey, project, clientIp, repo, identifier: { type: address.type, value: address.value }, now },
      body.code,
      () => repo.latest(session.id, address.type, method),
    );
    if (!accepted) throw new ApiError(400, `invalid_challenge_solution_${method}`, 'Bad request', 'The code is invalid or expired');
    await this.store.sessions.markReauthenticated(session.id, now);
  }
}
