// Running one user intent at a time, and getting back to a usable process when one fails (SPEC.md
// section 4, "Errors in the flow"): the process is loaded again, or a new one started when the server
// no longer knows it, and the error is attached to the block that results. As in Corbado's web-js 3.5,
// an error lives on its block: it is shown with it (the popup, or on the screen) and leaves with it,
// whatever moves the flow on (an answer, the e-mail link's poll, the address bar).
import { RequestCancelled } from '../api/client';
import type { BlockType, ProcessResponse } from '../api/types';
import { CorbadoError, unhandledFrontendError } from '../errors';
import { readItem, storageKeys, writeItem } from '../storage';
import { clientInformationNow } from '../webauthn/webauthn';
import { isInitialBlock } from './block';
import { adopt, applyAnswer } from './applyAnswer';
import { INIT_BLOCKS, type FlowContext } from './flowContext';
import { warmResumeUrl } from './preflightWarmUp';

/** One user intent at a time; it clears the error shown, unless it is not the visitor's (`keepError`). */
export async function runAction(ctx: FlowContext, action: () => Promise<void>, keepError = false): Promise<void> {
  if (ctx.$busy.get()) return;
  ctx.$busy.set(true);
  if (!keepError) clearErrors(ctx);
  try {
    // the browser's answers for the process shown, and the replacement they call for, come first
    for (let wait = ctx.checking ?? ctx.replacing; wait; wait = ctx.checking ?? ctx.replacing) await wait;
    await action();
  } catch (error) {
    await recover(ctx, error);
  } finally {
    ctx.$busy.set(false);
  }
}

/** An intent that is one call: its answer is shown. */
export function runCall(ctx: FlowContext, call: () => Promise<ProcessResponse>): Promise<void> {
  return runAction(ctx, async () => applyAnswer(ctx, await call()));
}

/** Starts a new process. `stayOn` names, when the answer arrives, the init block the visitor is to stay on. */
export async function initProcess(ctx: FlowContext, preferredBlock: string | undefined, stayOn?: () => BlockType | undefined): Promise<void> {
  ctx.api.processId = undefined;
  ctx.api.processBaseUrl = undefined;
  const shown = Number(readItem(storageKeys.passkeyAppendShown));
  // sent with what is known now: the browser's capability answers would hold the request back
  const [clientInformation, agreed] = clientInformationNow(readItem(storageKeys.clientHandle));
  const pending = ctx.api.processInit({
    clientInformation,
    passkeyAppendShown: Number.isFinite(shown) && shown > 0 ? shown : undefined,
    preferredBlock,
  });
  ctx.markRequested();
  const response = await pending;
  if (response.newClientEnvHandle) writeItem(storageKeys.clientHandle, response.newClientEnvHandle);
  adopt(ctx, response.token, response.expiresAt, response.processResponse.common.frontendApiUrl);
  applyAnswer(ctx, response.processResponse, { stayOn: stayOn?.() });
  ctx.$initState.set(2);
  warmResumeUrl(ctx);
  const started = ctx.api.processId;
  // a guess the browser contradicts: the process is replaced by one that knows, while it is still the one
  // shown and on its initial block. No action of the visitor's has run on it: actions wait for this check
  // (runAction), since a visitor quicker than the browser's answers would otherwise act on the guess, and
  // a device that can do passkeys would not be offered one (and a replacement could overtake an action's
  // answer). A replacement in flight ends first: this process may be that replacement, sent with the same
  // guess.
  const check: Promise<void> = agreed
    .then(async (same) => {
      if (same) return;
      while (ctx.replacing) await ctx.replacing;
      const block = ctx.$block.get();
      if (!ctx.disposed && ctx.api.processId === started && block && isInitialBlock(block)) ctx.replacing = replaceInitial(ctx);
    })
    .finally(() => {
      if (ctx.checking === check) ctx.checking = undefined;
    });
  ctx.checking = check;
}

/**
 * An initial process (nothing entered yet) is replaced by a fresh one. The one shown stays so the
 * visitor can go on typing; actions wait for the replacement.
 */
export async function replaceInitial(ctx: FlowContext): Promise<void> {
  try {
    // what is shown when the replacement arrives, which a sign-up view may have switched meanwhile
    await initProcess(ctx, undefined, () => ctx.$block.get()?.type);
  } catch {
    // the process shown stays usable
  } finally {
    ctx.replacing = undefined;
  }
}

async function recover(ctx: FlowContext, error: unknown): Promise<void> {
  if (error instanceof RequestCancelled) return;
  const failure = error instanceof CorbadoError ? error : unhandledFrontendError(error);
  // a frontend error leaves the process as it is, and so does a rate limit: the server changed nothing
  if (failure.kind !== 'unhandledFrontendError' && failure.kind !== 'tooManyRequests') await reload(ctx, failure);
  const block = ctx.$block.get();
  // without a block to carry it (the component-unavailable page), it is the view's error
  if (block && ctx.$initState.get() !== 1) ctx.$block.set({ ...block, failure });
  else ctx.$error.set(failure);
}

function clearErrors(ctx: FlowContext): void {
  ctx.$error.set(undefined);
  const block = ctx.$block.get();
  if (block?.failure) ctx.$block.set({ ...block, failure: undefined });
}

/**
 * Loads the process again after a failed call, or starts a new one when the server no longer knows
 * it. While the server cannot be reached (down, too slow, offline), the visitor stays on the screen
 * they were on with what they typed, and tries again.
 */
async function reload(ctx: FlowContext, failure: CorbadoError): Promise<void> {
  const shown = ctx.$block.get();
  const stayOn = shown && INIT_BLOCKS.includes(shown.type) ? shown.type : undefined;
  let lost = failure.kind === 'processNotFound';
  try {
    if (!lost) return applyAnswer(ctx, await ctx.api.getProcess(), { stayOn });
  } catch (error) {
    lost = error instanceof CorbadoError && error.kind === 'processNotFound';
  }
  try {
    if (lost) return await initProcess(ctx, undefined, () => stayOn);
  } catch {
    // unreachable as well: handled below
  }
  // only a flow with nothing left to show falls back to the component-unavailable page
  if (!shown || shown.type === 'completed') ctx.$initState.set(1);
}

/** Closes the error popup, and the error a sign-up or log-in block carries with it. */
export function dismissError(ctx: FlowContext): void {
  clearErrors(ctx);
  const block = ctx.$block.get();
  if (!block) return;
  const { error: dataError, ...data } = block.data;
  const isInit = block.type === 'signup-init' || block.type === 'login-init';
  if (block.error || (isInit && dataError)) ctx.$block.set({ ...block, error: undefined, data: isInit ? data : block.data });
}
