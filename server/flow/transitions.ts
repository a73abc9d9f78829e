// Moving a process on and answering with its block: shared by every flow module.
import { randomBytes } from 'node:crypto';
import { alreadyCompletedBlock, currentBlock, type BlockExtras } from './blockBodies.ts';
import { confirmLogin, createUser, deliverCompleted } from './completion.ts';
import type { FlowContext, FlowOutcome } from './FlowContext.ts';
import { nextLoginStep, nextSignupStep, type Step } from './nextStep.ts';
import { isInitBlock } from './processState.ts';
import { sendVerification } from './sendVerification.ts';

/** Once the completed block has been delivered, every call answers "continue where it completed". */
export function alreadyCompleted(ctx: FlowContext): FlowOutcome {
  return { response: ctx.wrap(alreadyCompletedBlock(ctx.state.authType)) };
}

/** Answers the current block; a completed process is delivered once, with its sessions. */
export async function respond(ctx: FlowContext, extras: BlockExtras = {}): Promise<FlowOutcome> {
  const s = ctx.state;
  if (s.deliveredAt !== null) return alreadyCompleted(ctx);
  if (s.block === 'completed') return deliverCompleted(ctx);
  const onInit = isInitBlock(s.block);
  if (onInit && ctx.project.passkeys && s.client.conditionalMediation && !s.conditionalChallenge) {
    s.conditionalChallenge = randomBytes(32).toString('base64url');
    await ctx.save();
  }
  const failedSocial = onInit && s.social?.status === 'failed' ? s.social : undefined;
  if (failedSocial) extras = { ...ctx.socialError(failedSocial.errorCode ?? 'social_login_failed'), ...extras };
  const response = ctx.wrap(currentBlock(ctx.render(), extras));
  if (failedSocial) {
    // shown once; a reload afterwards starts from a fresh (initial) process
    s.social = null;
    await ctx.save();
  }
  return { response };
}

/** Moves to the next block the configuration asks for. */
export async function advance(ctx: FlowContext): Promise<BlockExtras> {
  const s = ctx.state;
  const step =
    s.authType === 'signup'
      ? nextSignupStep(s, ctx.project)
      : nextLoginStep(s, ctx.project, s.userId ? (await ctx.store.credentials.listByUser(s.userId)).length > 0 : false);
  return enter(ctx, step);
}

/**
 * Enters a block: verify blocks send their code or link now; post-signup-email-verify creates the user
 * first; completed creates the user (sign-up) or confirms what the process verified.
 */
export async function enter(ctx: FlowContext, step: Step): Promise<BlockExtras> {
  const s = ctx.state;
  let extras: BlockExtras = {};
  if (step.block === 'email-verify' || step.block === 'phone-verify') {
    await sendVerification(ctx, step.type);
    s.block = step.block;
  } else if (step.block === 'post-signup-email-verify') {
    const conflict = s.userId ? undefined : await createUser(ctx);
    if (conflict) extras = conflict;
    else {
      await sendVerification(ctx, 'email');
      s.block = step.block;
    }
  } else if (step.block === 'completed') {
    const conflict = s.authType === 'signup' && !s.userId ? await createUser(ctx) : await confirmLogin(ctx);
    if (conflict) extras = conflict;
    else s.block = 'completed';
  } else {
    if (step.block === 'passkey-append' && s.block !== 'passkey-append') await ctx.audit({ event: 'passkey.offered' });
    s.block = step.block;
  }
  await ctx.save();
  return extras;
}
