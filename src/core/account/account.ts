// The logged-in user's own data: profile and passkeys, loaded once per user and shared by every
// mounted view (a second view adds no request the first already made), and the changes a user makes to
// their account: name, identifiers (add, verify by code, make primary, change a username, remove), and
// deleting the account.
import { atom } from 'nanostores';
import type { ApiClient } from '../api/client';
import type { IdentifierType, MeIdentifier, MeResponse, Passkey, UserDetailsConfig, UserSession } from '../api/types';
import { passkeyAlreadyExists, passkeysNotSupported, CorbadoError, unhandledFrontendError } from '../errors';
import type { Session } from '../session/session';
import { clientInformation, createPasskey } from '../webauthn/webauthn';
import { readItem, storageKeys, writeItem } from '../storage';
import { RecentLogin } from './recentLogin';

export type Loadable<T> = { state: 'idle' | 'loading' } | { state: 'ready'; value: T } | { state: 'failed'; error: CorbadoError };

export class Account {
  readonly $me = atom<Loadable<MeResponse>>({ state: 'idle' });
  readonly $passkeys = atom<Loadable<Passkey[]>>({ state: 'idle' });
  /** the user's live sessions (devices), this one marked `current` */
  readonly $sessions = atom<Loadable<UserSession[]>>({ state: 'idle' });
  /** what the user details view may offer (enabled identifier types, how many of each) */
  readonly $config = atom<UserDetailsConfig | undefined>(undefined);
  readonly $busy = atom(false);
  /** "Confirm it's you" for what needs a recent log-in */
  readonly recentLogin: RecentLogin;
  readonly #api: ApiClient;
  readonly #session: Session;
  #me: Promise<void> | undefined;
  #passkeys: Promise<void> | undefined;
  #config: Promise<void> | undefined;

  constructor(api: ApiClient, session: Session) {
    this.#api = api;
    this.#session = session;
    this.recentLogin = new RecentLogin(api);
    // another user, or none, makes what was loaded stale (a refreshed session of the same user does not)
    let sub: string | undefined;
    session.$user.listen((user) => {
      if (user?.sub === sub) return;
      sub = user?.sub;
      this.#me = this.#passkeys = undefined;
      this.$me.set({ state: 'idle' });
      this.$passkeys.set({ state: 'idle' });
      this.$sessions.set({ state: 'idle' });
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

  /** The user's sessions, each time a view asks (they change on other devices). */
  loadSessions(): Promise<void> {
    return this.#load(this.$sessions, async () => (await this.#api.sessions('get')).sessions);
  }

  /** Ends one of the user's other sessions (its id), or every other one (''); the list reloads. */
  async endSession(id = ''): Promise<void> {
    this.$busy.set(true);
    try {
      await this.#session.ready();
      await this.#api.sessions('delete', id);
      await this.loadSessions();
    } finally {
      this.$busy.set(false);
    }
  }

  /** The user details configuration, once per widget; without it the view offers no additions. */
  loadConfig(): Promise<void> {
    this.#config ??= (async () => {
      try {
        await this.#session.ready();
        this.$config.set(await this.#api.userDetailsConfig());
      } catch {
        // the details stay readable; nothing can be added, and a later view asks again
        this.#config = undefined;
      }
    })();
    return this.#config;
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
      // the server may issue a new client handle, as web-js 3.5 keeps it
      if (start.newClientEnvHandle) writeItem(storageKeys.clientHandle, start.newClientEnvHandle);
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
      await this.recentLogin.guard('passkeys', () => this.#api.deletePasskey(id));
      await this.loadPasskeys(true);
    } finally {
      this.$busy.set(false);
    }
  }

  // --- account changes: each throws a CorbadoError (error.type: the server's reason) -------------

  /** Runs one change; the profile reloads after it, and the session too where its claims change. */
  async #change(request: () => Promise<unknown>, claims = false): Promise<void> {
    this.$busy.set(true);
    try {
      await this.#session.ready();
      await this.recentLogin.guard('details', request);
      await this.loadMe(true);
      if (claims) await this.#session.refresh();
    } finally {
      this.$busy.set(false);
    }
  }

  updateName(fullName: string): Promise<void> {
    return this.#change(() => this.#api.account('patch v2/me', { fullName }), true);
  }

  addIdentifier(identifierType: IdentifierType, value: string): Promise<void> {
    return this.#change(() => this.#api.account('post v2/me/identifier', { identifierType, value }));
  }

  /** Sends a code to a pending e-mail address or phone number (no profile change). */
  async sendCode(identifier: MeIdentifier): Promise<void> {
    await this.#session.ready();
    await this.#api.account('post v2/me/identifier/verify/start', { identifierID: identifier.id, clientInformation: {} });
  }

  verifyIdentifier(identifier: MeIdentifier, code: string): Promise<void> {
    return this.#change(() => this.#api.account('post v2/me/identifier/verify/finish', { identifierID: identifier.id, code }));
  }

  /** A new value for a username, or `primary` for a verified e-mail address or phone number. */
  updateIdentifier(identifier: MeIdentifier, value: string, primary?: boolean): Promise<void> {
    const body = { identifierID: identifier.id, identifierType: identifier.type, value, primary };
    return this.#change(() => this.#api.account('patch v2/me/identifier', body), true);
  }

  removeIdentifier(identifier: MeIdentifier): Promise<void> {
    return this.#change(() => this.#api.account('delete v2/me/identifier', { identifierID: identifier.id }), true);
  }

  /** Unlinks a provider account (after a recent log-in; never the last way in: the server refuses it). */
  unlinkSocialAccount(socialAccountID: string): Promise<void> {
    return this.#change(() => this.#api.account('delete v2/me/social-account', { socialAccountID }));
  }

  /** Deletes the account on the server, then ends the session here. */
  async deleteAccount(): Promise<void> {
    this.$busy.set(true);
    try {
      await this.#session.ready();
      await this.recentLogin.guard('details', () => this.#api.account('delete v2/me'));
      await this.#session.logout();
    } finally {
      this.$busy.set(false);
    }
  }
}
