import { atom } from 'nanostores';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { CorbadoApp } from '../../../core/app';
import type { FlowBlock } from '../../../core/process/block';
import { AppContext } from '../../context';
import { renderInShadow } from '../../test/renderInShadow';
import { PasskeyBackgroundScreen } from './PasskeyBackgroundScreen';

describe('PasskeyBackgroundScreen', () => {
  it('[spec 4.passkey-verify-benefits] starts the passkey log-in once by itself and opens the benefits screen from its link', () => {
    const block: FlowBlock = { type: 'passkey-verify', authType: 'login', data: { identifierValue: 'ada@example.com' }, alternatives: [] };
    const flow = {
      $block: atom<FlowBlock | undefined>(block),
      $busy: atom(false),
      loginWithPasskey: vi.fn(async () => undefined),
      fallbacks: () => [],
      setScreen: vi.fn(),
    };
    const view = renderInShadow(
      <AppContext.Provider value={{ flow } as unknown as CorbadoApp}>
        <PasskeyBackgroundScreen />
      </AppContext.Provider>,
    );
    expect(flow.loginWithPasskey).toHaveBeenCalledExactlyOnceWith({ automatic: true });
    const learnMore = view.$$<HTMLButtonElement>('button.cb-link').find((b) => /passkey/i.test(b.textContent ?? ''));
    act(() => learnMore!.click());
    expect(flow.setScreen).toHaveBeenCalledExactlyOnceWith('passkey-benefits');
    view.unmount();
  });
});
