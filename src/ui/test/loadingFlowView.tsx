import { atom } from 'nanostores';
import { act } from 'react';
import type { CorbadoApp } from '../../core/app';
import type { FlowBlock } from '../../core/process/block';
import type { InitState } from '../../core/process/flowContext';
import type { ScreenName } from '../../core/process/screens';
import { AppContext } from '../context';
import { FlowView } from '../views/FlowView';
import { renderInShadow } from './renderInShadow';

/** The auth view on a fake flow that starts as the real one does: loading, no block yet; `initialised` shows `block`. */
export function loadingFlowView(block: FlowBlock, screen: ScreenName) {
  const flow = {
    $initState: atom<InitState>(0),
    $block: atom<FlowBlock | undefined>(undefined),
    $screen: atom<ScreenName>(screen),
    $hideBadge: atom(false),
    $busy: atom(false),
    $error: atom(undefined),
    $linkVerifiedHere: atom(false),
    start: async () => undefined,
    attachHistory: () => () => undefined,
    continueAfterLink: () => undefined,
  };
  const view = renderInShadow(
    <AppContext.Provider value={{ flow, options: {} } as unknown as CorbadoApp}>
      <FlowView mode="auth" />
    </AppContext.Provider>,
  );
  const initialised = () =>
    act(() => {
      flow.$block.set(block);
      flow.$initState.set(2);
    });
  return { view, initialised };
}
