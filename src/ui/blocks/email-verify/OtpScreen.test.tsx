import { atom } from 'nanostores';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CorbadoApp } from '../../../core/app';
import type { FlowBlock } from '../../../core/process/block';
import { AppContext } from '../../context';
import { renderInShadow } from '../../test/renderInShadow';
import { OtpScreen } from './OtpScreen';

const BLOCK: FlowBlock = {
  type: 'phone-verify',
  authType: 'signup',
  data: { identifier: '+4915112345678', retryNotBefore: 0 },
  alternatives: [],
};

/** The phone code screen on a fake flow, with a fake WebOTP API where `credentialsGet` is given. */
function setUp(channel: 'email' | 'phone', credentialsGet?: (options: CredentialRequestOptions & { otp?: unknown }) => Promise<unknown>) {
  if (credentialsGet) {
    vi.stubGlobal('OTPCredential', class {});
    Object.defineProperty(navigator, 'credentials', { value: { get: vi.fn(credentialsGet) }, configurable: true });
  }
  const submitCode = vi.fn(async () => undefined);
  const flow = {
    $block: atom<FlowBlock | undefined>(BLOCK),
    $busy: atom(false),
    $error: atom(undefined),
    $screen: atom(channel === 'phone' ? 'phone-otp' : 'email-otp-verification'),
    submitCode,
    canSkip: () => false,
  };
  const view = renderInShadow(
    <AppContext.Provider value={{ flow } as unknown as CorbadoApp}>
      <OtpScreen channel={channel} />
    </AppContext.Provider>,
  );
  const cells = () => view.$$<HTMLInputElement>('.cb-otp-cell').map((c) => c.value).join('');
  return { view, submitCode, cells };
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'credentials');
});

describe('OtpScreen with the WebOTP API', () => {
  it('asks for the SMS code, fills it into the cells and submits it', async () => {
    let resolve!: (credential: unknown) => void;
    const { view, submitCode, cells } = setUp('phone', () => new Promise((r) => (resolve = r)));
    const get = vi.mocked(navigator.credentials.get);
    expect(get).toHaveBeenCalledTimes(1);
    expect(get.mock.calls[0]![0]).toMatchObject({ otp: { transport: ['sms'] } });
    expect(get.mock.calls[0]![0]!.signal).toBeInstanceOf(AbortSignal);
    expect(cells()).toBe('');
    await act(async () => resolve({ type: 'otp', id: '', code: '482915' }));
    expect(cells()).toBe('482915');
    expect(submitCode).toHaveBeenCalledExactlyOnceWith('482915');
    view.unmount();
  });

  it('aborts the request when the screen goes, and fills nothing after that', async () => {
    let signal!: AbortSignal;
    let resolve!: (credential: unknown) => void;
    const { view, submitCode } = setUp('phone', (options) => {
      signal = options.signal!;
      return new Promise((r) => (resolve = r));
    });
    expect(signal.aborted).toBe(false);
    view.unmount();
    expect(signal.aborted).toBe(true);
    await act(async () => resolve({ type: 'otp', id: '', code: '482915' }));
    expect(submitCode).not.toHaveBeenCalled();
  });

  it('stays silent when the browser refuses, and leaves the cells to the user', async () => {
    const { view, submitCode, cells } = setUp('phone', () => Promise.reject(new DOMException('no', 'AbortError')));
    await act(async () => undefined);
    expect(cells()).toBe('');
    expect(submitCode).not.toHaveBeenCalled();
    view.unmount();
  });

  it('does not ask on the e-mail code screen, nor where the browser has no WebOTP', () => {
    const email = setUp('email', () => Promise.resolve({ code: '111111' }));
    expect(navigator.credentials.get).not.toHaveBeenCalled();
    email.view.unmount();
    vi.unstubAllGlobals();
    const get = vi.fn();
    Object.defineProperty(navigator, 'credentials', { value: { get }, configurable: true });
    const phone = setUp('phone');
    expect('OTPCredential' in window).toBe(false);
    expect(get).not.toHaveBeenCalled();
    phone.view.unmount();
  });
});
