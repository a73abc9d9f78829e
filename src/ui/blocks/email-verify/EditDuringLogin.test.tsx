// The edit button beside the address on the verification screens (SPEC.md section 4, "E-mail verify"):
// during sign-up it opens the edit screen; during log-in it starts over, aborting the process.
import { atom } from 'nanostores';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AuthType } from '../../../core/api/types';
import type { CorbadoApp } from '../../../core/app';
import type { FlowBlock } from '../../../core/process/block';
import { AppContext } from '../../context';
import { renderInShadow } from '../../test/renderInShadow';
import { EmailLinkSentScreen } from './EmailLinkSentScreen';
import { OtpScreen } from './OtpScreen';

function editOn(screen: 'email-otp-verification' | 'email-link-sent', authType: AuthType) {
  const block: FlowBlock = { type: 'email-verify', authType, data: { identifier: 'ada@example.com', retryNotBefore: 0 }, alternatives: [] };
  const flow = {
    $block: atom<FlowBlock | undefined>(block),
    $busy: atom(false),
    $error: atom(undefined),
    $screen: atom(screen),
    abort: vi.fn(async () => undefined),
    setScreen: vi.fn(),
    submitCode: vi.fn(async () => undefined),
    canSkip: () => false,
  };
  const view = renderInShadow(
    <AppContext.Provider value={{ flow } as unknown as CorbadoApp}>{screen === 'email-link-sent' ? <EmailLinkSentScreen /> : <OtpScreen channel="email" />}</AppContext.Provider>,
  );
  act(() => view.$<HTMLButtonElement>('.cb-identifier button')!.click());
  view.unmount();
  return flow;
}

describe('[spec 4.email-edit-login-abort] editing the address on a verification screen', () => {
  it.each(['email-otp-verification', 'email-link-sent'] as const)('on %s during log-in aborts the process first; during sign-up opens the edit screen', (screen) => {
    const login = editOn(screen, 'login');
    expect(login.abort).toHaveBeenCalledOnce();
    expect(login.setScreen).not.toHaveBeenCalled();
    const signup = editOn(screen, 'signup');
    expect(signup.abort).not.toHaveBeenCalled();
    expect(signup.setScreen).toHaveBeenCalledExactlyOnceWith('edit-email');
  });
});
