// The logged-in user's own data: profile and passkeys, loaded once per session and shared by every
// mounted view (a second view adds no request the first already made).
import { atom } from 'nanostores';
import type { ApiClient } from '../api/client';
import type { MeResponse, Passkey } from '../api/types';
import { passkeyAlreadyExists, passkeysNotSupported, CorbadoError, unhandledFrontendError } from '../errors';
import type { Session } from '../session/session';
import { clientInformation, createPasskey } from '../webauthn/webauthn';
import { readItem, storageKeys } from '../storage';

export type Loadable<T> = { state: 'idle' | 'loading' } | { state: 'ready'; value: T } | { state: 'failed'; error: CorbadoError };

export class Account {
  readonly $me = atom<Loadable<MeResponse>>({ state: 'idle' });
  readonly $passkeys = atom<Loadable<Passkey[]>>({ state: 'idle' });
  readonly $busy = atom(false);
  readonly #api: ApiClient;
  readonly #session: Session;
  #me: Promise<void> | undefined;
  #passkeys: Promise<void> | undefined;

  constructor(api: ApiClient, session: Session) {
    this.#api = api;
    this.#session = session;
    // a new or ended session makes what was loaded stale
    session.$shortSession.listen(() => {
      this.#me = this.#passkeys = undefined;
      this.$me.set({ state: 'idle' });
      this.$passkeys.set({ state: 'idle' });
    });
  }

  loadMe(force = false): Promise<void> {
    if (force) this.#me = undefined;
    this.#me ??= this.#load(this.$me, () => this.#api.me());
    return this.#me;
  }

  loadPasskeys(force = false): Promise<void> {
    if (force) this.#passkeys = undefined;
    this.#passkeys ??= this.#load(this.$passkeys, async () => (await this.#api.passkeys()).passkeys);
    return this.#passkeys;
  }

  async #load<T>(store: ReturnType<typeof atom<Loadable<T>>>, fetch: () => Promise<T>): Promise<void> {
    if (store.get().state !== 'ready') store.set({ state: 'loading' });
    try {
      await this.#session.ready();
      store.set({ state: 'ready', value: await fetch() });
    } catch (error) {
      store.set({ state: 'failed', error: error instanceof CorbadoError ? error : unhandledFrontendError(error) });
    }
  }

  /**
   * Adds a passkey for this device. Refused when the server says one exists or passkeys are
   * unsupported; an unknown refusal reason ends silently. The list reloads afterwards.
   */
  async createPasskey(): Promise<void> {
    this.$busy.set(true);
    try {
      await this.#session.ready();
      const info = await clientInformation(readItem(storageKeys.clientHandle));
      const start = await this.#api.mePasskeyAppendStart(info);
      if (start.appendNotAllowedReason === 'passkey_already_exists') throw passkeyAlreadyExists();
      if (start.appendNotAllowedReason === 'passkeys_not_supported') throw passkeysNotSupported();
      if (start.appendNotAllowedReason) return;
      const signed = await createPasskey(start.attestationOptions);
      await this.#api.mePasskeyAppendFinish(signed, info);
      await this.loadPasskeys(true);
    } finally {
      this.$busy.set(false);
    }
  }

  async deletePasskey(id: string): Promise<void> {
    this.$busy.set(true);
    try {
      await this.#api.deletePasskey(id);
      await this.loadPasskeys(true);
    } finally {
      this.$busy.set(false);
    }
  }
}
