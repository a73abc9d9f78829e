import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CorbadoApp } from '../../../core/app';
import { AppContext } from '../../context';
import { renderInShadow } from '../../test/renderInShadow';
import { CodeEntry } from './CodeEntry';

/** The account's code entry with a fake WebOTP API; `send` resolves when the test says so. */
function setUp(type: 'phone' | 'email') {
  let resolveSms!: (credential: unknown) => void;
  vi.stubGlobal('OTPCredential', class {});
  const get = vi.fn(() => new Promise((r) => (resolveSms = r)));
  Object.defineProperty(navigator, 'credentials', { value: { get }, configurable: true });
  let sent!: () => void;
  const send = vi.fn(() => new Promise<void>((r) => (sent = r)));
  const submit = vi.fn(async () => undefined);
  const view = renderInShadow(
    <AppContext.Provider value={{ flow: {} } as unknown as CorbadoApp}>
      <CodeEntry type={type} value="+49 151 12345678" send={send} submit={submit} close={() => undefined} />
    </AppContext.Provider>,
  );
  const cells = () => view.$$<HTMLInputElement>('.cb-otp-cell').map((c) => c.value).join('');
  return { view, get, send, submit, cells, sent: () => act(async () => sent()), sms: (code: string) => act(async () => resolveSms({ type: 'otp', id: '', code })) };
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'credentials');
});

describe('CodeEntry (account) with the WebOTP API', () => {
  it('asks for the SMS code once the code is on its way, fills it and checks it', async () => {
    const entry = setUp('phone');
    expect(entry.send).toHaveBeenCalledTimes(1);
    expect(entry.get).not.toHaveBeenCalled();
    await entry.sent();
    expect(entry.get).toHaveBeenCalledTimes(1);
    expect(entry.get.mock.calls[0]).toMatchObject([{ otp: { transport: ['sms'] } }]);
    await entry.sms('907312');
    expect(entry.cells()).toBe('907312');
    expect(entry.submit).toHaveBeenCalledExactlyOnceWith('907312');
    entry.view.unmount();
  });

  it('does not ask for an e-mail code', async () => {
    const entry = setUp('email');
    await entry.sent();
    expect(entry.get).not.toHaveBeenCalled();
    entry.view.unmount();
  });
});
