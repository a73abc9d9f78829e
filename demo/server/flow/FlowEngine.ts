// The flow engine: one method per process action. It decides the next block (nextStep.ts), keeps the
// process state, sends codes and links when a verify block is entered, creates the user when the
// process completes and hands out sessions when the completed block is delivered.
import { randomBytes } from 'node:crypto';
import type { IdentifierType, ProjectConfig, SocialProvider, VerificationMethod } from '../config/projectConfig.ts';
import { ApiError } from '../http/ApiError.ts';
import { equalHex, hmacHex, newId, newOtpCode, newSecretToken, sha256Hex } from '../randomValues.ts';
import { linkEmail, otpEmail, otpSms } from '../senders/messageTexts.ts';
import type { Logger, Messenger } from '../senders/Messenger.ts';
import type { Sessions } from '../session/Sessions.ts';
import { CALLBACK_PATH, ProviderError, type ProviderClient, type SocialProfile } from '../social/providerClient.ts';
import type { ProcessRecord } from '../store/ProcessesRepo.ts';
import type { Store } from '../store/Store.ts';
import {
  alreadyCompletedBlock,
  collectBlock,
  completedBlock,
  currentBlock,
  passkeyAppendBlock,
  passkeyVerifyBlock,
  verificationMethodFor,
  verifyBlock,
  RETRY_DELAY_SECONDS,
  type BlockBody,
  type BlockExtras,
  type ProcessResponse,
  type RenderContext,
} from './blockBodies.ts';
import { emailLinkUrl } from './emailLink.ts';
import { canonicalIdentifier, normalizedIdentifier } from './identifierRules.ts';
import {
  loginVerifications,
  nextLoginStep,
  nextSignupStep,
  passkeyAppendSkippable,
  passkeyPossible,
  pendingVerifications,
  primaryIdentifier,
  signupHasVerification,
  verifyStep,
  type Step,
} from './nextStep.ts';
import {
  authenticationOptions,
  parseAuthenticationResponse,
  parseRegistrationResponse,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
} from './passkeyCeremonies.ts';
import {
  initialState,
  verifyTypeOf,
  type AuthType,
  type ProcessState,
  type SocialIdentity,
  type SocialRoundTrip,
  type VerifiableType,
} from './processState.ts';
import { requestError, type RequestError } from './requestErrors.ts';

export const SECRET_LIFETIME_MS = 10 * 60_000;
export const MAX_CODE_ATTEMPTS = 5;
const FULL_NAME_MAX = 100;
/** how long a provider round trip may take (the OAuth state's lifetime) */
export const SOCIAL_STATE_LIFETIME_MS = 15 * 60_000;

export interface FlowDeps {
  store: Store;
  messenger: Messenger;
  sessions: Sessions;
  now: () => number;
  /** HMAC key for one-time codes and link tokens */
  secretKey: string;
  /** OAuth providers (the local simulator unless configured otherwise) */
  social: ProviderClient;
  log?: Logger;
}

/** The provider callback ends in a redirect back to the app, or in an error page (400). */
export type SocialCallbackOutcome = { redirect: string } | { page: { title: string; message: string; backUrl?: string } };

/** One process call: the project, the process and what the request tells about its origin. */
export interface FlowCall {
  project: ProjectConfig;
  process: ProcessRecord;
  processToken: string;
  frontendApiUrl: string;
  userAgent: string | undefined;
}

export interface FlowOutcome {
  response: ProcessResponse;
  /** set when the completed block was delivered: the long session for the HttpOnly cookie */
  longSession?: { token: string; maxAgeSeconds: number };
}

export interface ClientInfo {
  isUserVerifyingPlatformAuthenticatorAvailable?: boolean;
  isConditionalMediationAvailable?: boolean;
}

const VERIFY_TYPE_OF_METHOD: Record<VerificationMethod, VerifiableType> = {
  'email-otp': 'email',
  'email-link': 'email',
  'phone-otp': 'phone',
};

export class FlowEngine {
  constructor(private readonly deps: FlowDeps) {}

  // ---------------------------------------------------------------- process lifecycle

  initProcess(
    project: ProjectConfig,
    body: { clientInformation: ClientInfo; preferredBlock?: string },
    frontendApiUrl: string,
  ): { token: string; expiresAt: number; response: ProcessResponse } {
    const authType: AuthType = body.preferredBlock === 'signup-init' && project.publicSignup ? 'signup' : 'login';
    const client = {
      platformAuthenticator: body.clientInformation.isUserVerifyingPlatformAuthenticatorAvailable === true,
      conditionalMediation: body.clientInformation.isConditionalMediationAvailable === true,
    };
    const { token, record } = this.createProcess(project, initialState(authType, client));
    const call: FlowCall = { project, process: record, processToken: token, frontendApiUrl, userAgent: undefined };
    return { token, expiresAt: Math.floor(record.expiresAt / 1000), response: this.respond(call).response };
  }

  getProcess(call: FlowCall, preferredBlock: string | undefined): FlowOutcome {
    const s = call.process.state;
    if (s.deliveredAt !== null) return this.alreadyCompleted(call);
    if (s.block === 'signup-init' || s.block === 'login-init') {
      if (preferredBlock === 'signup-init' && call.project.publicSignup) this.switchInit(call, 'signup');
      else if (preferredBlock === 'login-init') this.switchInit(call, 'login');
    }
    return this.respond(call);
  }

  /** Ends the process and answers the fresh init block of the same authType with `newProcess`. */
  resetProcess(call: FlowCall): FlowOutcome {
    const old = call.process.state;
    this.deps.store.processes.end(call.process.id, this.now());
    const authType: AuthType = old.authType === 'signup' && call.project.publicSignup ? 'signup' : 'login';
    const { token, record } = this.createProcess(call.project, initialState(authType, old.client));
    const outcome = this.respond({ ...call, process: record, processToken: token });
    outcome.response.newProcess = { token, expiresAt: Math.floor(record.expiresAt / 1000) };
    return outcome;
  }

