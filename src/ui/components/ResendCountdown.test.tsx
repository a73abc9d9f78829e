import { atom } from 'nanostores';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CorbadoApp } from '../../core/app';
import type { FlowBlock } from '../../core/process/block';
import { AppContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { EmailLinkSentScreen } from '../blocks/email-verify/EmailLinkSentScreen';
import { ResendButton } from './ResendButton';

const T0 = 1_700_000_000;

function render(node: React.ReactNode, data: Record<string, unknown> = {}) {
  const block: FlowBlock = { type: 'email-verify', authType: 'signup', data: { identifier: 'ada@example.com', ...data }, alternatives: [] };
  const flow = { $block: atom<FlowBlock | undefined>(block), $busy: atom(false), $screen: atom('email-link-sent'), resend: vi.fn(async () => undefined) };
  const view = renderInShadow(<AppContext.Provider value={{ flow } as unknown as CorbadoApp}>{node}</AppContext.Provider>);
  const button = () => view.$$<HTMLButtonElement>('button').find((b) => /^Resend/.test(b.textContent ?? ''))!;
  /** aria-disabled, as every busy or disabled button of the widget (it keeps the focus) */
  const disabled = () => button().getAttribute('aria-disabled') === 'true';
  return { view, flow, button, disabled };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(T0 * 1000);
});
afterEach(() => vi.useRealTimers());

describe('ResendButton', () => {
  it('[spec 4.otp-resend-countdown] is disabled with a countdown in seconds until retryNotBefore, then resends', async () => {
    const { view, flow, button, disabled } = render(<ResendButton retryNotBefore={T0 + 3} label="Resend code" />);
    expect(button().textContent).toBe('Resend code in 3s');
    expect(disabled()).toBe(true);
    await act(async () => button().click());
    expect(flow.resend).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1000));
    expect(button().textContent).toBe('Resend code in 2s');
    act(() => void vi.advanceTimersByTime(2000));
    expect(button().textContent).toBe('Resend code');
    expect(disabled()).toBe(false);
    await act(async () => button().click());
    expect(flow.resend).toHaveBeenCalledOnce();
    view.unmount();
  });

  it('[spec 4.otp-resend-email-default] waits 30 s on an e-mail screen whose block names no retryNotBefore', () => {
    const { view, button, disabled } = render(<EmailLinkSentScreen />);
    expect(button().textContent).toBe('Resend link in 30s');
    expect(disabled()).toBe(true);
    act(() => void vi.advanceTimersByTime(29_000));
    expect(button().textContent).toBe('Resend link in 1s');
    act(() => void vi.advanceTimersByTime(1000));
    expect(disabled()).toBe(false);
    view.unmount();
  });
});
