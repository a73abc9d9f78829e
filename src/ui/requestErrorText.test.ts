// The server's error codes as the visitor reads them (SPEC.md section 8, "Server error codes and their
// English messages", and the German equivalents): errors.{code}.{identifier type}, then errors.{code}.
import { afterEach, describe, expect, it } from 'vitest';
import type { IdentifierType } from '../core/api/types';
import { configureI18n, hasText, t } from '../core/i18n/i18n';
import { requestErrorText } from './requestErrorText';

const shown = (code: string, identifierType?: IdentifierType, message = '') => requestErrorText({ code, message }, identifierType);
const types: IdentifierType[] = ['email', 'phone', 'username'];

/** Every code of SPEC's table, as the widget's texts name it (the challenge solution per method). */
const tableCodes = [
  'identifier_already_in_use',
  'identifier_invalid_format',
  'identifier_not_allowed',
  'login_identifier_unknown_user',
  'invalid_conditional_ui_login',
  'no_fallback_available',
  'userAlreadyExists',
  'passkeyAlreadyExists',
  'passkeyChallengeCancelled',
  'unknownUser',
  'noPasskeyAvailable',
  'invalidPasskey',
  'invalid_challenge_solution_email-otp',
  'invalid_challenge_solution_email-link',
  'invalid_challenge_solution_phone-otp',
  'noConditionalUiSupport',
  'conditionalUiUnconfirmedCredential',
  'unknown',
  'unexpectedError',
  'componentUnavailable',
  'invalidOtp',
  'invalidToken',
];
/** The codes SPEC words per identifier type. */
const perType = ['identifier_already_in_use', 'identifier_invalid_format'];

/** The keys of one code: its variants per identifier type, or the code itself. */
const keysOf = (code: string) => (perType.includes(code) ? types.map((type) => `errors.${code}.${type}`) : [`errors.${code}`]);

afterEach(() => configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false }));