  /** "Maybe later" on passkey-append, or continuing from passkey-appended; delivers a pending completion. */
  completeProcess(call: FlowCall): FlowOutcome {
    return this.act(call, (s) => {
      if (s.block === 'completed') return this.respond(call);
      if (s.block === 'passkey-appended') {
        s.passkeyAcknowledged = true;
        return this.respond(call, this.advance(call));
      }
      if (s.block === 'passkey-append') {
        const hasFallback = s.authType === 'signup' && pendingVerifications(s, call.project).length > 0;
        if (passkeyAppendSkippable(s, call.project) || hasFallback) {
          s.passkey = 'declined';
          return this.respond(call, this.advance(call));
        }
        return this.respond(call, { error: this.error(call, 'no_fallback_available') });
      }
      return this.respond(call, { error: this.error(call, 'unexpected_step') });
    });
  }

  skipBlock(call: FlowCall): FlowOutcome {
    return this.act(call, (s) => {
      if (s.block === 'passkey-appended') {
        s.passkeyAcknowledged = true;
        return this.respond(call, this.advance(call));
      }
      if (s.block === 'passkey-append' && passkeyAppendSkippable(s, call.project)) {
        s.passkey = 'declined';
        return this.respond(call, this.advance(call));
      }
      return this.respond(call, { error: this.error(call, 'unexpected_step') });
    });
  }

  /** The status poll of the e-mail link screen: the current block, or the next one once verified. */
  verificationStatus(call: FlowCall): FlowOutcome {
    return this.respond(call);
  }

  // ---------------------------------------------------------------- sign-up

  signupInit(call: FlowCall, body: { identifiers: { type: IdentifierType; identifier: string }[]; fullName?: string }): FlowOutcome {
    const { project } = call;
    if (!project.publicSignup) throw ApiError.invalidRequest('Public sign-up is disabled for this project');
    const signupTypes = (['email', 'phone', 'username'] as const).filter(
      (t) => project.identifiers[t].enabled && project.identifiers[t].collectAt === 'signup',
    );
    const given = new Map<IdentifierType, string>();
    body.identifiers.forEach((entry, i) => {
      if (!signupTypes.includes(entry.type as never)) {
        throw ApiError.invalidRequest(`Identifier type ${entry.type} is not collected at sign-up`, [
          { field: `identifiers[${i}].type`, message: 'is not enabled for sign-up in this project' },
        ]);
      }
      if (given.has(entry.type)) {
        throw ApiError.invalidRequest(`Identifier type ${entry.type} given twice`, [
          { field: `identifiers[${i}].type`, message: 'is given twice' },
        ]);
      }
      given.set(entry.type, entry.identifier);
    });
    return this.act(call, (s) => {
      if (s.block !== 'signup-init' && s.block !== 'login-init') return this.respond(call, { error: this.error(call, 'unexpected_step') });
      s.authType = 'signup';
      s.block = 'signup-init';
      s.identifiers = {};
      s.social = null;
      s.socialAccount = null;
      const identifierErrors: Partial<Record<IdentifierType, RequestError>> = {};
      for (const type of signupTypes) {
        const raw = (given.get(type) ?? '').trim();
        if (!raw) {
          if (project.identifiers[type].required) identifierErrors[type] = this.error(call, 'missing_identifier_type', type);
          continue;
        }
        const problem = this.identifierProblem(call, type, raw);
        if (problem) identifierErrors[type] = problem.error;
        s.identifiers[type] = { value: problem ? raw : canonicalIdentifier(type, raw)!, verified: false };
      }
      const fullName = (body.fullName ?? '').trim();
      let fullNameError: RequestError | undefined;
      if (project.fullNameRequired && (!fullName || fullName.length > FULL_NAME_MAX)) {
        fullNameError = this.error(call, 'missing_full_name');
      }
      s.fullName = fullName.slice(0, FULL_NAME_MAX);
      if (fullNameError || Object.keys(identifierErrors).length > 0) {
        this.save(call);
        return this.respond(call, { identifierErrors, ...(fullNameError ? { fullNameError } : {}) });
      }
      if (!passkeyPossible(s, project) && !signupHasVerification(s, project)) {
        this.save(call);
        return this.respond(call, { dataError: this.error(call, 'no_fallback_available') });
      }
      s.passkey = 'undecided';
      return this.respond(call, this.advance(call));
    });
  }

  collect(call: FlowCall, type: 'username' | 'phone', raw: string): FlowOutcome {
    return this.act(call, (s) => {
      const block = type === 'username' ? 'username-collect' : 'phone-collect';
      if (s.block !== block) return this.respond(call, { error: this.error(call, 'unexpected_step') });
      const value = raw.trim();
      const problem = value ? this.identifierProblem(call, type, value) : { error: this.error(call, 'missing_identifier_type', type) };
      if (problem) return { response: this.wrap(call, collectBlock(this.ctx(call), block, { dataError: problem.error, collectValue: raw })) };
      s.identifiers[type] = { value: canonicalIdentifier(type, value)!, verified: false };
      return this.respond(call, this.advance(call));
    });
  }

