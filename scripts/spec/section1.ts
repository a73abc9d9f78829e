import type { SpecRule } from './types';

/** SPEC §1. Every rule of the section; a test pins each through `[spec <id>]` in its title. */
export const rules: SpecRule[] = [
  {
    id: '1.audience',
    rule: 'Audience: end users of a host web application: anonymous visitors going through signup or login, or logged-in users managing their own passkeys and profile.',
  },
  { id: '1.identifiers', rule: 'A user is identified by e-mail, phone or username.' },
  { id: '1.auth-passkey', rule: 'Ways to authenticate: passkey (WebAuthn).' },
  { id: '1.auth-email-otp', rule: 'Ways to authenticate: e-mail one-time code.' },
  { id: '1.auth-email-link', rule: 'Ways to authenticate: e-mail link.' },
  { id: '1.auth-sms-otp', rule: 'Ways to authenticate: phone one-time code (SMS).' },
  { id: '1.auth-social', rule: 'Ways to authenticate: social sign-in with the provider types google, microsoft and github.' },
  { id: '1.view-auth', rule: 'The host loads the library first, then mounts a combined auth view (signup and login) into a page element.' },
  { id: '1.view-signup', rule: 'The host can mount a signup-only view.' },
  { id: '1.view-login', rule: 'The host can mount a login-only view.' },
  { id: '1.view-passkey-list', rule: 'The host can mount a passkey list view.' },
  { id: '1.view-user-details', rule: 'The host can mount a user details view.' },
  { id: '1.logout', rule: 'The host can also trigger logout.' },
  { id: '1.load-first', rule: 'Any mount call made before the library was loaded fails with a message of the form "Please call load() before ...".' },
  {
    id: '1.host-state',
    rule: 'The library exposes the current user, the short session and the authenticated flag. Each has a change subscription.',
  },
  { id: '1.option-languages', rule: 'Host configuration options: defaultLanguage, autoDetectLanguage, customTranslations.' },
  { id: '1.option-dark-mode', rule: 'Host configuration option darkMode, default auto.' },
  { id: '1.option-theme', rule: 'Host configuration option theme.' },
  { id: '1.option-support-email', rule: 'Host configuration option customerSupportEmail.' },
  { id: '1.option-dev-mode', rule: 'Host configuration option isDevMode (preview mode).' },
  {
    id: '1.project-id',
    rule: 'Each project is identified by a project identifier that must match "pro-" followed by digits. Otherwise initialisation fails with "Invalid project ID".',
  },
  { id: '1.footer-badge', rule: 'A footer badge reads "Secured by" plus the provider\'s brand and links to the provider\'s site.' },
  { id: '1.footer-badge-after-init', rule: 'The footer badge appears once the flow has initialised.' },
  { id: '1.languages', rule: 'Languages: English and German; English is the fallback.' },
  { id: '1.language-autodetect', rule: 'When autodetect is on, the primary part of the browser language is used.' },
  { id: '1.translations-bundled', rule: 'Translations are bundled, not fetched over the network.' },
  { id: '1.dark-mode', rule: 'Dark mode has three settings: on, off, auto (follows the system colour scheme). It toggles a body class named cb-dark.' },
];
