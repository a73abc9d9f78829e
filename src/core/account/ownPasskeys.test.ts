// @vitest-environment happy-dom
// A logged-in user's own passkeys (SPEC.md section 4, "Passkey append" and "Passkey list"): an append the
// server refuses, and the list loaded again after a change.
import { atom } from 'nanostores';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../api/client';
import type { Session } from '../session/session';
import { Account } from './account';

/** the creation options of the account's append/start, for a signed-in Grace */
const creation = JSON.stringify({ publicKey: { challenge: 'YXBwZW5k', rp: { name: 'Account', id: 'localhost' }, user: { id: 'Z3JhY2U', name: 'grace@example.com', displayName: 'Grace' }, pubKeyCredParams: [{ type: 'public-key', alg: -7 }] } });

/** The server side of the passkey list: append/start answers `reason` (or options), every call noted. */
function account(reason?: string) {
  const calls: string[] = [];
  const api = {
    mePasskeyAppendStart: vi.fn(async () => (calls.push('append/start'), reason ? { attestationOptions: '', appendNotAllowedReason: reason } : { attestationOptions: creation })),
    mePasskeyAppendFinish: vi.fn(async () => (calls.push('append/finish'), {})),
    passkeys: vi.fn(async () => (calls.push('passkeys'), { passkeys: [] })),
    deletePasskey: vi.fn(async () => (calls.push('delete'), {})),
  };
  const session = { ready: async () => undefined, $user: atom(undefined) };
  return { account: new Account(api as unknown as ApiClient, session as unknown as Session), calls };
}

/** A browser whose authenticator creates a passkey (navigator.credentials.create answers a credential). */
function browserWithAuthenticator(): void {
  const bytes = () => new Uint8Array([1, 2, 3]).buffer;
  const PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
    isUserVerifyingPlatformAuthenticatorAvailable: async () => true,
    isConditionalMediationAvailable: async () => true,
  });
  Object.assign(window, { PublicKeyCredential });
  const credential = {
    id: 'AQID',
    rawId: bytes(),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: { clientDataJSON: bytes(), attestationObject: bytes(), getTransports: () => ['internal'] },
    getClientExtensionResults: () => ({}),
  };
  Object.defineProperty(navigator, 'credentials', { value: { create: async () => credential }, configurable: true });
}
afterEach(() => {
  delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  delete (navigator as { credentials?: unknown }).credentials;
});

describe("a logged-in user's own passkey append", () => {
  describe('[spec 4.append-own-refused] refused by the server', () => {
    it.each([
      ['passkey_already_exists', 'passkeyAlreadyExists'],
      ['passkeys_not_supported', 'passkeysNotSupported'],
    ])('is refused when the server says %s', async (reason, kind) => {
      browserWithAuthenticator();
      const { account: own, calls } = account(reason);
      await expect(own.createPasskey()).rejects.toMatchObject({ kind });
      expect(calls).toEqual(['append/start']);
    });
  });

  it('[spec 4.append-own-unknown] ends silently for a refusal reason it does not know', async () => {
    browserWithAuthenticator();
    const { account: own, calls } = account('some_future_reason');
    await expect(own.createPasskey()).resolves.toBeUndefined();
    expect(calls).toEqual(['append/start']);
    expect(own.$busy.get()).toBe(false);
  });
});

describe('the passkey list', () => {
  it('[spec 4.passkey-list-reload] is loaded again after a passkey was created and after one was deleted', async () => {
    browserWithAuthenticator();
    const { account: own, calls } = account();
    await own.loadPasskeys();
    await own.loadPasskeys();
    expect(calls).toEqual(['passkeys']);
    await own.createPasskey();
    expect(calls).toEqual(['passkeys', 'append/start', 'append/finish', 'passkeys']);
    await own.deletePasskey('pas-1');
    expect(calls).toEqual(['passkeys', 'append/start', 'append/finish', 'passkeys', 'delete', 'passkeys']);
  });
});
