import type { SpecRule } from './types';

/** SPEC §3. Every rule of the section; a test pins each through `[spec <id>]` in its title. */
export const rules: SpecRule[] = [
  { id: '3.auth-process-stored', rule: 'Auth process: id, expiresAt (seconds since epoch), frontendApiUrl, kept in local storage.' },
  { id: '3.auth-process-valid', rule: 'An auth process is valid only while expiresAt is later than the current time.' },
  { id: '3.short-session-payload', rule: 'Short session: a signed token whose payload holds email, name, orig, sub, exp.' },
  { id: '3.short-session-stored', rule: 'The short session is kept in local storage.' },
  {
    id: '3.short-session-cookie',
    rule: 'The short session is optionally also kept in a cookie, with domain, secure, sameSite, path and lifetimeSeconds from the server session configuration; the cookie is off by default.',
  },
  { id: '3.long-session-stored', rule: 'Long session: a token, kept in local storage.' },
  { id: '3.client-handle', rule: 'Client handle: an opaque value, kept in local storage. The server can issue a new one.' },
  { id: '3.passkey-append-shown-marker', rule: 'Passkey-append-shown marker: a timestamp in seconds, kept in local storage.' },
  { id: '3.social-login-key', rule: 'The chosen social provider is kept under the key socialLogin while loading is in progress.' },
  { id: '3.storage-keys', rule: 'The storage keys cover: auth process, client handle, passkey-append-shown, short session, long session.' },
  {
    id: '3.process-init-request',
    rule: 'Process init request: clientInformation {bluetoothAvailable, canUsePasskeys, clientEnvHandle, javaScriptHighEntropy {platform, mobile, platformVersion}}, passkeyAppendShown, preferredBlock.',
  },
  { id: '3.process-init-response', rule: 'Process init response: token, expiresAt, processResponse.common.frontendApiUrl, newClientEnvHandle.' },
  {
    id: '3.response-block-body',
    rule: 'A server response holds blockBody and common; blockBody: block, authType, data, alternatives, error, continueOnOtherDevice. An error has a code.',
  },
  { id: '3.block-data-fields', rule: 'Data may hold identifierValue, identifiers (list with identifier), socialData {status, oauthUrl}, challenge.' },
  {
    id: '3.email-link-payload',
    rule: 'E-mail-link payload (decoded from the URL): process {id, expires, frontendApiUrl}, blockData {identifier, retryNotBefore, verificationMethod}, authType (0 means login, otherwise signup).',
  },
  { id: '3.enum-identifier-types', rule: 'Identifier types: email, phone, username.' },
  { id: '3.enum-verification-types', rule: 'Verification types: email-link, email-otp, phone-otp.' },
  { id: '3.enum-auth-types', rule: 'Auth types: signup, login.' },
  { id: '3.enum-social-status', rule: 'Social status: initial, started, finished.' },
  { id: '3.enum-social-providers', rule: 'Social providers: google, microsoft, github.' },
  {
    id: '3.signup-init-data',
    rule: 'Signup-init data: fullName, email, phone, userName, each {value, translated error}; socialData {providers, oAuthUrl, started, finished}.',
  },
  {
    id: '3.login-init-data',
    rule: 'Login-init data: loginIdentifier, loginIdentifierError, isPhoneFocused, emailEnabled, usernameEnabled, phoneEnabled, conditionalUIChallenge, socialData.',
  },
  {
    id: '3.verify-block-data',
    rule: 'E-mail and phone block data: verificationMethod (email-otp or email-link, e-mail only), identifier, error, retryNotBefore (unix seconds), translatedError.',
  },
  {
    id: '3.passkey-append-data',
    rule: 'Passkey-append block data: identifierType (email, phone or username), identifierValue, userHandle and userHandleType (web-js 3.5 takes both from identifierValue and identifierType).',
  },
  { id: '3.passkey-append-can-be-skipped', rule: 'Passkey-append canBeSkipped: true when a completed alternative exists.' },
  { id: '3.passkey-append-fallbacks', rule: 'Passkey-append availableFallbacks: each a label plus an action.' },
  { id: '3.passkey-verify-data', rule: 'Passkey-verify data: availableFallbacks, identifierValue.' },
  { id: '3.continue-on-other-env-data', rule: 'Continue-on-other-env data: reason.' },
  { id: '3.completed-block', rule: 'Completed block: authType, data, and a pair of shortSession and longSession.' },
  { id: '3.verification-status-response', rule: 'Verification-status response: blockBody with continueOnOtherDevice, block, error.' },
  { id: '3.passkey-append-start-response', rule: 'Passkey-append-start response: attestationOptions, appendNotAllowedReason, newClientEnvHandle.' },
  {
    id: '3.passkey-fields',
    rule: 'Passkey: id (credential id), created, lastUsed, status, backupState, sourceBrowser, sourceOS, authenticatorAAGUID.',
  },
  {
    id: '3.full-user',
    rule: 'Full user: fullName, identifiers (type, value, status verified or other), socialAccounts (providerType, fullName, identifierValue).',
  },
  { id: '3.session-context', rule: 'Session context: corbadoApp, shortSession, loading, isAuthenticated, user, globalError.' },
  { id: '3.authenticator-entry', rule: 'Authenticator table entry: name, icon_dark, icon_light.' },
];
