// Builds the wire shapes of the blocks (CONTRACT §4.3), typed by the wire types the widget reads
// (src/core/api/types.ts). Pure: no storage, no side effects.
import type {
  BlockBody,
  CollectData,
  CompletedData,
  LoginInitData,
  PasskeyAppendData,
  PasskeyAppendedData,
  PasskeyVerifyData,
  RequestError,
  SignupInitData,
  SocialData,
  VerifyIdentifierData,
} from '../../src/core/api/types.ts';
import { IDENTIFIER_TYPES, logsIn, type IdentifierType, type ProjectConfig } from '../config/projectConfig.ts';
import { loginVerifications, passkeyAppendSkippable, passkeyIdentifier, pendingVerifications } from './nextStep.ts';
import type { AuthType, PasskeyOperation, ProcessState, VerifiableType } from './processState.ts';
import { RETRY_DELAY_SECONDS, verificationMethodFor } from './sendVerification.ts';

export type { BlockBody, ProcessResponse } from '../../src/core/api/types.ts';

/** Errors and one-off values shown with a block; never stored in the process. */
export interface BlockExtras {
  /** blockBody.error (a popup, or a field error for identifier/update) */
  error?: RequestError;
  /** data.error */
  dataError?: RequestError;
  /** login-init data.fieldError */
  fieldError?: RequestError;
  /** signup-init identifiers[i].error */
  identifierErrors?: Partial<Record<IdentifierType, RequestError>>;
  /** signup-init fullName.error */
  fullNameError?: RequestError;
  /** signup-init signupFields[i].error, by field id */
  signupFieldErrors?: Record<string, RequestError>;
  /** username-collect / phone-collect: the rejected value */
  collectValue?: string;
  /** passkey-append / passkey-verify data.challenge from a .../start call */
  challenge?: string;
  /** signup-init / login-init socialData.oauthUrl from social/verify/start */
  oauthUrl?: string;
  continueOnOtherDevice?: BlockBody['continueOnOtherDevice'];
}

export interface RenderContext {
  project: ProjectConfig;
  state: ProcessState;
  nowMs: number;
}

export const CONDITIONAL_UI_TIMEOUT_MS = 5 * 60_000;

function withError<T extends BlockBody>(body: T, extras: BlockExtras): T {
  if (extras.error) body.error = extras.error;
  if (extras.continueOnOtherDevice) body.continueOnOtherDevice = extras.continueOnOtherDevice;
  return body;
}

/**
 * socialData of the init blocks. A failed round trip reads as finished (with data.error), so the client
 * keeps the process and shows the error instead of replacing an "initial" process.
 */
function socialData(project: ProjectConfig, state: ProcessState, oauthUrl?: string): SocialData {
  const status = !state.social ? 'initial' : state.social.status === 'started' ? 'started' : 'finished';
  return { providers: project.socialProviders, status, ...(oauthUrl && status === 'started' ? { oauthUrl } : {}) };
}

export function signupInitBlock(ctx: RenderContext, extras: BlockExtras = {}, withAlternatives = true): BlockBody {
  const { project, state } = ctx;
  const data: SignupInitData = {
    blockType: 'signup-init',
    identifiers: IDENTIFIER_TYPES.filter((t) => project.identifiers[t].enabled && project.identifiers[t].collectAt === 'signup').map(
      (type) => ({
        type,
        identifier: state.identifiers[type]?.value ?? '',
        ...(extras.identifierErrors?.[type] ? { error: extras.identifierErrors[type] } : {}),
      }),
    ),
    socialData: socialData(project, state, extras.oauthUrl),
  };
  if (project.fullNameRequired) {
    data.fullName = { fullName: state.fullName, ...(extras.fullNameError ? { error: extras.fullNameError } : {}) };
  }
  if (project.signupFields.length > 0) {
    data.signupFields = project.signupFields.map((field) => {
      const answer = state.signupFields?.find((a) => a.id === field.id);
      const error = extras.signupFieldErrors?.[field.id];
      return {
        ...field,
        ...(answer?.value !== undefined ? { value: answer.value } : {}),
        ...(field.type === 'checkbox' ? { accepted: answer?.accepted === true } : {}),
        ...(error ? { error } : {}),
      };
    });
  }
  if (extras.dataError) data.error = extras.dataError;
  return withError(
    {
      block: 'signup-init',
      authType: 'signup',
      data,
      alternatives: withAlternatives ? [loginInitBlock(ctx, {}, false)] : [],
    },
    extras,
  );
}

export function conditionalUIChallenge(project: ProjectConfig, challenge: string): string {
  return JSON.stringify({
    publicKey: { challenge, rpId: project.rpId, userVerification: 'required', allowCredentials: [], timeout: CONDITIONAL_UI_TIMEOUT_MS },
  });
}

export function loginInitBlock(ctx: RenderContext, extras: BlockExtras = {}, withAlternatives = true): BlockBody {
  const { project, state } = ctx;
  const data: LoginInitData = {
    blockType: 'login-init',
    identifierValue: state.loginValue,
    isPhone: state.loginIsPhone,
    isEmailAvailable: logsIn(project, 'email'),
    isUsernameAvailable: logsIn(project, 'username'),
    isPhoneAvailable: logsIn(project, 'phone'),
    socialData: socialData(project, state, extras.oauthUrl),
  };
  if (state.conditionalChallenge) data.conditionalUIChallenge = conditionalUIChallenge(project, state.conditionalChallenge);
  if (extras.fieldError) data.fieldError = extras.fieldError;
  if (extras.dataError) data.error = extras.dataError;
  return withError(
    {
      block: 'login-init',
      authType: 'login',
      data,
      alternatives: withAlternatives && project.publicSignup ? [signupInitBlock(ctx, {}, false)] : [],
    },
    extras,
  );
}

