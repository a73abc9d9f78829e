import type { SpecRule } from './types';

/** SPEC §5. Every rule of the section; a test pins each through `[spec <id>]` in its title. */
export const rules: SpecRule[] = [
  { id: '5.project-id', rule: 'Project identifier: "pro-" followed by digits.' },
  { id: '5.username', rule: 'Username: 4 to 32 characters, only alphanumerics, "-" or "_".' },
  { id: '5.email-format', rule: 'E-mail: must be in a valid format.' },
  { id: '5.phone-format', rule: 'Phone: must be in a valid format.' },
  { id: '5.full-name', rule: 'Full name: required. Message: "Please enter a valid name."' },
  {
    id: '5.required-messages',
    rule: 'Required-identifier messages: "Please enter a username.", "Please enter an e-mail address.", "Please enter a phone number."',
  },
  { id: '5.otp-cells', rule: 'One-time code: 6 single-digit cells, digits only, exactly 6 characters before submit.' },
  { id: '5.otp-long-input', rule: 'A longer pasted or typed string takes its first 6 characters, accepted only if all are digits.' },
  { id: '5.otp-keys', rule: 'Backspace clears the current cell or moves to the previous one. Arrow keys move focus.' },
  {
    id: '5.phone-max-13',
    rule: 'Phone input: at most 13 characters. (The field shows the number formatted; the 13 count what is typed, the digits of the number, as web-js 3.5 counts the characters it keeps unformatted.)',
  },
  { id: '5.phone-numeric', rule: 'Phone input: numeric.' },
  { id: '5.phone-format-per-country', rule: 'Phone input: formatted automatically per country.' },
  { id: '5.phone-paste-country', rule: 'Pasting a full international number sets the country.' },
  { id: '5.phone-national-digits', rule: 'Number length 2 to 17 national digits.' },
  { id: '5.phone-extension', rule: 'An extension (marker such as ext or x) up to 20 digits.' },
  { id: '5.phone-raw-cut', rule: 'Raw input is cut at 250 characters.' },
  {
    id: '5.phone-template-15',
    rule: 'Formatting uses at most 15 digits for the template.',
    reason:
      'Not observable: the field takes at most 13 digits (5.phone-max-13), and no country\'s format has room for more than 15 national digits, so a longer number (only ever displayed, never typed) stays unformatted either way. phone.ts keeps the limit (TEMPLATE_DIGITS_MAX) for formats that would.',
  },
  { id: '5.phone-country-rules', rule: 'Per-country length and pattern rules apply.' },
  { id: '5.phone-parse-errors', rule: 'Parse error kinds: NOT_A_NUMBER, INVALID_COUNTRY, TOO_SHORT, TOO_LONG.' },
  { id: '5.edit-unchanged', rule: 'Edit e-mail, phone or username: an unchanged value returns to the verification screen without a call.' },
  { id: '5.edit-changed', rule: 'Edit e-mail, phone or username: otherwise the update is attempted and any returned error message is shown.' },
  { id: '5.edit-errors-per-identifier', rule: 'Edit e-mail, phone or username: errors are translated per identifier type.' },
  {
    id: '5.server-field-errors',
    rule: 'Server field errors are translated by code, with a per-identifier variant for e-mail, phone and username. (Their wording is not shown in SPEC.)',
  },
  { id: '5.email-link-params', rule: 'The e-mail link requires both URL parameters and a link token.' },
  { id: '5.email-link-token-missing', rule: 'The e-mail link: a missing token raises an error.' },
];
