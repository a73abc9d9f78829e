// The tab an e-mail link opens (its two query parameters, SPEC.md section 2, "Routes"). The link names
// its process by id, not by its token: opened in the browser that asked for it (the process is in this
// browser's storage, sent as the process header), the server verifies it and the flow goes on as
// before. Anywhere else opening it changes nothing: the server says what the link would approve, shown
// on email-link-approval, and only the visitor's click answers it (server/flow/linkApproval.ts).
import type { ProcessResponse } from '../api/types';
import { emailLinkTokenMissing } from '../errors';
import { isProcessValid, readStoredProcess } from '../storage';
import { applyAnswer, applyProcess, setBlock } from './applyAnswer';
import { verificationMethodOf } from './block';
import { withoutEmailLinkParams, type EmailLinkEntry } from './emailLink';
import type { FlowContext } from './flowContext';
import { runAction } from './recovery';
import { initialScreen } from './screens';

export async function startFromEmailLink(ctx: FlowContext, link: EmailLinkEntry): Promise<void> {
  const stored = readStoredProcess(ctx.projectId);
  ctx.window.history.replaceState(ctx.window.history.state, '', withoutEmailLinkParams(ctx.window.location.href));
  // this browser's own process, if any: the proof that it is the one that asked
  ctx.api.processId = isProcessValid(stored) ? stored.id : undefined;
  ctx.api.processBaseUrl = link.process.frontendApiUrl || undefined;
  // straight to email-link-verification: never the link-sent screen (and its poll) in between
  setBlock(
    ctx,
    {
      type: 'email-verify',
      authType: link.authType,
      data: { ...link.blockData, verificationMethod: 'email-link' },
      alternatives: [],
    },
    true,
  );
  ctx.$screen.set('email-link-verification');
  ctx.$initState.set(2);
  if (!link.token) {
    ctx.$ceremonyError.set(emailLinkTokenMissing());
    return;
  }
  ctx.emailLink = { process: link.process.id, token: link.token };
  await runAction(ctx, async () => showLinkAnswer(ctx, await ctx.api.emailLink('open', link.process.id, link.token)));
}

/** A click on email-link-approval: "Yes, continue there", "No", or continue on this device instead. */
export function answerLink(ctx: FlowContext, answer: 'approve' | 'decline' | 'here'): Promise<void> {
  const link = ctx.emailLink!;
  return runAction(ctx, async () => showLinkAnswer(ctx, await ctx.api.emailLink(answer, link.process, link.token)));
}

/** What the server said of the link: what it would approve, or the block it led to (an error stays on email-link-verification). */
function showLinkAnswer(ctx: FlowContext, response: ProcessResponse): void {
  const request = response.linkRequest;
  if (request) {
    applyProcess(ctx, response);
    ctx.$linkRequest.set(request);
    return ctx.$screen.set('email-link-approval');
  }
  ctx.$screen.set('email-link-verification');
  applyAnswer(ctx, response, { keepScreen: true });
  const block = ctx.$block.get();
  if (!block || block.type === 'completed' || (block.type === 'email-verify' && block.data.error)) return;
  ctx.$screen.set(initialScreen(block.type, verificationMethodOf(block)));
}
