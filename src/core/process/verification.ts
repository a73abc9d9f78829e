// One-time codes and links (SPEC.md section 4): the code, a resend, and editing the identifier being
// verified.
import type { IdentifierType, RequestError, VerificationMethod } from '../api/types';
import { applyAnswer } from './applyAnswer';
import { verificationMethodOf } from './block';
import { startPolling } from './emailLinkPolling';
import type { FlowContext } from './flowContext';
import { runAction } from './recovery';
import { initialScreen } from './screens';

function verificationOf(ctx: FlowContext): { identifierType: IdentifierType; method: VerificationMethod } {
  const block = ctx.$block.get();
  const method = (block && verificationMethodOf(block)) ?? (block?.type === 'phone-verify' ? 'phone-otp' : 'email-otp');
  return { identifierType: method === 'phone-otp' ? 'phone' : 'email', method };
}

export function submitCode(ctx: FlowContext, code: string): Promise<void> {
  return runAction(ctx, async () => {
    const { identifierType, method } = verificationOf(ctx);
    applyAnswer(ctx, await ctx.api.verifyFinish(identifierType, method, code, false));
  });
}

/** Resend restarts the code or link verification; in link mode the polling restarts too. */
export function resend(ctx: FlowContext): Promise<void> {
  return runAction(ctx, async () => {
    const { identifierType, method } = verificationOf(ctx);
    applyAnswer(ctx, await ctx.api.verifyStart(identifierType, method), { keepScreen: true });
    if (ctx.$screen.get() === 'email-link-sent') startPolling(ctx);
  });
}

/**
 * Edits the identifier being verified (or, on passkey-append, the one the passkey is for). An
 * unchanged value returns without a call; during log-in, editing aborts the process instead.
 * Answers the server's field error, if any, for the edit screen to show.
 */
export async function updateIdentifier(ctx: FlowContext, identifierType: IdentifierType, value: string): Promise<RequestError | undefined> {
  const block = ctx.$block.get();
  if (!block) return undefined;
  const back = block.type === 'passkey-append' ? 'passkey-append' : initialScreen(block.type, verificationMethodOf(block));
  const current = block.type === 'passkey-append' ? block.data.identifierValue : block.data.identifier;
  if (value === current) {
    ctx.$screen.set(back);
    return undefined;
  }
  let fieldError: RequestError | undefined;
  await runAction(ctx, async () => {
    const response = await ctx.api.identifierUpdate(identifierType, value);
    if (response.blockBody.error) {
      fieldError = response.blockBody.error;
      return;
    }
    if (block.type === 'passkey-append') {
      applyAnswer(ctx, response, { keepScreen: true });
    } else {
      const { method } = verificationOf(ctx);
      applyAnswer(ctx, await ctx.api.verifyStart(identifierType, method), { keepScreen: true });
    }
    ctx.$screen.set(back);
  });
  return fieldError;
}

/** The email-link-success screen's continue: the block the process advanced to. */
export function continueAfterLink(ctx: FlowContext): void {
  const block = ctx.$block.get();
  if (block) ctx.$screen.set(initialScreen(block.type, verificationMethodOf(block)));
}
