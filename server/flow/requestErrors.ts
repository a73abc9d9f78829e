// In-band business errors (`requestError` {code, message}) in the project's language (English for a
// language other than en and de: the widget shows its own text for each code in any case).
import type { RequestError } from '../../src/core/api/types.ts';
import type { IdentifierType } from '../config/projectConfig.ts';
import type { Language } from '../config/projectConfig.ts';

export type { RequestError };

const TEXTS: Record<string, { en: string; de: string }> = {
  missing_full_name: { en: 'Please enter your full name.', de: 'Bitte gib deinen vollständigen Namen ein.' },
  invalid_full_name: {
    en: 'The name contains invisible or control characters. Please type it again.',
    de: 'Der Name enthält unsichtbare Zeichen oder Steuerzeichen. Bitte gib ihn erneut ein.',
  },
  identifier_already_in_use: { en: 'This identifier is already in use.', de: 'Diese Angabe wird bereits verwendet.' },
  identifier_invalid_format: { en: 'The format is invalid.', de: 'Das Format ist ungültig.' },
  missing_identifier_type: { en: 'This field is required.', de: 'Dieses Feld ist erforderlich.' },
  identifier_not_allowed: { en: 'This identifier cannot be used here.', de: 'Diese Angabe kann hier nicht verwendet werden.' },
  login_identifier_unknown_user: { en: "Couldn't find your account.", de: 'Wir konnten dein Konto nicht finden.' },
  invalid_conditional_ui_login: {
    en: 'This passkey is no longer valid. Please enter your identifier.',
    de: 'Dieser Passkey ist nicht mehr gültig. Bitte gib deine Kennung ein.',
  },
  // the widget's catalogue knows this code by its camel-case name (SPEC.md section 8)
  conditionalUiUnconfirmedCredential: {
    en: 'This passkey is not confirmed yet. Please log in once with your e-mail address to confirm it.',
    de: 'Dieser Passkey ist noch nicht bestätigt. Bitte melde dich einmal mit deiner E-Mail-Adresse an, um ihn zu bestätigen.',
  },
  no_fallback_available: {
    en: 'This app requires a passkey. Please use a device that supports passkeys.',
    de: 'Diese App erfordert einen Passkey. Bitte nutze ein Gerät, das Passkeys unterstützt.',
  },
  'invalid_challenge_solution_email-otp': { en: 'The code is invalid or expired.', de: 'Der Code ist ungültig oder abgelaufen.' },
  'invalid_challenge_solution_phone-otp': {
    en: 'The provided one-time passcode is not valid.',
    de: 'Der eingegebene Einmalcode ist ungültig.',
  },
  'invalid_challenge_solution_email-link': { en: 'This link has expired.', de: 'Dieser Link ist abgelaufen.' },
  verification_retry_too_early: {
    en: 'Please wait a moment before requesting a new code.',
    de: 'Bitte warte einen Moment, bevor du einen neuen Code anforderst.',
  },
  passkey_verification_failed: {
    en: 'The passkey could not be verified.',
    de: 'Der Passkey konnte nicht überprüft werden.',
  },
  social_provider_not_enabled: {
    en: 'Sign-in with this provider is not enabled for this app.',
    de: 'Die Anmeldung mit diesem Anbieter ist für diese App nicht aktiviert.',
  },
  social_login_cancelled: {
    en: 'The sign-in with the provider was cancelled.',
    de: 'Die Anmeldung beim Anbieter wurde abgebrochen.',
  },
  social_login_failed: {
    en: 'The sign-in with the provider did not work. Please try again.',
    de: 'Die Anmeldung beim Anbieter hat nicht funktioniert. Bitte versuche es erneut.',
  },
  social_account_conflict: {
    en: 'An account with this e-mail address already exists. Please log in with your e-mail address first.',
    de: 'Es gibt bereits ein Konto mit dieser E-Mail-Adresse. Bitte melde dich zuerst mit deiner E-Mail-Adresse an.',
  },
  social_signup_disabled: {
    en: 'There is no account for this e-mail address, and this app does not allow sign-ups.',
    de: 'Für diese E-Mail-Adresse gibt es kein Konto, und diese App erlaubt keine Registrierung.',
  },
  signup_field_required: { en: 'Please fill in or accept this field.', de: 'Bitte fülle dieses Feld aus oder stimme zu.' },
  signup_field_invalid: { en: 'This entry is not in the expected form.', de: 'Diese Angabe hat nicht die erwartete Form.' },
  signup_field_outdated: {
    en: 'This text has changed. Please read it again and confirm.',
    de: 'Dieser Text hat sich geändert. Bitte lies ihn erneut und bestätige.',
  },
  social_signup_fields_missing: {
    en: 'To create an account, please fill in the sign-up form first.',
    de: 'Um ein Konto zu erstellen, fülle bitte zuerst das Registrierungsformular aus.',
  },
  unexpected_step: {
    en: 'This action is not possible at this step.',
    de: 'Diese Aktion ist in diesem Schritt nicht möglich.',
  },
  email_link_other_browser: {
    en: 'Open this link in the browser where you asked for it.',
    de: 'Öffne diesen Link in dem Browser, in dem du ihn angefordert hast.',
  },
  email_link_declined: { en: 'The request was declined.', de: 'Die Anfrage wurde abgelehnt.' },
};

/** Every code the server sends as a request error; the widget has a text of its own for each (errors.<code>). */
export const REQUEST_ERROR_CODES: readonly string[] = Object.keys(TEXTS);

const FIELD_NAMES: Record<IdentifierType, { en: string; de: string }> = {
  email: { en: 'e-mail address', de: 'E-Mail-Adresse' },
  phone: { en: 'phone number', de: 'Telefonnummer' },
  username: { en: 'username', de: 'Benutzername' },
};

export function requestError(code: keyof typeof TEXTS | string, language: Language, type?: IdentifierType): RequestError {
  const lang = language === 'de' ? 'de' : 'en';
  const text = TEXTS[code]?.[lang] ?? code;
  if (!type) return { code, message: text };
  const field = FIELD_NAMES[type][lang];
  return { code, message: lang === 'de' ? `${field}: ${text}` : `${field[0]!.toUpperCase()}${field.slice(1)}: ${text}` };
}
