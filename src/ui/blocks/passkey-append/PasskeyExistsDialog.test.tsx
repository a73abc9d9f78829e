import { atom } from 'nanostores';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { CorbadoApp } from '../../../core/app';
import { passkeyAlreadyExists, passkeyChallengeCancelled, type CorbadoError } from '../../../core/errors';
import { AppContext } from '../../context';
import { renderInShadow } from '../../test/renderInShadow';
import { PasskeyExistsDialog } from './PasskeyExistsDialog';

describe("sign-up's passkey step, on a device that holds a passkey of the account", () => {
  it('[spec 8.passkey-already-exists] shows the dialog with its header, body and confirm button; the confirm goes on', () => {
    const confirmPasskeyExists = vi.fn(async () => undefined);
    const $ceremonyError = atom<CorbadoError | undefined>(passkeyChallengeCancelled());
    const view = renderInShadow(
      <AppContext.Provider value={{ flow: { $ceremonyError, confirmPasskeyExists }, options: {} } as unknown as CorbadoApp}>
        <PasskeyExistsDialog />
      </AppContext.Provider>,
    );
    // another failure is the passkey-error screen's, not this dialog's
    expect(view.$('dialog')).toBeNull();
    act(() => $ceremonyError.set(passkeyAlreadyExists()));
    const dialog = view.$('dialog')!;
    expect(dialog.querySelector('h2, h3')?.textContent).toBe('Passkey already exists');
    expect(dialog.querySelector('p')?.textContent).toBe('There is already a passkey for this account on this device.');
    const buttons = [...dialog.querySelectorAll('button')];
    expect(buttons.map((button) => button.textContent)).toEqual(['OK']);
    act(() => buttons[0]!.click());
    expect(confirmPasskeyExists).toHaveBeenCalledTimes(1);
    view.unmount();
  });
});