  /** Changes an entered identifier (edit on a verify screen or passkey-append); no code is sent. */
  updateIdentifier(call: FlowCall, body: { identifierType: IdentifierType; value: string }): FlowOutcome {
    const type = body.identifierType;
    if (!call.project.identifiers[type].enabled) {
      throw ApiError.invalidRequest(`Identifier type ${type} is not enabled`, [{ field: 'identifierType', message: 'is not enabled in this project' }]);
    }
    return this.act(call, (s) => {
      const editable = s.block === 'email-verify' || s.block === 'phone-verify' || s.block === 'passkey-append';
      if (s.authType !== 'signup' || !editable || !s.identifiers[type]) {
        return this.respond(call, { error: this.error(call, s.authType === 'login' ? 'identifier_not_allowed' : 'unexpected_step', type) });
      }
      const value = body.value.trim();
      const canonical = canonicalIdentifier(type, value);
      if (canonical && normalizedIdentifier(type, canonical) === normalizedIdentifier(type, s.identifiers[type]!.value)) {
        return this.respond(call);
      }
      const problem = value ? this.identifierProblem(call, type, value) : { error: this.error(call, 'identifier_invalid_format', type) };
      if (problem) return this.respond(call, { error: problem.error });
      s.identifiers[type] = { value: canonical!, verified: false };
      if (type === 'email' || type === 'phone') {
        this.deps.store.secrets.revokeOpen(call.process.id, type, this.now());
        delete s.lastSentAt[type];
      }
      this.save(call);
      return this.respond(call);
    });
  }

  // ---------------------------------------------------------------- codes and links

  verifyStart(call: FlowCall, body: { identifierType: IdentifierType; verificationType: VerificationMethod }): FlowOutcome {
    const type = this.verifiableType(body.identifierType, body.verificationType);
    return this.act(call, (s) => {
      const configured = call.project.identifiers[type];
      if (!s.identifiers[type]?.value || !configured.enabled || configured.verification !== body.verificationType) {
        return this.respond(call, { error: this.error(call, 'identifier_not_allowed', type) });
      }
      if (verifyTypeOf(s.block) === type) {
        const lastSent = s.lastSentAt[type];
        if (lastSent !== undefined && this.now() < lastSent + RETRY_DELAY_SECONDS * 1000) {
          return this.respond(call, { dataError: this.error(call, 'verification_retry_too_early') });
        }
        this.sendVerification(call, type);
        this.save(call);
        return this.respond(call);
      }
      if (s.block === 'passkey-append' && s.authType === 'signup' && pendingVerifications(s, call.project).includes(type)) {
        s.passkey = 'declined';
        return this.respond(call, this.enter(call, verifyStep(type)));
      }
      if (s.block === 'passkey-verify' && loginVerifications(s, call.project, s.orig?.type ?? 'email').includes(type)) {
        return this.respond(call, this.enter(call, verifyStep(type)));
      }
      return this.respond(call, { error: this.error(call, 'unexpected_step') });
    });
  }

  verifyFinish(
    call: FlowCall,
    body: { identifierType: IdentifierType; verificationType: VerificationMethod; code: string; isNewDevice?: boolean },
  ): FlowOutcome {
    const type = this.verifiableType(body.identifierType, body.verificationType);
    return this.act(call, (s) => {
      const method = body.verificationType;
      const invalid = (): FlowOutcome => {
        const dataError = this.error(call, `invalid_challenge_solution_${method}`);
        if (verifyTypeOf(s.block) === type || method === 'email-link') {
          return { response: this.wrap(call, verifyBlock(this.ctx(call), type, { dataError })) };
        }
        return this.respond(call, { error: dataError });
      };
      if (verifyTypeOf(s.block) !== type || call.project.identifiers[type].verification !== method) return invalid();
      const entered = s.identifiers[type]!;
      const now = this.now();
      const secretHash = hmacHex(this.deps.secretKey, body.code);
      const secret =
        method === 'email-link'
          ? this.deps.store.secrets.findByHash(call.process.id, method, secretHash)
          : this.deps.store.secrets.latest(call.process.id, type, method);
      const usable =
        secret &&
        secret.usedAt === null &&
        secret.revokedAt === null &&
        secret.expiresAt > now &&
        secret.attempts < MAX_CODE_ATTEMPTS &&
        secret.identifierValue === entered.value;
      if (!usable) return invalid();
      if (!equalHex(secret.secretHash, secretHash)) {
        this.deps.store.secrets.recordFailedAttempt(secret.id);
        return invalid();
      }
      if (!this.deps.store.secrets.consume(secret.id, now)) return invalid();
      entered.verified = true;
      const extras = this.advance(call);
      if (method === 'email-link' && body.isNewDevice === true) {
        // The other tab (still polling verify/status) continues; this one shows "continue there".
        return {
          response: this.wrap(call, verifyBlock(this.ctx(call), 'email', { continueOnOtherDevice: { reason: 'email-link-verified' } })),
        };
      }
      return this.respond(call, extras);
    });
  }

  // ---------------------------------------------------------------- log-in

  loginInit(call: FlowCall, body: { identifierValue: string; isPhone: boolean }): FlowOutcome {
    return this.act(call, (s) => {
      if (s.block !== 'signup-init' && s.block !== 'login-init') return this.respond(call, { error: this.error(call, 'unexpected_step') });
      const { project } = call;
      s.authType = 'login';
      s.block = 'login-init';
      s.social = null;
      s.socialAccount = null;
      s.loginValue = body.identifierValue;
      s.loginIsPhone = body.isPhone;
      const raw = body.identifierValue.trim();
      const type: IdentifierType = body.isPhone ? 'phone' : raw.includes('@') ? 'email' : 'username';
      const cfg = project.identifiers[type];
      const canonical = cfg.enabled && cfg.loginIdentifier ? canonicalIdentifier(type, raw) : undefined;
      const found = canonical ? this.deps.store.users.findIdentifier(project.id, type, normalizedIdentifier(type, canonical)) : undefined;
      if (!found) {
        this.save(call);
        return this.respond(call, { fieldError: this.error(call, 'login_identifier_unknown_user') });
      }
      this.loadUser(s, found.userId, { type, value: found.value });
      if (project.passkeys && this.activePasskeys(found.userId).length > 0) {
        s.block = 'passkey-verify';
        this.save(call);
        return this.respond(call);
      }
      const fallback = loginVerifications(s, project, type)[0];
      if (!fallback) {
        s.userId = null;
        s.identifiers = {};
        this.save(call);
        return this.respond(call, { dataError: this.error(call, 'no_fallback_available') });
      }
      return this.respond(call, this.enter(call, verifyStep(fallback)));
    });
  }

