// Back and forward (SPEC.md section 2, "Routes"): while a view keeps the history attached, the address
// bar follows the block (hashMirror.ts) and the browser's back and forward buttons move the flow. Going
// back out of a sign-up asks first, as the entered data would be lost; abort resets the process.
import type { BlockType } from '../api/types';
import { applyAnswer } from './applyAnswer';
import type { FlowContext } from './flowContext';
import { mirrorHash } from './hashMirror';
import { runAction } from './recovery';
import { blockFromHash } from './routes';
import { initialScreen } from './screens';
import { switchLocally } from './signupAndLogin';

/** Screens whose block change is not confirmed before aborting (nothing would be lost). */
const ABORT_EXEMPT: readonly BlockType[] = ['signup-init', 'login-init', 'completed', 'continue-on-other-env'];

/** Keeps the flow in step with the address bar; views that show the flow attach while mounted. */
export function attachHistory(ctx: FlowContext): () => void {
  if (ctx.historyAttached++ === 0) {
    ctx.window.addEventListener('popstate', popStateListener(ctx));
    const block = ctx.$block.get();
    if (block) mirrorHash(ctx, block.type, true);
  }
  return () => {
    if (--ctx.historyAttached === 0) ctx.window.removeEventListener('popstate', popStateListener(ctx));
  };
}

/** However many views attached, the history is let go (the flow is disposed of). */
export function detachHistory(ctx: FlowContext): void {
  ctx.window.removeEventListener('popstate', popStateListener(ctx));
  ctx.historyAttached = 0;
}

function popStateListener(ctx: FlowContext): () => void {
  return (ctx.onPopState ??= () => followAddress(ctx));
}

/** The visitor went back or forward to the block the address names. */
function followAddress(ctx: FlowContext): void {
  const block = ctx.$block.get();
  const target = blockFromHash(ctx.window.location.hash);
  if (!block || !target || target === block.type || ctx.$busy.get()) return;
  if (switchLocally(ctx, target as BlockType)) return;
  if (block.authType === 'login' || ABORT_EXEMPT.includes(block.type)) {
    void abort(ctx, target);
    return;
  }
  ctx.screenBeforeAbort = ctx.$screen.get();
  ctx.$screen.set('confirm-process-abort');
}

/** "Complete the sign-up first": back to where the visitor was, and the address with it. */
export function cancelAbort(ctx: FlowContext): void {
  ctx.$screen.set(ctx.screenBeforeAbort ?? initialScreen(ctx.$block.get()?.type ?? 'login-init'));
  ctx.screenBeforeAbort = undefined;
  const block = ctx.$block.get();
  if (block && blockFromHash(ctx.window.location.hash) !== block.type) ctx.window.history.forward();
}

/** Resets the process: entered data is lost; the new process may start on the block the address names. */
export function abort(ctx: FlowContext, target?: string): Promise<void> {
  ctx.screenBeforeAbort = undefined;
  return runAction(ctx, async () => {
    applyAnswer(ctx, await ctx.api.resetProcess());
    if (target) switchLocally(ctx, target as BlockType);
  });
}
