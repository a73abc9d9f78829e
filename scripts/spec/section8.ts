import type { SpecRule } from './types';

/** SPEC §8. Every rule of the section; a test pins each through `[spec <id>]` in its title. */
export const rules: SpecRule[] = [
  { id: '8.recoverable', rule: 'Errors are recoverable or non-recoverable.' },
  { id: '8.ignorable', rule: 'Some errors are flagged ignorable: they are not shown to the user.' },

  // Backend error classification
  { id: '8.process-not-found', rule: 'Backend error type process_not_available becomes a "process not found" error.' },
  { id: '8.unhandled-backend', rule: 'Any other backend error type, or a response without data, becomes an unhandled backend error.' },
  { id: '8.unhandled-frontend', rule: 'Unknown frontend errors are reported as unhandled frontend errors.' },

  // Browser passkey errors
  { id: '8.webauthn-cancelled', rule: 'NotAllowedError and AbortError become "Passkey challenge cancelled" (recoverable).' },
  { id: '8.webauthn-other', rule: 'SecurityError and any other browser passkey error become a generic error carrying the browser message.' },

  // Other named errors
  {
    id: '8.passkey-already-exists',
    rule: '"Passkey for this device already exists" is shown as a dialog with header, body and confirm button.',
  },
  { id: '8.passkeys-not-supported', rule: '"Passkeys are not supported for this device" is shown as the same kind of dialog.' },
  { id: '8.no-passkey-available', rule: '"No passkey available" (a passkey log-in that finds no passkey).' },
  { id: '8.invalid-project-id', rule: '"Invalid project ID".' },
  { id: '8.invalid-block-type', rule: '"Invalid block type" for an unknown block.' },
  { id: '8.invalid-screen', rule: '"Invalid screen: {name}" for an invalid screen name.' },
  { id: '8.invalid-user-handle-type', rule: '"Invalid user handle type" (a passkey-append block with an identifier type the client does not know).' },
  { id: '8.missing-provider', rule: 'A message telling that components must be placed inside the provider context, when it is missing.' },
  { id: '8.load-failures', rule: 'Failures to load passkeys or the user throw (are surfaced) unless flagged ignorable.' },
  { id: '8.global-error', rule: 'The initial-load error is stored as globalError.' },
  { id: '8.error-boundary', rule: 'An error boundary shows "Something went wrong. Please try again in a few moments." when a global error exists.' },
  {
    id: '8.unexpected-popup',
    rule: 'An unexpected-error popup shows the translated message if any, otherwise a text mentioning customer support if a support address is configured, otherwise a generic text.',
  },

  // Server error codes and their English messages
  { id: '8.code-key', rule: 'Server errors carry a code, shown through the translation key errors.{code} or errors.{code}.{identifier type}.' },
  { id: '8.identifier-already-in-use', rule: 'identifier_already_in_use: username, e-mail or phone "already taken, try another or log in".' },
  { id: '8.identifier-invalid-format', rule: 'identifier_invalid_format: as the validation rules say, per identifier type.' },
  { id: '8.unknown-account', rule: 'identifier_not_allowed, login_identifier_unknown_user: "Couldn\'t find your account".' },
  { id: '8.invalid-conditional-ui-login', rule: 'invalid_conditional_ui_login: the passkey is no longer valid, enter the identifier manually.' },
  { id: '8.no-fallback-available', rule: 'no_fallback_available: the app requires passkey authentication, use a compatible device.' },
  { id: '8.user-already-exists', rule: 'userAlreadyExists: e-mail in use, log in instead.' },
  { id: '8.passkey-already-exists-text', rule: 'passkeyAlreadyExists: a passkey for this device already exists.' },
  { id: '8.passkey-challenge-cancelled-text', rule: 'passkeyChallengeCancelled: cancelled challenge.' },
  { id: '8.unknown-user', rule: 'unknownUser: "User does not exist".' },
  { id: '8.no-passkey-available-text', rule: 'noPasskeyAvailable: no passkey available.' },
  { id: '8.invalid-passkey', rule: 'invalidPasskey: log in with e-mail instead.' },
  { id: '8.invalid-code-email', rule: 'invalid_challenge_solution, e-mail code: "The code is invalid or expired".' },
  { id: '8.invalid-link-email', rule: 'invalid_challenge_solution, e-mail link: "This link has expired".' },
  { id: '8.invalid-code-phone', rule: 'invalid_challenge_solution, phone code: "The provided one-time passcode is not valid".' },
  { id: '8.conditional-ui-texts', rule: 'noConditionalUiSupport, conditionalUiUnconfirmedCredential: own messages.' },
  { id: '8.unknown', rule: 'unknown: "Something went wrong. Please try again later".' },
  {
    id: '8.unexpected-error',
    rule: 'unexpectedError, componentUnavailable: try later or refresh, with an optional support e-mail shown as {email}.',
  },
  { id: '8.german', rule: 'German equivalents of the error texts exist.' },
  { id: '8.german-otp-token', rule: 'German texts for invalidOtp and invalidToken ("token no longer valid") exist too.' },
  {
    id: '8.http-status',
    rule: 'Reaction to HTTP status codes is not shown.',
    reason: 'SPEC says the reaction to HTTP status codes "is not shown": it states no behaviour a test could hold the widget to.',
  },
];
