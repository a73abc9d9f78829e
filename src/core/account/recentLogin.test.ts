import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../api/client';
import { CorbadoError, unhandledBackendError } from '../errors';
import { RecentLogin } from './recentLogin';

const CODE = { identifierID: 'ide-1', identifierType: 'email' as const, value: 'ada@example.com' };

/** The server side of the proofs: what GET /v2/me/reauth answers, and every step posted. */
function fakeApi(options: { passkey?: boolean; wrongCode?: string } = {}) {
  const calls: [string, object | undefined][] = [];
  const api = {
    reauth: vi.fn(async (step: string, json?: { code?: string }) => {
      calls.push([step, json]);
      if (step === '') return { passkey: options.passkey ?? false, code: CODE };
      if (step === 'code/finish' && json?.code === options.wrongCode) throw unhandledBackendError('invalid_challenge_solution_email-otp');
      if (step === 'passkey/start') return { assertionOptions: '{"publicKey":{"challenge":"abc"}}' };
      return {};
    }),
  };
  return { api: api as unknown as ApiClient, calls };
}

const stale = () => unhandledBackendError('recent_login_required');

/** An action the server refuses `refusals` times with recent_login_required, then does. */
function action(refusals = 1) {
  let left = refusals;
  return vi.fn(async () => {
    if (left-- > 0) throw stale();
    return 'done';
  });
}

/** Lets the guard reach its prompt (it reads the options first). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RecentLogin', () => {
  it('runs an action that needs no proof once, without a prompt', async () => {
    const { api, calls } = fakeApi();
    const recent = new RecentLogin(api);
    const run = action(0);
    await expect(recent.guard('details', run)).resolves.toBe('done');
    expect(run).toHaveBeenCalledTimes(1);
    expect(calls).toEqual([]);
  });

  it('passes any other refusal through', async () => {
    const recent = new RecentLogin(fakeApi().api);
    await expect(recent.guard('details', () => Promise.reject(unhandledBackendError('last_login_identifier')))).rejects.toMatchObject({
      type: 'last_login_identifier',
    });
    expect(recent.$prompt.get()).toBeUndefined();
  });

  it('asks for a proof, takes a code to the named address, then runs the action once more', async () => {
    const { api, calls } = fakeApi({ wrongCode: '000000' });
    const recent = new RecentLogin(api);
    const run = action();
    const result = recent.guard('passkeys', run);
    await settle();
    expect(recent.$prompt.get()).toEqual({ view: 'passkeys', passkey: false, code: CODE });
    await recent.sendCode();
    await expect(recent.enterCode('000000')).rejects.toBeInstanceOf(CorbadoError);
    expect(recent.$prompt.get()).toBeDefined(); // a wrong code keeps the prompt open
    expect(run).toHaveBeenCalledTimes(1);
    await recent.enterCode('123456');
    await expect(result).resolves.toBe('done');
    expect(run).toHaveBeenCalledTimes(2);
    expect(recent.$prompt.get()).toBeUndefined();
    expect(calls).toEqual([
      ['', undefined],
      ['code/start', { identifierID: 'ide-1' }],
      ['code/finish', { identifierID: 'ide-1', code: '000000' }],
      ['code/finish', { identifierID: 'ide-1', code: '123456' }],
    ]);
  });

  it('leaves everything as it was on cancel: the action is not repeated, the error is one nobody shows', async () => {
    const recent = new RecentLogin(fakeApi().api);
    const run = action();
    const result = recent.guard('details', run);
    await settle();
    recent.cancel();
    await expect(result).rejects.toMatchObject({ kind: 'recentLoginCancelled', ignorable: true });
    expect(run).toHaveBeenCalledTimes(1);
    expect(recent.$prompt.get()).toBeUndefined();
  });

  it('asks once: a second refusal after the proof is the action’s answer', async () => {
    const recent = new RecentLogin(fakeApi().api);
    const run = action(2);
    const result = recent.guard('details', run);
    await settle();
    await recent.enterCode('123456');
    await expect(result).rejects.toMatchObject({ type: 'recent_login_required' });
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('offers the passkey only where the user has one and the browser can use it', async () => {
    const withPasskey = new RecentLogin(fakeApi({ passkey: true }).api);
    void withPasskey.guard('details', action());
    await settle();
    expect(withPasskey.$prompt.get()?.passkey).toBe(false); // no WebAuthn in this runtime

    vi.stubGlobal('window', { PublicKeyCredential: function PublicKeyCredential() {} });
    const inBrowser = new RecentLogin(fakeApi({ passkey: true }).api);
    void inBrowser.guard('details', action());
    await settle();
    expect(inBrowser.$prompt.get()?.passkey).toBe(true);
    const without = new RecentLogin(fakeApi({ passkey: false }).api);
    void without.guard('details', action());
    await settle();
    expect(without.$prompt.get()?.passkey).toBe(false);
  });
});
