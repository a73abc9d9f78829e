// The error catalogue (SPEC.md section 8): what kind of error each failure becomes, and the browser's
// passkey failures as the catalogue names them.
import { describe, expect, it } from 'vitest';
import {
  CorbadoError,
  invalidProjectId,
  noPasskeyAvailable,
  passkeyAlreadyExists,
  passkeyChallengeCancelled,
  passkeysNotSupported,
  processNotFound,
  tooManyRequests,
  unhandledBackendError,
  unhandledFrontendError,
} from './errors';
import { mapWebAuthnError } from './webauthn/webauthn';

describe('the error catalogue', () => {
  it('[spec 8.recoverable] tells recoverable errors from the non-recoverable ones', () => {
    for (const error of [processNotFound(), passkeyChallengeCancelled(), passkeyAlreadyExists(), passkeysNotSupported(), noPasskeyAvailable(), tooManyRequests()]) {
      expect(error.recoverable, error.kind).toBe(true);
    }
    for (const error of [unhandledBackendError('invalid_request'), unhandledFrontendError(new TypeError('x')), invalidProjectId()]) {
      expect(error.recoverable, error.kind).toBe(false);
    }
  });

  it('[spec 8.unhandled-frontend] reports an unknown frontend error as an unhandled frontend error, and keeps a catalogue error as it is', () => {
    const error = unhandledFrontendError(new TypeError('undefined is not a function'));
    expect(error).toBeInstanceOf(CorbadoError);
    expect(error).toMatchObject({ kind: 'unhandledFrontendError', recoverable: false, ignorable: false });
    expect(error.message).toContain('undefined is not a function');
    expect(unhandledFrontendError('a string thrown')).toMatchObject({ kind: 'unhandledFrontendError', message: expect.stringContaining('a string thrown') });
    const known = passkeysNotSupported();
    expect(unhandledFrontendError(known)).toBe(known);
  });
});

describe('browser passkey errors', () => {
  it('[spec 8.webauthn-cancelled] NotAllowedError and AbortError become "Passkey challenge cancelled", recoverable', () => {
    for (const name of ['NotAllowedError', 'AbortError']) {
      const error = mapWebAuthnError(new DOMException('The operation either timed out or was not allowed.', name));
      expect(error).toMatchObject({ kind: 'passkeyChallengeCancelled', message: 'Passkey challenge cancelled', recoverable: true, ignorable: false });
    }
  });

  it('[spec 8.webauthn-other] SecurityError and any other error become a generic error carrying the browser message', () => {
    const security = mapWebAuthnError(new DOMException('The relying party ID is not a registrable domain suffix of, nor equal to the current domain.', 'SecurityError'));
    expect(security).toMatchObject({ kind: 'webauthn', message: 'The relying party ID is not a registrable domain suffix of, nor equal to the current domain.' });
    expect(mapWebAuthnError(new DOMException('Not supported here', 'NotSupportedError'))).toMatchObject({ kind: 'webauthn', message: 'Not supported here' });
    expect(mapWebAuthnError(new TypeError('bad options'))).toMatchObject({ kind: 'webauthn', message: 'bad options' });
    expect(mapWebAuthnError('odd')).toMatchObject({ kind: 'webauthn', message: 'odd' });
  });

  it('InvalidStateError (the device holds one of the excluded credentials) becomes "Passkey for this device already exists"', () => {
    const error = mapWebAuthnError(new DOMException('The authenticator contains one of the credentials already registered', 'InvalidStateError'));
    expect(error).toMatchObject({ kind: 'passkeyAlreadyExists', message: 'Passkey for this device already exists', recoverable: true });
  });
});
