// The process itself: start, read, switch between the init blocks, reset, and the two ways on from a
// passkey step that every flow shares ("Maybe later" / continue).
import type { ProcessInitRequest } from '../../src/core/api/types.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import { newId, newSecretToken, sha256Hex } from '../randomValues.ts';
import type { ProcessRecord } from '../store/ProcessesRepo.ts';
import type { ProcessResponse } from './blockBodies.ts';
import { FlowContext, type FlowDeps, type FlowOutcome, type FlowRequest } from './FlowContext.ts';
import { passkeyAppendSkippable, pendingVerifications } from './nextStep.ts';
import { initialState, isInitBlock, type AuthType, type ProcessState } from './processState.ts';
import { advance, respond } from './transitions.ts';

/** What process/init reads of its body. */
export type ProcessInitBody = Pick<ProcessInitRequest, 'clientInformation' | 'preferredBlock' | 'optOutOfPasskeyAppendAfterHybrid'>;

/** "Verify later" on post-signup-email-verify: the account keeps the address pending. */
async function deferPostSignupVerification(ctx: FlowContext): Promise<FlowOutcome> {
  ctx.state.postSignupDeferred = true;
  return respond(ctx, await advance(ctx));
}

export async function initProcess(
  deps: FlowDeps,
  request: Omit<FlowRequest, 'processToken'>,
  body: ProcessInitBody,
): Promise<{ token: string; expiresAt: number; response: ProcessResponse }> {
  const { project } = request;
  const authType: AuthType = body.preferredBlock === 'signup-init' && project.publicSignup ? 'signup' : 'login';
  const client = {
    platformAuthenticator: body.clientInformation.isUserVerifyingPlatformAuthenticatorAvailable === true,
    conditionalMediation: body.clientInformation.isConditionalMediationAvailable === true,
    optOutAfterHybrid: body.optOutOfPasskeyAppendAfterHybrid === true,
  };
  const { token, record } = await createProcess(deps, project, initialState(authType, client), request.browserCookie);
  const ctx = new FlowContext(deps, { ...request, processToken: token }, record);
  return { token, expiresAt: Math.floor(record.expiresAt / 1000), response: (await respond(ctx)).response };
}

/** The current block; on an init block, `preferredBlock` switches between sign-up and log-in. */
export async function getProcess(ctx: FlowContext, preferredBlock: string | undefined): Promise<FlowOutcome> {
  const s = ctx.state;
  if (isInitBlock(s.block)) {
    const wanted: AuthType | undefined =
      preferredBlock === 'signup-init' && ctx.project.publicSignup ? 'signup' : preferredBlock === 'login-init' ? 'login' : undefined;
    if (wanted) {
      s.authType = wanted;
      s.block = wanted === 'signup' ? 'signup-init' : 'login-init';
      await ctx.save();
    }
  }
  return respond(ctx);
}

/** Ends the process and answers the fresh init block of the same authType with `newProcess`. */
export async function resetProcess(ctx: FlowContext): Promise<FlowOutcome> {
  const old = ctx.state;
  await ctx.store.processes.end(ctx.process.id, ctx.now());
  const authType: AuthType = old.authType === 'signup' && ctx.project.publicSignup ? 'signup' : 'login';
  const { token, record } = await createProcess(ctx.deps, ctx.project, initialState(authType, old.client), ctx.request.browserCookie);
  const outcome = await respond(new FlowContext(ctx.deps, { ...ctx.request, processToken: token }, record));
  outcome.response.newProcess = { token, expiresAt: Math.floor(record.expiresAt / 1000) };
  return outcome;
}

/** "Maybe later" on passkey-append, or continuing from passkey-appended; delivers a pending completion. */
export async function completeProcess(ctx: FlowContext): Promise<FlowOutcome> {
  const s = ctx.state;
  if (s.block === 'completed') return respond(ctx);
  if (s.block === 'passkey-appended') {
    s.passkeyAcknowledged = true;
    return respond(ctx, await advance(ctx));
  }
  if (s.block === 'post-signup-email-verify') return deferPostSignupVerification(ctx);
  if (s.block === 'passkey-append') {
    const hasFallback = s.authType === 'signup' && pendingVerifications(s, ctx.project).length > 0;
    if (passkeyAppendSkippable(s, ctx.project) || hasFallback) {
      s.passkey = 'declined';
      return respond(ctx, await advance(ctx));
    }
    return respond(ctx, { error: ctx.error('no_fallback_available') });
  }
  return respond(ctx, { error: ctx.error('unexpected_step') });
}

export async function skipBlock(ctx: FlowContext): Promise<FlowOutcome> {
  const s = ctx.state;
  if (s.block === 'passkey-appended') {
    s.passkeyAcknowledged = true;
    return respond(ctx, await advance(ctx));
  }
  if (s.block === 'passkey-append' && passkeyAppendSkippable(s, ctx.project)) {
    s.passkey = 'declined';
    await ctx.audit({ event: 'passkey.skipped' });
    return respond(ctx, await advance(ctx));
  }
  if (s.block === 'post-signup-email-verify') return deferPostSignupVerification(ctx);
  return respond(ctx, { error: ctx.error('unexpected_step') });
}

/**
 * Stores a new process; answers its token (given to the browser, only its hash stored) and record.
 * `browserCookie`: the requesting browser's cookie, which an e-mail link of the process opened in it shows.
 */
export async function createProcess(
  deps: FlowDeps,
  project: ProjectConfig,
  state: ProcessState,
  browserCookie: string | undefined,
): Promise<{ token: string; record: ProcessRecord }> {
  if (browserCookie) state.browser = sha256Hex(browserCookie);
  const token = newSecretToken();
  const now = deps.now();
  const record: ProcessRecord = {
    id: newId('pro'),
    projectId: project.id,
    state,
    createdAt: now,
    expiresAt: now + project.processLifetimeSeconds * 1000,
    endedAt: null,
  };
  await deps.store.processes.insert({ ...record, tokenHash: sha256Hex(token) });
  return { token, record };
}