  async passkeyLoginStart(call: FlowCall): Promise<FlowOutcome> {
    return this.actAsync(call, async (s) => {
      if (s.block !== 'passkey-verify' || !s.userId) return this.respond(call, { error: this.error(call, 'unexpected_step') });
      const options = await authenticationOptions(call.project, this.activePasskeys(s.userId));
      const fresh = this.reload(call);
      if (!fresh || fresh.block !== 'passkey-verify') return this.respond(call);
      fresh.loginChallenge = options.challenge;
      this.save(call);
      return { response: this.wrap(call, passkeyVerifyBlock(this.ctx(call), { challenge: options.json })) };
    });
  }

  async passkeyLoginFinish(call: FlowCall, signedChallenge: string): Promise<FlowOutcome> {
    const response = parseAuthenticationResponse(signedChallenge, 'signedChallenge');
    return this.actAsync(call, async (s) => {
      const failed = () => this.respond(call, { error: this.error(call, 'passkey_verification_failed') });
      const challenge = s.loginChallenge;
      if (s.block !== 'passkey-verify' || !challenge || !s.userId) return failed();
      s.loginChallenge = null; // single use, consumed before any await
      this.save(call);
      const credential = this.deps.store.credentials.findByCredentialId(call.project.id, response.id);
      if (!credential || credential.userId !== s.userId || credential.status !== 'active') return failed();
      const result = await verifyAuthentication(call.project, response, challenge, credential);
      const fresh = this.reload(call);
      if (!fresh || fresh.deliveredAt !== null) return this.alreadyCompleted(call);
      if (!result || fresh.block !== 'passkey-verify') return failed();
      this.deps.store.credentials.recordUse(credential.id, result.signCount, result.backupState, this.now());
      fresh.passkeyOperation = { operationType: 'verify', identifierValue: fresh.orig!.value, identifierType: fresh.orig!.type, ceremonyType: 'local' };
      return this.respond(call, this.enter(call, { block: 'completed' }));
    });
  }

  /** Conditional UI (autofill) log-in with the challenge bound to the process at login-init. */
  async mediationFinish(call: FlowCall, signedChallenge: string): Promise<FlowOutcome> {
    const response = parseAuthenticationResponse(signedChallenge, 'signedChallenge');
    return this.actAsync(call, async (s) => {
      const failed = (): FlowOutcome => {
        const fresh = this.reload(call);
        if (fresh && (fresh.block === 'signup-init' || fresh.block === 'login-init')) {
          fresh.authType = 'login';
          fresh.block = 'login-init';
          this.save(call);
        }
        return this.respond(call, { fieldError: this.error(call, 'invalid_conditional_ui_login') });
      };
      const challenge = s.conditionalChallenge;
      if ((s.block !== 'signup-init' && s.block !== 'login-init') || !challenge) return failed();
      s.conditionalChallenge = null; // single use, consumed before any await
      this.save(call);
      const credential = this.deps.store.credentials.findByCredentialId(call.project.id, response.id);
      if (!credential || credential.status !== 'active') return failed();
      const userHandle = response.response.userHandle;
      if (userHandle && userHandle !== credential.userHandle) return failed();
      const result = await verifyAuthentication(call.project, response, challenge, credential);
      const fresh = this.reload(call);
      if (!fresh || fresh.deliveredAt !== null) return this.alreadyCompleted(call);
      if (!result || (fresh.block !== 'signup-init' && fresh.block !== 'login-init')) return failed();
      this.deps.store.credentials.recordUse(credential.id, result.signCount, result.backupState, this.now());
      const identifiers = this.deps.store.users.listIdentifiers(credential.userId);
      const orig =
        identifiers.find((i) => call.project.identifiers[i.type].enabled && call.project.identifiers[i.type].loginIdentifier) ?? identifiers[0];
      if (!orig) return failed();
      fresh.authType = 'login';
      this.loadUser(fresh, credential.userId, { type: orig.type, value: orig.value });
      fresh.passkeyOperation = { operationType: 'verify', identifierValue: orig.value, identifierType: orig.type, ceremonyType: 'local' };
      return this.respond(call, this.enter(call, { block: 'completed' }));
    });
  }

  // ---------------------------------------------------------------- passkey append

  async passkeyAppendStart(call: FlowCall): Promise<FlowOutcome> {
    return this.actAsync(call, async (s) => {
      if (s.block !== 'passkey-append') return this.respond(call, { error: this.error(call, 'unexpected_step') });
      const identifier = this.passkeyIdentifier(call);
      let handle: string;
      let exclude: ReturnType<FlowEngine['activePasskeys']> = [];
      if (s.authType === 'login' && s.userId) {
        handle = this.deps.store.users.get(s.userId)!.userHandle;
        exclude = this.activePasskeys(s.userId);
      } else {
        handle = s.userHandle ?? randomBytes(32).toString('base64url');
      }
      const options = await registrationOptions(
        call.project,
        { handle, name: identifier.value, displayName: s.fullName || identifier.value },
        exclude,
      );
      const fresh = this.reload(call);
      if (!fresh || fresh.block !== 'passkey-append') return this.respond(call);
      if (fresh.authType === 'signup') fresh.userHandle ??= handle;
      fresh.appendChallenge = options.challenge;
      this.save(call);
      return { response: this.wrap(call, passkeyAppendBlock(this.ctx(call), { challenge: options.json })) };
    });
  }

