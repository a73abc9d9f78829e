// What cannot be undone (deleting the account, removing a login identifier, changing the primary
// address, deleting the last passkey) needs a recent log-in. When the server answers
// recent_login_required, the action waits while the view asks "Confirm it's you" (a passkey, or a code
// to the address the server names); once the proof is accepted the action runs once more. Cancelling
// takes it back: the action is not taken and nothing is shown.
import { atom } from 'nanostores';
import type { ApiClient } from '../api/client';
import type { MeReauthOptions, MeReauthPasskeyStartResponse } from '../api/types';
import { CorbadoError, recentLoginCancelled } from '../errors';
import { getPasskey, webAuthnSupported } from '../webauthn/webauthn';

/** Which view asks: the one the action was started in (both may be mounted on one page). */
export type ReauthView = 'details' | 'passkeys';

export interface ReauthPrompt {
  view: ReauthView;
  /** offer "Use passkey": the user has one that counts and this browser can use it */
  passkey: boolean;
  /** offer "Send a code to …" */
  code?: MeReauthOptions['code'];
}

export function isRecentLoginRequired(error: unknown): boolean {
  return error instanceof CorbadoError && error.type === 'recent_login_required';
}

export class RecentLogin {
  readonly $prompt = atom<ReauthPrompt | undefined>(undefined);
  readonly #api: ApiClient;
  #settle: ((proven: boolean) => void) | undefined;

  constructor(api: ApiClient) {
    this.#api = api;
  }

  /** Runs `action`; when it needs a recent log-in, asks for a proof, then runs it once more. */
  async guard<T>(view: ReauthView, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      if (!isRecentLoginRequired(error) || this.#settle) throw error;
    }
    const options = await this.#api.reauth<MeReauthOptions>('');
    const proven = await new Promise<boolean>((resolve) => {
      this.#settle = resolve;
      this.$prompt.set({ view, passkey: options.passkey && webAuthnSupported(), code: options.code });
    });
    this.#settle = undefined;
    this.$prompt.set(undefined);
    if (!proven) throw recentLoginCancelled();
    return action();
  }

  /** Proves the user with one of their passkeys; throws (the prompt stays) when that fails. */
  async usePasskey(): Promise<void> {
    const start = await this.#api.reauth<MeReauthPasskeyStartResponse>('passkey/start', {});
    await this.#api.reauth('passkey/finish', { assertionResponse: await getPasskey(start.assertionOptions) });
    this.#settle?.(true);
  }

  /** Sends a code to the address of the prompt (again on a resend). */
  async sendCode(): Promise<void> {
    await this.#api.reauth('code/start', { identifierID: this.$prompt.get()?.code?.identifierID });
  }

  /** Checks the code; throws (the prompt stays) when it is wrong, used or expired. */
  async enterCode(code: string): Promise<void> {
    await this.#api.reauth('code/finish', { identifierID: this.$prompt.get()?.code?.identifierID, code });
    this.#settle?.(true);
  }

  cancel(): void {
    this.#settle?.(false);
  }
}
