// Sign-up and log-in: the two init blocks, switching between them locally through their alternatives,
// and the fields a sign-up may still be missing (username-collect, phone-collect).
import type { BlockType, IdentifierType, SignupFieldAnswer } from '../api/types';
import { webAuthnSupported } from '../webauthn/webauthn';
import { applyAnswer, applyProcess, setBlock } from './applyAnswer';
import { parseBlock, switchTo } from './block';
import type { FlowContext } from './flowContext';
import { isVerification, type LoginMethod } from './lastUser';
import { fallbacks } from './passkeys';
import { runAction, runCall } from './recovery';
import { start } from './startUp';

export function submitSignup(
  ctx: FlowContext,
  fields: { fullName?: string; email?: string; phone?: string; username?: string },
  signupFields?: SignupFieldAnswer[],
): Promise<void> {
  return runAction(ctx, async () => {
    const identifiers: { type: IdentifierType; identifier: string }[] = [];
    if (fields.email) identifiers.push({ type: 'email', identifier: fields.email });
    if (fields.phone) identifiers.push({ type: 'phone', identifier: fields.phone });
    if (fields.username) identifiers.push({ type: 'username', identifier: fields.username });
    applyAnswer(ctx, await ctx.api.signupInit(identifiers, fields.fullName || undefined, signupFields));
  });
}

/**
 * The log-in after the identifier. For an account with a passkey the server answers passkey-verify;
 * in a browser without WebAuthn, where no passkey can be used, the visitor goes on to the block's
 * first fallback (a code or link) at once, never shown a passkey screen that can only fail. A `method`
 * other than the passkey (welcome back: the way used last) goes on to that fallback the same way.
 */
export function submitLogin(ctx: FlowContext, identifierValue: string, isPhone: boolean, method?: LoginMethod): Promise<void> {
  return runAction(ctx, async () => {
    const response = await ctx.api.loginInit(identifierValue, isPhone);
    const block =
      response.blockBody.block === 'passkey-verify' && (!webAuthnSupported() || isVerification(method)) ? parseBlock(response.blockBody) : undefined;
    const options = block && !block.error ? fallbacks(block) : [];
    const fallback = options.find((option) => option.method === method) ?? options[0];
    if (!fallback) return applyAnswer(ctx, response);
    applyProcess(ctx, response);
    applyAnswer(ctx, await ctx.api.verifyStart(fallback.identifierType, fallback.method));
  });
}

export function collectUsername(ctx: FlowContext, username: string): Promise<void> {
  return runCall(ctx, () => ctx.api.usernameCollect(username));
}

export function collectPhone(ctx: FlowContext, phone: string): Promise<void> {
  return runCall(ctx, () => ctx.api.phoneCollect(phone));
}

/** Shows the alternative of the given type without a server call; false when the block has none. */
export function switchLocally(ctx: FlowContext, type: BlockType): boolean {
  const block = ctx.$block.get();
  if (!block || block.type === type) return !!block;
  const next = switchTo(block, type);
  if (!next) return false;
  setBlock(ctx, next);
  return true;
}

/** Sign-up <-> log-in through the block's alternatives, without a server call. */
export function switchToAlternative(ctx: FlowContext, type: BlockType): void {
  ctx.$error.set(undefined);
  switchLocally(ctx, type);
}

/** A view that prefers the sign-up or log-in screen switches to it locally once the process is there. */
export async function prefer(ctx: FlowContext, type: 'signup-init' | 'login-init'): Promise<void> {
  await start(ctx);
  const block = ctx.$block.get();
  if (block && block.type !== type && (block.type === 'signup-init' || block.type === 'login-init')) {
    switchLocally(ctx, type);
  }
}