describe('server error codes in English', () => {
  it('[spec 8.code-key] shows errors.{code}.{identifier type} when it exists, then errors.{code}, then the server message', () => {
    configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false });
    expect(shown('identifier_already_in_use', 'phone')).toBe(t('errors.identifier_already_in_use.phone'));
    expect(shown('login_identifier_unknown_user', 'email')).toBe(t('errors.login_identifier_unknown_user'));
    expect(shown('some_new_code', 'email', 'What the server said')).toBe('What the server said');
    expect(shown('some_new_code')).toBe(t('errors.unknown'));
    expect(requestErrorText(undefined)).toBeUndefined();
  });

  it('[spec 8.identifier-already-in-use] an identifier already in use: taken, try another or log in, per identifier type', () => {
    expect(shown('identifier_already_in_use', 'email')).toBe('This email address is already taken. Please try another one or log in.');
    expect(shown('identifier_already_in_use', 'phone')).toBe('This phone number is already taken. Please try another one or log in.');
    expect(shown('identifier_already_in_use', 'username')).toBe('This username is already taken. Please try another one or log in.');
  });

  it('[spec 8.identifier-invalid-format] an identifier in the wrong format: the validation rule of its type', () => {
    expect(shown('identifier_invalid_format', 'email')).toBe('Please enter a valid email address.');
    expect(shown('identifier_invalid_format', 'phone')).toBe('Please enter a valid phone number.');
    expect(shown('identifier_invalid_format', 'username')).toBe('Please enter a valid username: 4 to 32 characters, only letters, digits, "-" and "_".');
  });

  it(`[spec 8.unknown-account] identifier_not_allowed and login_identifier_unknown_user: "Couldn't find your account"`, () => {
    expect(shown('identifier_not_allowed', 'email')).toBe("Couldn't find your account.");
    expect(shown('login_identifier_unknown_user', 'username')).toBe("Couldn't find your account.");
  });

  it('[spec 8.invalid-conditional-ui-login] a passkey no longer valid: enter the identifier by hand', () => {
    expect(shown('invalid_conditional_ui_login')).toBe('This passkey is no longer valid. Please enter your email address or username.');
  });

  it('[spec 8.no-fallback-available] no fallback: the app requires passkeys, use a device that has them', () => {
    expect(shown('no_fallback_available')).toBe('This app requires passkeys. Please use a device that supports them.');
  });

  it('[spec 8.user-already-exists] userAlreadyExists: the e-mail is in use, log in instead', () => {
    expect(shown('userAlreadyExists')).toBe('This email address is already in use. Please log in instead.');
  });

  it('[spec 8.passkey-already-exists-text] passkeyAlreadyExists: a passkey for this device already exists', () => {
    expect(shown('passkeyAlreadyExists')).toBe('A passkey for this device already exists.');
  });

  it('[spec 8.passkey-challenge-cancelled-text] passkeyChallengeCancelled: the challenge was cancelled', () => {
    expect(shown('passkeyChallengeCancelled')).toBe('The passkey request was cancelled or timed out.');
  });

  it('[spec 8.unknown-user] unknownUser: "User does not exist"', () => {
    expect(shown('unknownUser')).toBe('User does not exist');
  });

  it('[spec 8.no-passkey-available-text] noPasskeyAvailable: no passkey available', () => {
    expect(shown('noPasskeyAvailable')).toBe('No passkey is available for this account on this device.');
  });

  it('[spec 8.invalid-passkey] invalidPasskey: log in with the e-mail address instead', () => {
    expect(shown('invalidPasskey')).toBe('This passkey does not work. Please log in with your email address instead.');
  });

  it('[spec 8.invalid-code-email] a wrong e-mail code: "The code is invalid or expired"', () => {
    expect(shown('invalid_challenge_solution_email-otp', 'email')).toBe('The code is invalid or expired');
  });

  it('[spec 8.invalid-link-email] a dead e-mail link: "This link has expired"', () => {
    expect(shown('invalid_challenge_solution_email-link', 'email')).toBe('This link has expired');
  });

  it('[spec 8.invalid-code-phone] a wrong SMS code: "The provided one-time passcode is not valid"', () => {
    expect(shown('invalid_challenge_solution_phone-otp', 'phone')).toBe('The provided one-time passcode is not valid');
  });

  it('[spec 8.conditional-ui-texts] noConditionalUiSupport and conditionalUiUnconfirmedCredential have messages of their own', () => {
    const noSupport = shown('noConditionalUiSupport');
    const unconfirmed = shown('conditionalUiUnconfirmedCredential');
    expect(hasText('errors.noConditionalUiSupport') && hasText('errors.conditionalUiUnconfirmedCredential')).toBe(true);
    expect(new Set([noSupport, unconfirmed, t('errors.unknown')]).size).toBe(3);
  });

  it('[spec 8.unknown] unknown: "Something went wrong. Please try again later"', () => {
    expect(shown('unknown')).toBe('Something went wrong. Please try again later.');
  });

  it('[spec 8.unexpected-error] unexpectedError and componentUnavailable: try later or refresh, the support address as {email}', () => {
    expect(t('errors.unexpectedError', { email: 'help@shop.example' })).toBe(
      'Something went wrong. Please try again later, refresh the page, or contact help@shop.example.',
    );
    expect(t('errors.unexpectedErrorNoSupport')).toBe('Something went wrong. Please try again later or refresh the page.');
    expect(shown('componentUnavailable')).toBe('This service is unavailable right now. Please try again later or refresh the page.');
    // the component-unavailable page names the support address the same way
    expect(t('componentUnavailable.bodyWithSupport', { email: 'help@shop.example' })).toContain('contact help@shop.example');
  });
});

describe('server error codes in German', () => {
  it('[spec 8.german] every code of the table has a German text of its own, with the variants per identifier type', () => {
    for (const code of tableCodes) {
      for (const key of keysOf(code)) {
        expect(hasText(key), key).toBe(true);
        const english = t(key, { email: 'help@shop.example' }, 'en');
        const german = t(key, { email: 'help@shop.example' }, 'de');
        expect(german, key).not.toBe(english);
        expect(german, key).not.toBe(key);
      }
    }
    configureI18n({ defaultLanguage: 'de', autoDetectLanguage: false });
    expect(shown('identifier_already_in_use', 'phone')).toBe(t('errors.identifier_already_in_use.phone', {}, 'de'));
    expect(shown('identifier_already_in_use', 'phone')).toMatch(/Telefonnummer/);
    expect(shown('login_identifier_unknown_user', 'email')).toBe(t('errors.login_identifier_unknown_user', {}, 'de'));
  });

  it('[spec 8.german-otp-token] invalidOtp and invalidToken ("token no longer valid") in German too', () => {
    expect(t('errors.invalidToken', {}, 'en')).toMatch(/no longer valid/);
    configureI18n({ defaultLanguage: 'de', autoDetectLanguage: false });
    expect(shown('invalidOtp')).toBe(t('errors.invalidOtp', {}, 'de'));
    expect(shown('invalidOtp')).not.toBe(t('errors.invalidOtp', {}, 'en'));
    expect(shown('invalidToken')).toBe(t('errors.invalidToken', {}, 'de'));
    expect(shown('invalidToken')).toMatch(/nicht mehr gültig/);
  });
});
