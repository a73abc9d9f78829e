// The error catalogue of SPEC.md section 8. Every error the widget raises is a CorbadoError with a
// kind (what happened), whether the user can recover from it, and whether it is shown at all.
import { pluralKey } from './i18n/i18n';

export type ErrorKind =
  | 'processNotFound'
  | 'unhandledBackendError'
  | 'unhandledFrontendError'
  | 'passkeyChallengeCancelled'
  | 'passkeyAlreadyExists'
  | 'passkeysNotSupported'
  | 'noPasskeyAvailable'
  | 'invalidProjectId'
  | 'invalidBlockType'
  | 'invalidScreen'
  | 'invalidUserHandleType'
  | 'missingProvider'
  | 'emailLinkTokenMissing'
  | 'webauthn'
  | 'tooManyRequests'
  | 'recentLoginCancelled';

export class CorbadoError extends Error {
  override readonly name = 'CorbadoError';
  /** the HTTP status of the server's answer, when there was one (the session tells refusal from trouble by it) */
  status?: number;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly recoverable: boolean,
    /** ignorable errors are swallowed, never shown to the user */
    readonly ignorable = false,
    /** the backend error type, for backend errors */
    readonly type?: string,
    /** seconds to wait before trying again, when the server said so (HTTP 429, Retry-After) */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  /** translation key of the user-facing text; its {minutes} placeholder is filled from translationValues */
  get translationKey(): string {
    if (this.kind !== 'tooManyRequests') return `errors.${this.kind}`;
    const wait = this.retryAfter;
    return wait === undefined || wait < 60
      ? `errors.tooManyRequests.${wait === undefined ? 'later' : 'soon'}`
      : pluralKey('errors.tooManyRequests', this.translationValues.minutes);
  }

  get translationValues(): { minutes: number } {
    return { minutes: Math.ceil((this.retryAfter ?? 0) / 60) };
  }
}

export const processNotFound = () =>
  new CorbadoError('processNotFound', 'Process not found', true, false, 'process_not_available');

export const unhandledBackendError = (type: string) =>
  new CorbadoError('unhandledBackendError', `Unhandled backend error (${type})`, false, false, type);

/** The server refused the call for now (HTTP 429): the visitor waits, nothing else changes. */
export const tooManyRequests = (retryAfter?: number) =>
  new CorbadoError('tooManyRequests', 'Too many requests', true, false, 'too_many_requests', retryAfter);

export const unhandledFrontendError = (cause: unknown) =>
  cause instanceof CorbadoError
    ? cause
    : new CorbadoError(
        'unhandledFrontendError',
        `Unhandled frontend error: ${cause instanceof Error ? cause.message : String(cause)}`,
        false,
      );

export const passkeyChallengeCancelled = () =>
  new CorbadoError('passkeyChallengeCancelled', 'Passkey challenge cancelled', true);

export const passkeyAlreadyExists = () =>
  new CorbadoError('passkeyAlreadyExists', 'Passkey for this device already exists', true);

export const passkeysNotSupported = () =>
  new CorbadoError('passkeysNotSupported', 'Passkeys are not supported for this device', true);

export const noPasskeyAvailable = () =>
  new CorbadoError('noPasskeyAvailable', 'No passkey available', true);

export const invalidProjectId = () =>
  new CorbadoError('invalidProjectId', 'Invalid project ID', false);

export const invalidBlockType = (block: string) =>
  new CorbadoError('invalidBlockType', `Invalid block type: ${block}`, false);

export const invalidScreen = (name: string) =>
  new CorbadoError('invalidScreen', `Invalid screen: ${name}`, false);

export const invalidUserHandleType = () =>
  new CorbadoError('invalidUserHandleType', 'Invalid user handle type', false);

export const missingProvider = () =>
  new CorbadoError('missingProvider', 'Corbado components must be placed inside the provider context', false);

export const emailLinkTokenMissing = () =>
  new CorbadoError('emailLinkTokenMissing', 'The e-mail link has no token', true);

/** A browser WebAuthn failure: SecurityError and anything unknown keep the browser's message. */
export const webauthnError = (message: string) => new CorbadoError('webauthn', message, true);

/** The user closed "Confirm it's you": the action is not taken, and nothing is shown. */
export const recentLoginCancelled = () => new CorbadoError('recentLoginCancelled', 'Recent log-in cancelled', true, true);
