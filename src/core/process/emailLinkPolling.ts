// While email-link-sent is shown, the verification status is polled (SPEC.md section 4; every 2 s, at
// most 120 times, section 9): the link may be opened in another tab or on another device, and this tab
// moves on once it has been.
import { applyAnswer } from './applyAnswer';
import type { FlowContext } from './flowContext';

export const EMAIL_POLL_INTERVAL_MS = 2000;
export const EMAIL_POLL_MAX = 120;

export function startPolling(ctx: FlowContext): void {
  stopPolling(ctx);
  const controller = (ctx.pollController = new AbortController());
  let polls = 0;
  const poll = async () => {
    if (controller.signal.aborted || polls++ >= EMAIL_POLL_MAX) return;
    try {
      const response = await ctx.api.verifyStatus(controller.signal);
      if (controller.signal.aborted) return;
      const body = response.blockBody;
      if (body.continueOnOtherDevice) {
        // verified and finished in another tab of this browser
        ctx.$linkVerifiedHere.set(false);
        applyAnswer(ctx, response);
        return;
      }
      if (body.block !== 'email-verify' && body.block !== 'post-signup-email-verify') {
        ctx.$linkVerifiedHere.set(true);
        applyAnswer(ctx, response);
        if (ctx.$block.get()?.type !== 'completed') ctx.$screen.set('email-link-success');
        return;
      }
    } catch {
      // a failed poll is retried at the next tick
    }
    if (!controller.signal.aborted) ctx.pollTimer = setTimeout(poll, EMAIL_POLL_INTERVAL_MS);
  };
  ctx.pollTimer = setTimeout(poll, EMAIL_POLL_INTERVAL_MS);
}

export function stopPolling(ctx: FlowContext): void {
  clearTimeout(ctx.pollTimer);
  ctx.pollController?.abort();
  ctx.pollController = undefined;
}