  async passkeyAppendFinish(call: FlowCall, signedChallenge: string): Promise<FlowOutcome> {
    const response = parseRegistrationResponse(signedChallenge, 'signedChallenge');
    return this.actAsync(call, async (s) => {
      const failed = () => this.respond(call, { error: this.error(call, 'passkey_verification_failed') });
      const challenge = s.appendChallenge;
      if (s.block !== 'passkey-append' || !challenge) return failed();
      s.appendChallenge = null; // single use, consumed before any await
      this.save(call);
      const credential = await verifyRegistration(call.project, response, challenge, call.userAgent, this.now());
      const fresh = this.reload(call);
      if (!fresh || fresh.deliveredAt !== null) return this.alreadyCompleted(call);
      if (!credential || fresh.block !== 'passkey-append') return failed();
      if (this.deps.store.credentials.findByCredentialId(call.project.id, credential.credentialId)) return failed();
      const identifier = this.passkeyIdentifier(call);
      if (fresh.authType === 'login' && fresh.userId) {
        const user = this.deps.store.users.get(fresh.userId)!;
        this.insertCredential(call.project, user.id, user.userHandle, credential);
      } else {
        fresh.pendingCredential = credential;
      }
      fresh.passkey = 'appended';
      fresh.passkeyOperation = { operationType: 'append', identifierValue: identifier.value, identifierType: identifier.type, ceremonyType: 'local' };
      return this.respond(call, this.advance(call));
    });
  }

  // ---------------------------------------------------------------- social sign-in

  /** Starts a provider round trip: the init block answers socialData.status=started with the provider's URL. */
  socialStart(call: FlowCall, body: { providerType: SocialProvider; redirectUrl: string; authType: AuthType }): FlowOutcome {
    const redirectUrl = this.checkRedirectUrl(call.project, body.redirectUrl);
    return this.act(call, (s) => {
      if (s.block !== 'signup-init' && s.block !== 'login-init') return this.respond(call, { error: this.error(call, 'unexpected_step') });
      const { project } = call;
      const now = this.now();
      s.authType = body.authType === 'signup' && project.publicSignup ? 'signup' : 'login';
      s.block = s.authType === 'signup' ? 'signup-init' : 'login-init';
      s.social = null;
      s.socialAccount = null;
      this.deps.store.oauthStates.revokeForProcess(call.process.id, now);
      if (!project.socialProviders.includes(body.providerType)) {
        this.save(call);
        return this.respond(call, this.socialError(call, 'social_provider_not_enabled'));
      }
      const state = newSecretToken();
      const stateHash = sha256Hex(state);
      this.deps.store.oauthStates.insert({
        stateHash,
        processId: call.process.id,
        provider: body.providerType,
        createdAt: now,
        expiresAt: Math.min(now + SOCIAL_STATE_LIFETIME_MS, call.process.expiresAt),
      });
      s.social = {
        provider: body.providerType,
        redirectUrl,
        authType: s.authType,
        stateHash,
        apiBase: call.frontendApiUrl,
        status: 'started',
        startedAt: now,
      };
      this.save(call);
      const oauthUrl = this.deps.social.authorizationUrl(body.providerType, {
        apiBase: call.frontendApiUrl,
        projectId: project.id,
        redirectUri: call.frontendApiUrl + CALLBACK_PATH,
        state,
      });
      return this.respond(call, { oauthUrl });
    });
  }

  /**
   * The provider sent the browser back (a plain navigation: no project or process header). The state
   * leads to the process; the code is exchanged at the provider and the profile kept in the process.
   */
  async socialCallback(query: { state?: string; code?: string; error?: string }): Promise<SocialCallbackOutcome> {
    const invalid = (message: string, backUrl?: string): SocialCallbackOutcome => ({
      page: { title: 'This sign-in cannot continue', message, ...(backUrl ? { backUrl } : {}) },
    });
    if (!query.state) return invalid('The answer from the sign-in provider has no state parameter.');
    const now = this.now();
    const stored = query.state.length <= 512 ? this.deps.store.oauthStates.consume(sha256Hex(query.state), now) : undefined;
    if (!stored) return invalid('This sign-in is unknown, has expired or was already completed. Please start it again.');
    const record = this.deps.store.processes.get(stored.processId);
    const project = record ? this.deps.store.projects.get(record.projectId) : undefined;
    const trip = record?.state.social;
    if (!record || !project || !trip || trip.stateHash !== stored.stateHash || trip.status !== 'started') {
      return invalid('This sign-in is no longer in progress. Please start it again.');
    }
    const s = record.state;
    if (record.endedAt !== null || record.expiresAt <= now || s.deliveredAt !== null || (s.block !== 'signup-init' && s.block !== 'login-init')) {
      return invalid('This sign-in has expired. Please start it again.', trip.redirectUrl);
    }
    // processToken is only needed to send e-mail links, which a social sign-in never does
    const call: FlowCall = { project, process: record, processToken: '', frontendApiUrl: trip.apiBase, userAgent: undefined };
    const back = { redirect: trip.redirectUrl };
    const end = (update: Partial<SocialRoundTrip>): SocialCallbackOutcome => {
      const current = call.process.state;
      current.social = { ...trip, ...update };
      this.save(call);
      return back;
    };
    if (query.error) return end({ status: 'failed', errorCode: query.error === 'access_denied' ? 'social_login_cancelled' : 'social_login_failed' });
    if (!query.code || query.code.length > 2048) return end({ status: 'failed', errorCode: 'social_login_failed' });

    let profile: SocialProfile | undefined;
    try {
      profile = await this.deps.social.signIn(trip.provider, {
        apiBase: trip.apiBase,
        projectId: project.id,
        code: query.code,
        redirectUri: trip.apiBase + CALLBACK_PATH,
      });
    } catch (error) {
      // whatever went wrong (network, provider, configuration), the browser gets an in-band error
      const detail = error instanceof ProviderError ? error.message : error;
      this.deps.log?.error(`social sign-in with ${trip.provider} failed for process ${record.id}`, detail);
    }
    // another start on this process meanwhile wins; this answer is dropped
    const fresh = this.reload(call);
    if (!fresh || fresh.social?.stateHash !== trip.stateHash || fresh.social.status !== 'started' || fresh.deliveredAt !== null) return back;
    if (!profile) return end({ status: 'failed', errorCode: 'social_login_failed' });
    const email = canonicalIdentifier('email', profile.email);
    if (!email) return end({ status: 'failed', errorCode: 'social_login_failed' });
    if (!profile.emailVerified) return end({ status: 'failed', errorCode: 'social_email_not_verified' });
    const identity: SocialIdentity = {
      provider: trip.provider,
      subject: profile.subject,
      email,
      fullName: profile.fullName.slice(0, FULL_NAME_MAX),
      avatarUrl: profile.avatarUrl,
    };
    return end({ status: 'finished', identity });
  }

