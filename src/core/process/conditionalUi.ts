// Conditional UI: while login-init is shown, the identifier field's autofill offers the visitor's
// passkeys; choosing one logs in without typing. A browser allows one ceremony at a time, so the
// passkey log-in waits for this one to have ended (passkeys.ts).
import { getPasskey } from '../webauthn/webauthn';
import type { FlowContext } from './flowContext';
import { runCall } from './recovery';

/** Cancelled and other ignorable ceremony errors are swallowed. */
export async function startConditionalUi(ctx: FlowContext): Promise<void> {
  const block = ctx.$block.get();
  const challenge = block?.type === 'login-init' ? (block.data.conditionalUIChallenge as string | undefined) : undefined;
  if (!challenge) return;
  ctx.conditional?.abort();
  const controller = (ctx.conditional = new AbortController());
  let signed: string;
  try {
    const ceremony = getPasskey(challenge, true, controller.signal);
    ctx.conditionalSettled = ceremony.catch(() => undefined);
    signed = await ceremony;
  } catch {
    return;
  }
  if (controller.signal.aborted) return;
  await runCall(ctx, () => ctx.api.passkeyMediationFinish(signed));
}

export function stopConditionalUi(ctx: FlowContext): void {
  ctx.conditional?.abort();
  ctx.conditional = undefined;
}
