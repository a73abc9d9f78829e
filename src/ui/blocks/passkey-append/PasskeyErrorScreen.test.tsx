import { atom } from 'nanostores';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { CorbadoApp } from '../../../core/app';
import { noPasskeyAvailable, type CorbadoError } from '../../../core/errors';
import type { FlowBlock } from '../../../core/process/block';
import { AppContext } from '../../context';
import { renderInShadow } from '../../test/renderInShadow';
import { PasskeyErrorScreen } from './PasskeyErrorScreen';

const passkeyVerify: FlowBlock = { type: 'passkey-verify', authType: 'login', data: { identifierValue: 'ada@example.com' }, alternatives: [] };

describe('the passkey-error screen', () => {
  it('[spec 8.no-passkey-available] says that no passkey is available, and offers the fallback', () => {
    const useFallback = vi.fn(async () => undefined);
    const flow = {
      $block: atom(passkeyVerify),
      $busy: atom(false),
      $ceremonyError: atom<CorbadoError | undefined>(noPasskeyAvailable()),
      fallbacks: () => [{ method: 'email-otp', identifierType: 'email' }],
      canSkip: () => false,
      useFallback,
    };
    const view = renderInShadow(
      <AppContext.Provider value={{ flow, options: {} } as unknown as CorbadoApp}>
        <PasskeyErrorScreen />
      </AppContext.Provider>,
    );
    expect(view.shadow.textContent).toContain('Passkey log-in did not work');
    expect(view.shadow.textContent).toContain('No passkey is available for this account on this device.');
    const fallback = view.$$('button').find((button) => button.textContent === 'Send email code instead')!;
    act(() => fallback.click());
    expect(useFallback).toHaveBeenCalledWith({ method: 'email-otp', identifierType: 'email' });
    view.unmount();
  });
});
