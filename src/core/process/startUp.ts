// Start-up (SPEC.md section 4): an e-mail link's process, else a valid stored process, else a new one;
// the block the address names is preferred. A stored process on which nothing was entered yet is shown
// at once and replaced in the background.
import { RequestCancelled } from '../api/client';
import { unhandledFrontendError } from '../errors';
import { isProcessValid, readStoredProcess } from '../storage';
import { applyAnswer } from './applyAnswer';
import { isInitialBlock } from './block';
import { readEmailLink } from './emailLink';
import { startFromEmailLink } from './emailLinkStart';
import { INIT_BLOCKS, type FlowContext } from './flowContext';
import { warmResumeUrl } from './preflightWarmUp';
import { initProcess, replaceInitial, runAction } from './recovery';
import { blockFromHash } from './routes';

/** Starts the process once; later calls share the same start. */
export function start(ctx: FlowContext): Promise<void> {
  ctx.start ??= startUp(ctx)
    .catch((error: unknown) => {
      ctx.$error.set(unhandledFrontendError(error));
      ctx.$initState.set(1);
    })
    .finally(ctx.markRequested);
  return ctx.start;
}

/** Starts over after a failed start (the component-unavailable page's reload button). */
export function retry(ctx: FlowContext): Promise<void> {
  ctx.start = undefined;
  ctx.$initState.set(0);
  ctx.$error.set(undefined);
  return start(ctx);
}

/** After a logout, a view that is still mounted starts again from a fresh process. */
export async function restartIfCompleted(ctx: FlowContext): Promise<void> {
  if (ctx.$block.get()?.type !== 'completed') return;
  await runAction(ctx, () => initProcess(ctx, undefined));
}

async function startUp(ctx: FlowContext): Promise<void> {
  const link = readEmailLink(ctx.window.location.search);
  if (link) return startFromEmailLink(ctx, link);

  const preferred = blockFromHash(ctx.window.location.hash);
  const stored = readStoredProcess(ctx.projectId);
  if (isProcessValid(stored)) {
    ctx.api.processId = stored.id;
    ctx.api.processBaseUrl = stored.frontendApiUrl || undefined;
    try {
      // The block the address names: sign-up and log-in are each other's alternatives, so the one
      // named is shown by switching to it here, as the page's own link does; any other block is asked
      // for, unless the server is on it already. Most resumes thus go through the one URL whose CORS
      // preflight the browser has kept (preflightWarmUp.ts).
      const local = INIT_BLOCKS.find((type) => type === preferred);
      const pending = ctx.api.getProcess(local || preferred === stored.block ? undefined : preferred);
      ctx.markRequested();
      const response = await pending;
      applyAnswer(ctx, response, { stayOn: local });
      const block = ctx.$block.get();
      if (block && isInitialBlock(block)) ctx.replacing = replaceInitial(ctx);
      ctx.$initState.set(2);
      // resumed with ?preferredBlock=: the plain URL a next visit resumes with is still to be asked once
      warmResumeUrl(ctx);
      return;
    } catch (error) {
      if (error instanceof RequestCancelled) return;
      // a stored process that cannot be loaded is replaced, without a preferred block
      return initProcess(ctx, undefined);
    }
  }
  return initProcess(ctx, preferred);
}
