// Conditional UI: while login-init is shown, the identifier field's autofill offers the visitor's
// passkeys; choosing one logs in without typing. A browser allows one ceremony at a time, so the
// passkey log-in waits for this one to have ended (passkeys.ts).
import { CorbadoError } from '../errors';
import { getPasskey } from '../webauthn/webauthn';
import type { FlowContext } from './flowContext';
import { runAction, runCall } from './recovery';

/**
 * Ceremony errors that are swallowed (SPEC.md section 4, login): ignorable ones, and the cancelled
 * request (NotAllowedError, AbortError) the browser answers when the autofill is dismissed or the
 * request is ended. Like web-js 3.5, which never starts the autofill without WebAuthn, "not supported"
 * is not shown either: the autofill then simply offers nothing.
 */
function swallowed(error: unknown): boolean {
  return error instanceof CorbadoError && (error.ignorable || error.kind === 'passkeyChallengeCancelled' || error.kind === 'passkeysNotSupported');
}

/**
 * Offers the passkeys of login-init's challenge in the autofill. A request for the same challenge that
 * still waits is kept (a re-render must not close an autofill the visitor may have open); a new
 * challenge ends the old request first. Any other failure is shown as every error in the flow is (the
 * process is loaded again and the error shown), as web-js 3.5 does.
 */
export async function startConditionalUi(ctx: FlowContext): Promise<void> {
  const block = ctx.$block.get();
  const challenge = block?.type === 'login-init' ? (block.data.conditionalUIChallenge as string | undefined) : undefined;
  if (!challenge || (ctx.conditional && ctx.conditionalChallenge === challenge)) return;
  ctx.conditional?.abort();
  const controller = (ctx.conditional = new AbortController());
  ctx.conditionalChallenge = challenge;
  let signed: string;
  try {
    const ceremony = getPasskey(challenge, true, controller.signal);
    ctx.conditionalSettled = ceremony.catch(() => undefined);
    signed = await ceremony;
  } catch (error) {
    if (controller.signal.aborted || swallowed(error)) return;
    return runAction(ctx, () => Promise.reject(error));
  } finally {
    // this request has ended: the same challenge may start it again
    if (ctx.conditional === controller) ctx.conditional = undefined;
  }
  if (controller.signal.aborted) return;
  await runCall(ctx, () => ctx.api.passkeyMediationFinish(signed));
}

export function stopConditionalUi(ctx: FlowContext): void {
  ctx.conditional?.abort();
  ctx.conditional = undefined;
}