  /**
   * After the round trip: the known provider account logs in, a verified e-mail address of an existing
   * user gets the provider account linked and logs in, anything else signs up. Then the usual next steps.
   */
  socialFinish(call: FlowCall): FlowOutcome {
    return this.act(call, (s) => {
      const isInit = s.block === 'signup-init' || s.block === 'login-init';
      const identity = s.social?.status === 'finished' ? s.social.identity : undefined;
      if (!isInit || !identity) {
        const error = this.error(call, 'unexpected_step');
        return this.respond(call, isInit ? { dataError: error } : { error });
      }
      const { project } = call;
      const { store } = this.deps;
      s.social = null; // the profile is used once
      s.passkey = 'undecided';
      s.passkeyAcknowledged = false;
      s.passkeyOperation = null;
      s.pendingCredential = null;
      const refuse = (code: string): FlowOutcome => {
        s.socialAccount = null;
        this.save(call);
        return this.respond(call, this.socialError(call, code));
      };
      let userId = store.socialAccounts.find(project.id, identity.provider, identity.subject)?.userId;
      if (!userId) {
        const byEmail = store.users.findIdentifier(project.id, 'email', normalizedIdentifier('email', identity.email));
        // linking to an address nobody has proven to own would hand that account to the provider's user
        if (byEmail && byEmail.status !== 'verified') return refuse('social_account_conflict');
        userId = byEmail?.userId;
      }
      s.socialAccount = identity;
      if (userId) {
        s.authType = 'login';
        s.block = 'login-init';
        this.loadUser(s, userId, this.socialOrig(project, userId, identity));
        return this.respond(call, this.advance(call));
      }
      if (!project.publicSignup) {
        s.authType = 'login';
        s.block = 'login-init';
        return refuse('social_signup_disabled');
      }
      s.authType = 'signup';
      s.block = 'signup-init';
      s.userId = null;
      s.userHandle = null;
      s.orig = null;
      // the provider has verified the address
      s.identifiers = { email: { value: identity.email, verified: true } };
      s.fullName = identity.fullName;
      return this.respond(call, this.advance(call));
    });
  }

  /**
   * A social sign-in error on an init block: data.error (CONTRACT §8: the client then skips finish) and
   * the same error as blockBody.error, which is what the client shows as a popup.
   */
  private socialError(call: FlowCall, code: string): BlockExtras {
    const error = this.error(call, code);
    return { dataError: error, error };
  }

