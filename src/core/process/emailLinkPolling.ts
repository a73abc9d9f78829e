// While email-link-sent is shown, the verification status is polled every 2 s (SPEC.md section 4): the
// link may be opened in another tab, or approved on another device, and this tab moves on once it has
// been. Unlike SPEC's 120 polls (4 minutes), it polls for as long as the link is valid: the server says
// when the link has expired unused or the request was declined at the link, and this tab shows that
// on email-link-verification (with a new link to ask for, where one can be).
import type { CorbadoError } from '../errors';
import { applyAnswer } from './applyAnswer';
import type { FlowContext } from './flowContext';

export const EMAIL_POLL_INTERVAL_MS = 2000;

export function startPolling(ctx: FlowContext): void {
  stopPolling(ctx);
  const controller = (ctx.pollController = new AbortController());
  const poll = async () => {
    if (controller.signal.aborted) return;
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
      if (body.data?.error) {
        // the link expired unused, or the person at it declined
        applyAnswer(ctx, response, { keepScreen: true });
        return ctx.$screen.set('email-link-verification');
      }
    } catch (error) {
      // a failed poll is retried at the next tick, unless the process is gone (expired)
      if ((error as CorbadoError).status === 404) {
        ctx.$block.set({ ...ctx.$block.get()!, failure: error as CorbadoError });
        return ctx.$screen.set('email-link-verification');
      }
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
