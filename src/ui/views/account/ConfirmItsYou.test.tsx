import { fireEvent } from '@testing-library/dom';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecentLogin } from '../../../core/account/recentLogin';
import type { ApiClient } from '../../../core/api/client';
import type { CorbadoApp } from '../../../core/app';
import { unhandledBackendError } from '../../../core/errors';
import { configureI18n } from '../../../core/i18n/i18n';
import { AppContext } from '../../context';
import { renderInShadow } from '../../test/renderInShadow';
import { ConfirmItsYou } from './ConfirmItsYou';

const CODE = { identifierID: 'ide-1', identifierType: 'email' as const, value: 'ada@example.com' };

function setUp(options: { passkey?: boolean } = {}) {
  const steps: string[] = [];
  const api = {
    reauth: vi.fn(async (step: string, json?: { code?: string }) => {
      steps.push(step);
      if (step === '') return { passkey: options.passkey ?? false, code: CODE };
      if (step === 'code/finish' && json?.code !== '123456') throw unhandledBackendError('invalid_challenge_solution_email-otp');
      return {};
    }),
  } as unknown as ApiClient;
  const recentLogin = new RecentLogin(api);
  const app = { account: { recentLogin }, flow: {} } as unknown as CorbadoApp;
  const view = renderInShadow(
    <AppContext.Provider value={app}>
      <button type="button">Delete account</button>
      <ConfirmItsYou view="details" />
    </AppContext.Provider>,
  );
  let refusals = 1;
  const action = vi.fn(async () => {
    if (refusals-- > 0) throw unhandledBackendError('recent_login_required');
    return 'deleted';
  });
  return { view, recentLogin, action, steps };
}

/** Lets pending promises (the options request, a code check) settle and React render. */
async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

function buttonNamed(view: ReturnType<typeof renderInShadow>, name: string): HTMLButtonElement | undefined {
  return view.$$<HTMLButtonElement>('button').find((b) => b.textContent === name);
}

function typeCode(view: ReturnType<typeof renderInShadow>, code: string) {
  const first = view.$<HTMLInputElement>('.cb-otp-cell')!;
  act(() => {
    fireEvent.change(first, { target: { value: code } });
  });
}

afterEach(() => {
  configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false });
  vi.unstubAllGlobals();
});

describe('ConfirmItsYou', () => {
  it('shows nothing until an action of its view needs a recent log-in', async () => {
    const { view, recentLogin } = setUp();
    expect(view.$('dialog')).toBeNull();
    void recentLogin.guard('passkeys', async () => Promise.reject(unhandledBackendError('recent_login_required')));
    await settle();
    expect(view.$('dialog')).toBeNull(); // the passkey list asks, not the details view
    view.unmount();
  });

  it('asks in a labelled dialog, sends a code to the named address, and repeats the action once the code is accepted', async () => {
    const { view, recentLogin, action, steps } = setUp();
    const result = recentLogin.guard('details', action);
    await settle();
    const dialog = view.$<HTMLDialogElement>('dialog')!;
    expect(dialog.open).toBe(true);
    expect(view.shadow.getElementById(dialog.getAttribute('aria-labelledby')!)!.textContent).toBe("Confirm it's you");
    expect(buttonNamed(view, 'Use passkey')).toBeUndefined(); // no WebAuthn here
    act(() => buttonNamed(view, 'Send a code to ada@example.com')!.click());
    await settle();
    expect(steps).toEqual(['', 'code/start']);
    expect(dialog.textContent).toContain('Enter the code we sent to ada@example.com.');
    expect(view.shadow.activeElement).toBe(view.$('.cb-otp-cell'));

    typeCode(view, '000000');
    await settle();
    expect(view.$('[role="alert"]')!.textContent).toBe('The code is invalid or expired');
    expect(action).toHaveBeenCalledTimes(1);

    typeCode(view, '123456');
    await settle();
    await expect(result).resolves.toBe('deleted');
    expect(action).toHaveBeenCalledTimes(2);
    expect(view.$('dialog')).toBeNull();
    view.unmount();
  });

  it('leaves everything as it was on cancel, and gives the focus back', async () => {
    const { view, recentLogin, action } = setUp();
    const opener = buttonNamed(view, 'Delete account')!;
    opener.focus();
    const outcome = recentLogin.guard('details', action).catch((error: unknown) => error);
    await settle();
    act(() => buttonNamed(view, 'Cancel')!.click());
    await settle();
    expect(await outcome).toMatchObject({ kind: 'recentLoginCancelled', ignorable: true });
    expect(view.$('dialog')).toBeNull();
    expect(action).toHaveBeenCalledTimes(1);
    expect(view.shadow.activeElement).toBe(opener);
    view.unmount();
  });

  it('offers the passkey where the user has one and the browser can use it, in German too', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    configureI18n({ defaultLanguage: 'de', autoDetectLanguage: false });
    const { view, recentLogin, action } = setUp({ passkey: true });
    void recentLogin.guard('details', action).catch(() => undefined);
    await settle();
    expect(view.$('dialog h2')!.textContent).toBe('Bestätige, dass du es bist');
    expect(buttonNamed(view, 'Passkey verwenden')).toBeDefined();
    expect(buttonNamed(view, 'Code an ada@example.com senden')).toBeDefined();
    act(() => recentLogin.cancel());
    view.unmount();
  });
});