  /** The redirect URL of a social start: an http(s) URL on one of the project's origins; 400 otherwise. */
  private checkRedirectUrl(project: ProjectConfig, raw: string): string {
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    const fine = url && (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
    if (!url || !fine || !project.allowedOrigins.includes(url.origin)) {
      throw ApiError.invalidRequest('The redirectUrl is not allowed', [
        { field: 'redirectUrl', message: "must be an http(s) URL on one of the project's allowed origins" },
      ]);
    }
    return url.href;
  }

  /** The identifier a social log-in counts as (JWT `orig`): the provider's address if the user has it. */
  private socialOrig(project: ProjectConfig, userId: string, identity: SocialIdentity): { type: IdentifierType; value: string } {
    const identifiers = this.deps.store.users.listIdentifiers(userId);
    const email = normalizedIdentifier('email', identity.email);
    const chosen =
      identifiers.find((i) => i.type === 'email' && i.normalized === email) ??
      identifiers.find((i) => project.identifiers[i.type].enabled && project.identifiers[i.type].loginIdentifier) ??
      identifiers[0];
    return chosen ? { type: chosen.type, value: chosen.value } : { type: 'email', value: identity.email };
  }

  /** Links (or refreshes) the provider account of a social sign-in to the user; inside the completion. */
  private linkSocialAccount(project: ProjectConfig, userId: string, account: SocialIdentity): void {
    const { store } = this.deps;
    const now = this.now();
    const existing = store.socialAccounts.find(project.id, account.provider, account.subject);
    if (existing) {
      if (existing.userId === userId) store.socialAccounts.recordUse(existing.id, account, now);
      return;
    }
    store.socialAccounts.insert({
      id: newId('soc'),
      projectId: project.id,
      userId,
      provider: account.provider,
      subject: account.subject,
      email: account.email,
      fullName: account.fullName,
      avatarUrl: account.avatarUrl,
      createdAt: now,
      lastUsedAt: now,
    });
  }

  // ---------------------------------------------------------------- internals

  private now(): number {
    return this.deps.now();
  }

  private ctx(call: FlowCall): RenderContext {
    return { project: call.project, state: call.process.state, nowMs: this.now() };
  }

  private error(call: FlowCall, code: string, type?: IdentifierType): RequestError {
    return requestError(code, call.project.language, type);
  }

  private save(call: FlowCall): void {
    this.deps.store.processes.saveState(call.process.id, call.process.state);
  }

  /** Re-reads the process after an await (another request may have changed it meanwhile). */
  private reload(call: FlowCall): ProcessState | undefined {
    const fresh = this.deps.store.processes.get(call.process.id);
    if (!fresh) return undefined;
    call.process = fresh;
    return fresh.state;
  }

  private act(call: FlowCall, fn: (s: ProcessState) => FlowOutcome): FlowOutcome {
    if (call.process.state.deliveredAt !== null) return this.alreadyCompleted(call);
    return fn(call.process.state);
  }

  private async actAsync(call: FlowCall, fn: (s: ProcessState) => Promise<FlowOutcome>): Promise<FlowOutcome> {
    if (call.process.state.deliveredAt !== null) return this.alreadyCompleted(call);
    return fn(call.process.state);
  }

  private createProcess(project: ProjectConfig, state: ProcessState): { token: string; record: ProcessRecord } {
    const token = newSecretToken();
    const now = this.now();
    const record: ProcessRecord = {
      id: newId('pro'),
      projectId: project.id,
      state,
      createdAt: now,
      expiresAt: now + project.processLifetimeSeconds * 1000,
      endedAt: null,
    };
    this.deps.store.processes.insert({ ...record, tokenHash: sha256Hex(token) });
    return { token, record };
  }

  private switchInit(call: FlowCall, authType: AuthType): void {
    const s = call.process.state;
    s.authType = authType;
    s.block = authType === 'signup' ? 'signup-init' : 'login-init';
    this.save(call);
  }

  private wrap(call: FlowCall, blockBody: BlockBody): ProcessResponse {
    return {
      blockBody,
      common: { appName: call.project.appName, frontendApiUrl: call.frontendApiUrl, hideBadge: call.project.hideBadge },
    };
  }

  private alreadyCompleted(call: FlowCall): FlowOutcome {
    return { response: this.wrap(call, alreadyCompletedBlock(call.process.state.authType)) };
  }

  /** Answers the current block; a completed process is delivered once, with its sessions. */
  private respond(call: FlowCall, extras: BlockExtras = {}): FlowOutcome {
    const s = call.process.state;
    if (s.deliveredAt !== null) return this.alreadyCompleted(call);
    if (s.block === 'completed') return this.deliverCompleted(call);
    if (
      (s.block === 'login-init' || s.block === 'signup-init') &&
      call.project.passkeys &&
      s.client.conditionalMediation &&
      !s.conditionalChallenge
    ) {
      s.conditionalChallenge = randomBytes(32).toString('base64url');
      this.save(call);
    }
    const failedSocial = (s.block === 'login-init' || s.block === 'signup-init') && s.social?.status === 'failed' ? s.social : undefined;
    if (failedSocial) extras = { ...this.socialError(call, failedSocial.errorCode ?? 'social_login_failed'), ...extras };
    const response = this.wrap(call, currentBlock(this.ctx(call), extras));
    if (failedSocial) {
      // shown once; a reload afterwards starts from a fresh (initial) process
      s.social = null;
      this.save(call);
    }
    return { response };
  }

  private deliverCompleted(call: FlowCall): FlowOutcome {
    const s = call.process.state;
    const now = this.now();
    const session = this.deps.sessions.start(call.project, s.userId!, s.orig!.value, call.frontendApiUrl, now);
    s.deliveredAt = now;
    this.save(call);
    const block = completedBlock(
      s.authType,
      {
        shortSession: session.shortSession,
        ...(call.project.environment === 'dev' ? { longSession: session.longSession } : {}),
      },
      s.passkeyOperation,
    );
    return {
      response: this.wrap(call, block),
      longSession: { token: session.longSession, maxAgeSeconds: session.longSessionMaxAgeSeconds },
    };
  }

  /** Moves to the next block the configuration asks for. */
  private advance(call: FlowCall): BlockExtras {
    const s = call.process.state;
    const step =
      s.authType === 'signup'
        ? nextSignupStep(s, call.project)
        : nextLoginStep(s, call.project, s.userId ? this.activePasskeys(s.userId).length > 0 : false);
    return this.enter(call, step);
  }

  /** Enters a block: verify blocks send their code or link now; completed creates or updates the user. */
  private enter(call: FlowCall, step: Step): BlockExtras {
    const s = call.process.state;
    let extras: BlockExtras = {};
    if (step.block === 'email-verify' || step.block === 'phone-verify') {
      s.block = step.block;
      this.sendVerification(call, step.type);
    } else if (step.block === 'completed') {
      const conflict = s.authType === 'signup' ? this.createUser(call) : this.confirmLogin(call);
      if (conflict) extras = conflict;
      else s.block = 'completed';
    } else {
      s.block = step.block;
    }
    this.save(call);
    return extras;
  }

  private sendVerification(call: FlowCall, type: VerifiableType): void {
    const { project } = call;
    const s = call.process.state;
    const value = s.identifiers[type]!.value;
    const method = verificationMethodFor(project, type);
    const now = this.now();
    const secret = method === 'email-link' ? newSecretToken() : newOtpCode();
    this.deps.store.secrets.issue({
      id: newId('vse'),
      processId: call.process.id,
      method,
      identifierType: type,
      identifierValue: value,
      secretHash: hmacHex(this.deps.secretKey, secret),
      createdAt: now,
      expiresAt: now + SECRET_LIFETIME_MS,
    });
    s.lastSentAt[type] = now;
    if (method === 'email-link') {
      const link = emailLinkUrl(project, {
        processToken: call.processToken,
        processExpiresAt: Math.floor(call.process.expiresAt / 1000),
        frontendApiUrl: call.frontendApiUrl,
        identifier: value,
        retryNotBefore: Math.floor(now / 1000) + RETRY_DELAY_SECONDS,
        authType: s.authType,
        token: secret,
      });
      this.deps.messenger.email(project.id, value, linkEmail(project.language, project.appName, link, s.authType), { link }, now);
    } else if (method === 'email-otp') {
      this.deps.messenger.email(project.id, value, otpEmail(project.language, project.appName, secret), { code: secret }, now);
    } else {
      this.deps.messenger.sms(project.id, value, otpSms(project.language, project.appName, secret), { code: secret }, now);
    }
  }

  /** Sign-up completion: the user, its identifiers and the appended passkey, in one transaction. */
  private createUser(call: FlowCall): BlockExtras | undefined {
    const { project } = call;
    const s = call.process.state;
    const { store } = this.deps;
    const now = this.now();
    return store.transaction(() => {
      const entered = (['email', 'phone', 'username'] as const).filter((t) => !!s.identifiers[t]?.value);
      const taken = entered.filter((t) =>
        store.users.findIdentifier(project.id, t, normalizedIdentifier(t, s.identifiers[t]!.value)),
      );
      const social = s.socialAccount;
      if (social && (taken.length > 0 || store.socialAccounts.find(project.id, social.provider, social.subject))) {
        // taken meanwhile (another tab or sign-up): start over rather than join someone else's account
        s.block = 'signup-init';
        s.passkey = 'undecided';
        s.pendingCredential = null;
        s.identifiers = {};
        s.fullName = '';
        s.socialAccount = null;
        return this.socialError(call, 'social_account_conflict');
      }
      if (taken.length > 0) {
        // Someone else registered the identifier meanwhile: back to the start with the values kept.
        s.block = 'signup-init';
        s.passkey = 'undecided';
        s.pendingCredential = null;
        for (const t of entered) s.identifiers[t]!.verified = false;
        return { identifierErrors: Object.fromEntries(taken.map((t) => [t, this.error(call, 'identifier_already_in_use', t)])) };
      }
      const userId = newId('usr');
      const userHandle = s.userHandle ?? randomBytes(32).toString('base64url');
      store.users.insertUser({ id: userId, projectId: project.id, fullName: s.fullName, userHandle, createdAt: now });
      for (const type of entered) {
        const identifier = s.identifiers[type]!;
        store.users.insertIdentifier(
          project.id,
          {
            id: newId('ide'),
            userId,
            type,
            value: identifier.value,
            normalized: normalizedIdentifier(type, identifier.value),
            // usernames cannot be verified; other identifiers are verified only by a code or link
            status: identifier.verified || type === 'username' ? 'verified' : 'pending',
          },
          now,
        );
      }
      const pending = s.pendingCredential;
      if (pending && !store.credentials.findByCredentialId(project.id, pending.credentialId)) {
        this.insertCredential(project, userId, userHandle, pending);
      }
      s.pendingCredential = null;
      if (social) this.linkSocialAccount(project, userId, social);
      s.socialAccount = null;
      s.userId = userId;
      s.userHandle = userHandle;
      s.orig = primaryIdentifier(s, project) ?? null;
      return undefined;
    });
  }

  /** Log-in completion: identifiers verified during the log-in become verified on the user. */
  private confirmLogin(call: FlowCall): undefined {
    const s = call.process.state;
    if (!s.userId) return undefined;
    if (s.socialAccount) {
      this.linkSocialAccount(call.project, s.userId, s.socialAccount);
      s.socialAccount = null;
    }
    for (const identifier of this.deps.store.users.listIdentifiers(s.userId)) {
      const entered = s.identifiers[identifier.type];
      if (identifier.status === 'pending' && entered?.verified && entered.value === identifier.value) {
        this.deps.store.users.markIdentifierVerified(identifier.id);
      }
    }
    return undefined;
  }

  private insertCredential(project: ProjectConfig, userId: string, userHandle: string, c: NonNullable<ProcessState['pendingCredential']>): void {
    this.deps.store.credentials.insert({
      id: newId('cre'),
      projectId: project.id,
      userId,
      credentialId: c.credentialId,
      publicKey: new Uint8Array(Buffer.from(c.publicKey, 'base64url')),
      userHandle,
      aaguid: c.aaguid,
      backupEligible: c.backupEligible,
      backupState: c.backupState,
      transports: c.transports,
      signCount: c.signCount,
      attestationType: c.attestationType,
      sourceBrowser: c.sourceBrowser,
      sourceOS: c.sourceOS,
      status: 'active',
      createdAt: c.createdAt,
      lastUsedAt: c.createdAt,
    });
  }

  private loadUser(s: ProcessState, userId: string, orig: { type: IdentifierType; value: string }): void {
    s.userId = userId;
    s.orig = orig;
    s.identifiers = {};
    for (const identifier of this.deps.store.users.listIdentifiers(userId)) {
      // the identifier typed in is the one a code goes to, even if the user has several of that type
      if (identifier.type === orig.type && identifier.value !== orig.value) continue;
      s.identifiers[identifier.type] ??= { value: identifier.value, verified: identifier.status === 'verified' };
    }
  }

  private activePasskeys(userId: string) {
    return this.deps.store.credentials.listByUser(userId).filter((c) => c.status === 'active');
  }

  private passkeyIdentifier(call: FlowCall): { type: IdentifierType; value: string } {
    const s = call.process.state;
    if (s.authType === 'login' && s.orig) return s.orig;
    return primaryIdentifier(s, call.project) ?? { type: 'email', value: '' };
  }

  /** Format and availability of an identifier value; undefined when it can be used. */
  private identifierProblem(call: FlowCall, type: IdentifierType, value: string): { error: RequestError } | undefined {
    const canonical = canonicalIdentifier(type, value);
    if (!canonical) return { error: this.error(call, 'identifier_invalid_format', type) };
    if (this.deps.store.users.findIdentifier(call.project.id, type, normalizedIdentifier(type, canonical))) {
      return { error: this.error(call, 'identifier_already_in_use', type) };
    }
    return undefined;
  }

  /** The identifier type a verification method works on; 400 for a mismatched pair. */
  private verifiableType(identifierType: IdentifierType, method: VerificationMethod): VerifiableType {
    const type = VERIFY_TYPE_OF_METHOD[method];
    if (identifierType !== type) {
      throw ApiError.invalidRequest(`${method} cannot verify a ${identifierType}`, [
        { field: 'verificationType', message: `does not fit identifierType ${identifierType}` },
      ]);
    }
    return type;
  }
}
