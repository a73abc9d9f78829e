import type { SpecRule } from './types';

/** SPEC §9. Every rule of the section; a test pins each through `[spec <id>]` in its title. */
export const rules: SpecRule[] = [
  { id: '9.username-length', rule: 'Username length: 4 to 32.' },
  { id: '9.otp-length', rule: 'One-time code length: 6.' },
  { id: '9.phone-input-max', rule: 'Phone input maximum: 13 characters.' },
  { id: '9.phone-national-digits', rule: 'Phone national digits: 2 to 17.' },
  { id: '9.phone-extension', rule: 'Phone extension: up to 20 digits.' },
  { id: '9.phone-raw-cut', rule: 'Phone raw input cut: 250 characters.' },
  { id: '9.default-country', rule: 'Default country: US.' },
  { id: '9.country-list', rule: 'Country list size: about 250.' },
  { id: '9.api-timeout', rule: 'Default API timeout: 30000 ms.' },
  { id: '9.session-check-interval', rule: 'Session check interval: 10000 ms.' },
  { id: '9.refresh-threshold', rule: 'Refresh threshold: 60 s of remaining validity.' },
  {
    id: '9.email-poll',
    rule: 'E-mail status poll: every 2000 ms, at most 120 polls.',
    deviation: 'Every 2000 ms for as long as the link is valid (10 minutes), not at most 120 polls: see 4.email-poll.',
  },
  { id: '9.resend-wait-email', rule: 'Default resend wait (e-mail): 30 s.' },
  { id: '9.resend-retry-not-before', rule: 'Resend timing is governed by the server-supplied retryNotBefore.' },
  { id: '9.spinner-delay', rule: 'Loading spinner delay: 100 ms.' },
  { id: '9.short-session-cookie', rule: 'Short-session cookie: off by default.' },
  { id: '9.languages', rule: 'Languages: en, de (fallback en).' },
  { id: '9.dark-mode', rule: 'Dark mode: on, off, auto (default auto).' },
  { id: '9.social-compact', rule: 'Social section layout: compact icon-only when more than 2 providers.' },
  {
    id: '9.translation-loader',
    rule: 'Translation loader: 10 parallel reads, 5 retries, 350 ms base retry delay doubling each time.',
    reason:
      'Contradicted by SPEC §1, "Translations are bundled, not fetched over the network" (1.translations-bundled): the widget has no translation loader. Both languages are in the bundle (src/core/i18n/*.json) and are read without a request, so there are no reads to run in parallel or retry.',
  },
  {
    id: '9.fees-page-sizes',
    rule: 'Fees and page sizes are not shown.',
    reason: 'SPEC states no fee or page size, so there is no value to check.',
  },
];
