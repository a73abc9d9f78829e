import { atom } from 'nanostores';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { CorbadoApp } from '../../../core/app';
import type { FlowBlock } from '../../../core/process/block';
import { AppContext } from '../../context';
import { renderInShadow } from '../../test/renderInShadow';
import { ConfirmProcessAbortScreen } from './ConfirmProcessAbortScreen';

describe('the abort question of a sign-up', () => {
  it('[spec 4.abort-signup-asks] asks in the words of SPEC; completing first goes back to the step, starting over aborts', () => {
    const block: FlowBlock = { type: 'email-verify', authType: 'signup', data: { identifier: 'ada@example.com' }, alternatives: [] };
    const flow = { $block: atom<FlowBlock | undefined>(block), $busy: atom(false), cancelAbort: vi.fn(), abort: vi.fn(async () => undefined) };
    const view = renderInShadow(
      <AppContext.Provider value={{ flow } as unknown as CorbadoApp}>
        <ConfirmProcessAbortScreen />
      </AppContext.Provider>,
    );
    expect(view.shadow.textContent).toContain('Going back will restart the signup process and your current progress will be lost.');
    expect(view.shadow.textContent).toContain('Do you wish to complete the current signup first?');
    const button = (name: string) => view.$$<HTMLButtonElement>('button').find((b) => b.textContent === name)!;
    act(() => button('Yes, complete the signup').click());
    expect(flow.cancelAbort).toHaveBeenCalledOnce();
    expect(flow.abort).not.toHaveBeenCalled();
    act(() => button('No, start over').click());
    expect(flow.abort).toHaveBeenCalledOnce();
    view.unmount();
  });
});