/**
 * email-verify / phone-verify, or post-signup-email-verify while the process stands on it: that one has
 * the same data (CONTRACT §4.3) and a `completed` alternative, since it may be put off.
 */
export function verifyBlock(ctx: RenderContext, type: VerifiableType, extras: BlockExtras = {}): BlockBody {
  const { project, state, nowMs } = ctx;
  const lastSent = state.lastSentAt[type];
  const retryNotBefore = lastSent !== undefined ? Math.floor(lastSent / 1000) + RETRY_DELAY_SECONDS : Math.floor(nowMs / 1000);
  const postSignup = type === 'email' && state.block === 'post-signup-email-verify';
  const block = postSignup ? 'post-signup-email-verify' : type === 'email' ? 'email-verify' : 'phone-verify';
  const data: VerifyIdentifierData = {
    blockType: block,
    verificationMethod: verificationMethodFor(project, type),
    identifier: state.identifiers[type]?.value ?? '',
    retryNotBefore,
    alternativeVerificationMethods: [],
    isPostLoginVerification: false,
  };
  // the code the link shows where it is opened in another browser, for the person to compare
  if (data.verificationMethod === 'email-link' && state.linkAsker && project.emailLinkOtherDevice === 'confirm') data.matchCode = state.linkAsker.matchCode;
  if (extras.dataError) data.error = extras.dataError;
  return withError({ block, authType: state.authType, data, alternatives: postSignup ? [completedStub(state.authType)] : [] }, extras);
}

export function passkeyAppendBlock(ctx: RenderContext, extras: BlockExtras = {}): BlockBody {
  const { project, state } = ctx;
  const identifier = passkeyIdentifier(state, project);
  const alternatives: BlockBody[] = passkeyAppendSkippable(state, project)
    ? [completedStub(state.authType)]
    : pendingVerifications(state, project).map((type) => verifyBlock(ctx, type));
  return withError(
    {
      block: 'passkey-append',
      authType: state.authType,
      data: {
        blockType: 'passkey-append',
        challenge: extras.challenge ?? '',
        identifierValue: identifier.value,
        identifierType: identifier.type,
        autoSubmit: false,
        passkeyIconSet: 'default',
        variant: state.appendAfterHybrid ? 'after-hybrid' : 'default',
      } satisfies PasskeyAppendData,
      alternatives,
    },
    extras,
  );
}

export function passkeyAppendedBlock(ctx: RenderContext, extras: BlockExtras = {}): BlockBody {
  const data: PasskeyAppendedData = { blockType: 'passkey-appended' };
  return withError({ block: 'passkey-appended', authType: ctx.state.authType, data, alternatives: [] }, extras);
}

export function passkeyVerifyBlock(ctx: RenderContext, extras: BlockExtras = {}): BlockBody {
  const { project, state } = ctx;
  const loginType = state.orig?.type ?? 'email';
  return withError(
    {
      block: 'passkey-verify',
      authType: 'login',
      data: { blockType: 'passkey-verify', challenge: extras.challenge ?? '', identifierValue: state.orig?.value ?? '' } satisfies PasskeyVerifyData,
      alternatives: loginVerifications(state, project, loginType).map((type) => verifyBlock(ctx, type)),
    },
    extras,
  );
}

export function collectBlock(ctx: RenderContext, block: 'username-collect' | 'phone-collect', extras: BlockExtras = {}): BlockBody {
  const data: CollectData = { blockType: block, value: extras.collectValue ?? '' };
  if (extras.dataError) data.error = extras.dataError;
  return withError({ block, authType: ctx.state.authType, data, alternatives: [] }, extras);
}

export function completedStub(authType: AuthType): BlockBody {
  const data: CompletedData = { blockType: 'completed', shortSession: '' };
  return { block: 'completed', authType, data, alternatives: [] };
}

export function completedBlock(
  authType: AuthType,
  sessions: { shortSession: string; longSession?: string },
  passkeyOperation: PasskeyOperation | null,
): BlockBody {
  return {
    block: 'completed',
    authType,
    data: {
      blockType: 'completed',
      shortSession: sessions.shortSession,
      sessionToken: sessions.shortSession,
      ...(sessions.longSession !== undefined ? { longSession: sessions.longSession, refreshToken: sessions.longSession } : {}),
      ...(passkeyOperation ? { passkeyOperation } : {}),
    } satisfies CompletedData,
    alternatives: [],
  };
}

export function alreadyCompletedBlock(authType: AuthType): BlockBody {
  return { ...completedStub(authType), continueOnOtherDevice: { reason: 'process-already-completed' } };
}

/** The block the process currently stands on (completed excluded: delivering it has side effects). */
export function currentBlock(ctx: RenderContext, extras: BlockExtras = {}): BlockBody {
  const { state } = ctx;
  switch (state.block) {
    case 'signup-init':
      return signupInitBlock(ctx, extras);
    case 'login-init':
      return loginInitBlock(ctx, extras);
    case 'email-verify':
    case 'post-signup-email-verify':
      return verifyBlock(ctx, 'email', extras);
    case 'phone-verify':
      return verifyBlock(ctx, 'phone', extras);
    case 'passkey-append':
      return passkeyAppendBlock(ctx, extras);
    case 'passkey-appended':
      return passkeyAppendedBlock(ctx, extras);
    case 'passkey-verify':
      return passkeyVerifyBlock(ctx, extras);
    case 'username-collect':
    case 'phone-collect':
      return collectBlock(ctx, state.block, extras);
    case 'completed':
      return withError(completedStub(state.authType), extras);
  }
}
