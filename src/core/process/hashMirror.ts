// The address bar names the current block (SPEC.md section 2, "Routes") while a view keeps the
// history attached (history.ts): the first block replaces the entry, each next one pushes a new one.
import type { BlockType } from '../api/types';
import type { FlowContext } from './flowContext';
import { blockFromHash, hashForBlock, pushesHistory } from './routes';

export function mirrorHash(ctx: FlowContext, type: BlockType, first: boolean): void {
  if (!ctx.historyAttached || !pushesHistory(type)) return;
  const hash = hashForBlock(type);
  const window = ctx.window;
  if (blockFromHash(window.location.hash) === type) return;
  const url = window.location.pathname + window.location.search + hash;
  if (first) window.history.replaceState(window.history.state, '', url);
  else window.history.pushState(null, '', url);
}
