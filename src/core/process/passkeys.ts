// Passkeys: appending one (passkey-append), logging in with one (passkey-verify), and the ways on
// without one ("Maybe later", continue, the fallback buttons).
import type { BlockType, IdentifierType, ProcessResponse, VerificationMethod } from '../api/types';
import { CorbadoError, noPasskeyAvailable, passkeyChallengeCancelled } from '../errors';
import { readItem, storageKeys } from '../storage';
import { clientInformation, createPasskey, getPasskey } from '../webauthn/webauthn';
import { applyAnswer } from './applyAnswer';
import { verificationMethodOf, type FlowBlock } from './block';
import { stopConditionalUi } from './conditionalUi';
import type { FlowContext } from './flowContext';
import { runAction, runCall } from './recovery';

export interface Fallback {
  method: VerificationMethod;
  identifierType: IdentifierType;
}

/** Fallback buttons: only the verification methods the block's alternatives offer. */
export function fallbacks(block: FlowBlock | undefined): Fallback[] {
  if (!block) return [];
  return block.alternatives.flatMap((alternative): Fallback[] => {
    if (alternative.type === 'email-verify') {
      return [{ method: verificationMethodOf(alternative) ?? 'email-otp', identifierType: 'email' }];
    }
    if (alternative.type === 'phone-verify') return [{ method: 'phone-otp', identifierType: 'phone' }];
    return [];
  });
}

/** Passkey append can be skipped (SPEC's canBeSkipped) when a completed alternative exists, as web-js 3.5 derives it. */
export function canSkip(block: FlowBlock | undefined): boolean {
  return !!block?.alternatives.some((a) => a.type === 'completed');
}

export function appendPasskey(ctx: FlowContext): Promise<void> {
  return runAction(ctx, async () => {
    const options = await fetchChallenge(ctx, 'passkey-append', async () =>
      ctx.api.passkeyAppendStart(await clientInformation(readItem(storageKeys.clientHandle))),
    );
    if (options === undefined) return;
    let signed: string;
    try {
      signed = await createPasskey(options);
    } catch (error) {
      // the device holds a passkey of this account already (InvalidStateError): the screen stays and
      // the passkey-already-exists dialog says so (SPEC.md sections 2 and 8); its confirm completes
      if (error instanceof CorbadoError && error.kind === 'passkeyAlreadyExists') {
        void sendEvent(ctx, 'append-credential-exists', options);
        return ctx.$ceremonyError.set(error);
      }
      return showCeremonyError(ctx, error, 'append-error', options);
    }
    applyAnswer(ctx, await ctx.api.passkeyAppendFinish(signed));
  });
}

/**
 * The passkey log-in of passkey-verify. Started by the screen itself (`automatic`), it leaves an error
 * that led there on display: the visitor has not acted yet.
 */
export function loginWithPasskey(ctx: FlowContext, options: { automatic?: boolean } = {}): Promise<void> {
  return runAction(ctx, async () => {
    const options = await fetchChallenge(ctx, 'passkey-verify', () => ctx.api.passkeyLoginStart());
    if (options === undefined) return;
    let signed: string;
    try {
      // the autofill's request must have ended first, however this screen was reached
      stopConditionalUi(ctx);
      await ctx.conditionalSettled;
      if (listsNoPasskey(options)) throw noPasskeyAvailable();
      signed = await getPasskey(options);
    } catch (error) {
      return showCeremonyError(ctx, error, 'login-error', options);
    }
    applyAnswer(ctx, await ctx.api.passkeyLoginFinish(signed));
  }, options.automatic);
}

/**
 * The confirm of the passkey-already-exists dialog: the process completes with the passkey the device
 * has, as web-js 3.5 completes it on that answer (without a dialog).
 */
export function confirmPasskeyExists(ctx: FlowContext): Promise<void> {
  return runAction(ctx, async () => {
    ctx.$ceremonyError.set(undefined);
    applyAnswer(ctx, await ctx.api.completeProcess());
  });
}

/** "Maybe later" on passkey-append: the process completes without a passkey. */
export function skipPasskey(ctx: FlowContext): Promise<void> {
  return runAction(ctx, async () => {
    void sendEvent(ctx, 'append-explicit-abort');
    applyAnswer(ctx, await ctx.api.completeProcess());
  });
}

/** Continue on passkey-appended (and any other skippable step): on to the next block. */
export function skipBlock(ctx: FlowContext): Promise<void> {
  return runCall(ctx, () => ctx.api.skipBlock());
}

/** A fallback button: verify the identifier with a one-time code or link instead of a passkey. */
export function useFallback(ctx: FlowContext, fallback: Fallback): Promise<void> {
  return runAction(ctx, async () => {
    const block = ctx.$block.get();
    void sendEvent(ctx, block?.type === 'passkey-verify' ? 'login-explicit-abort' : 'append-explicit-abort');
    applyAnswer(ctx, await ctx.api.verifyStart(fallback.identifierType, fallback.method));
  });
}

/**
 * The challenge a ceremony starts with, after the last ceremony's error is cleared. Undefined when the
 * server answered an error or another block instead, which is then shown.
 */
async function fetchChallenge(ctx: FlowContext, block: BlockType, start: () => Promise<ProcessResponse>): Promise<string | undefined> {
  ctx.$ceremonyError.set(undefined);
  const response = await start();
  if (response.blockBody.error || response.blockBody.block !== block) {
    applyAnswer(ctx, response, { keepScreen: true });
    return undefined;
  }
  return String(response.blockBody.data.challenge ?? '');
}

/**
 * A log-in challenge of passkey-verify names the account's passkeys; an empty list means none is left
 * (removed since the log-in began), so the browser is not asked and "No passkey available" is shown
 * (SPEC.md section 8; web-js 3.5 raises it when a passkey log-in finds none).
 */
function listsNoPasskey(options: string): boolean {
  const allowed = (JSON.parse(options) as { publicKey?: { allowCredentials?: unknown } }).publicKey?.allowCredentials;
  return Array.isArray(allowed) && !allowed.length;
}

/** A failed ceremony: the passkey-error screen shows why, and the server hears of it. */
function showCeremonyError(ctx: FlowContext, error: unknown, eventType: string, challenge: string): void {
  void sendEvent(ctx, eventType, challenge);
  ctx.$ceremonyError.set(error instanceof CorbadoError ? error : passkeyChallengeCancelled());
  ctx.$screen.set('passkey-error');
}

async function sendEvent(ctx: FlowContext, eventType: string, challenge?: string): Promise<void> {
  try {
    await ctx.api.event(eventType, challenge);
  } catch {
    // events are fire-and-forget
  }
}
