import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CorbadoApp } from '../../core/app';
import { AppContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { ResendButton } from './ResendButton';

function setUp(retryNotBefore?: number) {
  const flow = { resend: vi.fn(async () => undefined), $block: { get: () => undefined }, $screen: { get: () => 'email-otp-verification' } };
  const view = renderInShadow(
    <AppContext.Provider value={{ flow } as unknown as CorbadoApp}>
      <ResendButton retryNotBefore={retryNotBefore} label="Resend code" />
    </AppContext.Provider>,
  );
  const button = () => view.$<HTMLButtonElement>('button')!;
  const waiting = () => button().getAttribute('aria-disabled') === 'true';
  const seconds = (n: number) => act(() => vi.advanceTimersByTime(n * 1000));
  return { flow, view, button, waiting, seconds };
}

describe('resending a code or link', () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it('[spec 9.resend-wait-email] waits 30 s by default, counting down, when the server names no time', () => {
    const { flow, view, button, waiting, seconds } = setUp();
    expect(button().textContent).toBe('Resend code in 30s');
    expect(waiting()).toBe(true);
    seconds(29);
    expect(button().textContent).toBe('Resend code in 1s');
    button().click();
    expect(flow.resend).not.toHaveBeenCalled();
    seconds(1);
    expect(waiting()).toBe(false);
    expect(button().textContent).toBe('Resend code');
    button().click();
    expect(flow.resend).toHaveBeenCalledTimes(1);
    view.unmount();
  });

  it('[spec 9.resend-retry-not-before] waits until the retryNotBefore the server supplies, however long or short', () => {
    const now = Math.floor(Date.now() / 1000);
    const short = setUp(now + 5);
    expect(short.button().textContent).toBe('Resend code in 5s');
    short.seconds(5);
    expect(short.waiting()).toBe(false);
    short.view.unmount();

    const long = setUp(Math.floor(Date.now() / 1000) + 90);
    expect(long.button().textContent).toBe('Resend code in 90s');
    long.seconds(60);
    expect(long.waiting()).toBe(true);
    long.view.unmount();

    const past = setUp(now - 1);
    expect(past.waiting()).toBe(false);
    past.view.unmount();
  });
});
