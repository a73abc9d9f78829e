import type { SpecRule } from './types';

/** SPEC §2. Every rule of the section; a test pins each through `[spec <id>]` in its title. */
export const rules: SpecRule[] = [
  // Routes
  {
    id: '2.host-routes-not-shown',
    rule: "The host page's own routes are not shown.",
    reason: 'SPEC does not show them: they belong to the host application, and the widget adds none of its own beyond the hash (2.hash-mirrors-block).',
  },
  { id: '2.hash-mirrors-block', rule: 'The URL hash mirrors the current block.' },
  { id: '2.hash-aliases', rule: 'The hash "register" maps to signup-init and "login" maps to login-init. Any other hash is used as the block name.' },
  { id: '2.hash-switch', rule: 'Changing the hash switches to that block if it is the current block or one of its alternatives.' },
  { id: '2.hash-abort-confirmation', rule: 'Otherwise (changing the hash to another block) an abort confirmation is raised.' },
  { id: '2.history-push', rule: 'A history entry is pushed on each block change, except for the blocks completed and continue-on-other-env.' },
  {
    id: '2.email-link-params',
    rule: 'E-mail link verification is entered through two query parameters on the page URL: an encoded process and block payload, and a verification token. If either is missing, nothing happens.',
  },
  {
    id: '2.social-redirect',
    rule: 'Social sign-in sends the browser to a provider authorization address returned by the server. The return location is the current page address (origin plus path).',
  },
  // Flow blocks
  {
    id: '2.blocks',
    rule: 'Blocks: signup-init, login-init, passkey-verify, passkey-append, passkey-appended, email-verify, post-signup-email-verify, phone-verify, phone-collect, username-collect, social-verify, continue-on-other-env, completed, conditional-ui-completed.',
  },
  { id: '2.initial-screen-init', rule: 'signup-init and login-init start on their own screens.' },
  { id: '2.initial-screen-passkey-verify', rule: 'passkey-verify starts on passkey-background and can move to passkey-benefits or passkey-error.' },
  { id: '2.initial-screen-continue', rule: 'continue-on-other-env starts on continue-on-other-device.' },
  { id: '2.initial-screen-completed', rule: 'completed starts on end.' },
  { id: '2.screen-reset', rule: "The screen resets to the block's initial screen only when the block type changes." },
  {
    id: '2.social-verify',
    rule: 'social-verify is a block (log-in leads to social verify): the provider round trip has a screen while it is started or finished, and its error with a way back.',
  },
  // login-init
  { id: '2.login-init-layout', rule: 'login-init: header, subheader plus the app name, one identifier field and a submit button.' },
  {
    id: '2.login-init-field-kind',
    rule: 'login-init: the field is an e-mail field, a username field, a combined e-mail-or-username field, or a phone field with a country picker.',
  },
  { id: '2.login-init-phone-switch', rule: 'login-init: a link switches between the phone field and the other identifier field, but only when both kinds are enabled.' },
  { id: '2.login-init-social', rule: 'login-init: social provider buttons sit under a divider.' },
  { id: '2.login-init-signup-link', rule: 'login-init: a link to sign-up appears only when sign-up is enabled.' },
  // signup-init
  { id: '2.signup-init-fields', rule: 'signup-init: optional fields for full name, username, e-mail and phone, each shown only if the block data includes it.' },
  { id: '2.signup-init-actions', rule: 'signup-init: a submit button, social provider buttons, and a link back to login.' },
  { id: '2.missing-fields', rule: 'missing-fields asks for a username and/or a phone number that is still missing.' },
  // email-verify
  { id: '2.email-link-sent', rule: 'email-link-sent shows the e-mail with an edit icon, a resend button and buttons for opening mail apps.' },
  { id: '2.email-otp', rule: 'email-otp-verification takes a 6-digit code.' },
  { id: '2.email-link-verification', rule: 'email-link-verification: a spinner while the link is checked, or an error view whose header is the translated error.' },
  {
    id: '2.edit-email',
    rule: 'edit-email: a header, a submit button labelled by the verification method (e-mail code or e-mail link) and a cancel button.',
  },
  { id: '2.webmail-shortcuts', rule: 'Shortcut links to the e-mail client are offered for addresses of the major public webmail providers.' },
  // e-mail link success
  {
    id: '2.link-success-subheaders',
    rule: 'E-mail link success: different subheaders for the original tab and for the new tab; also used for the continue-on-other-env block.',
  },
  { id: '2.continue-reasons', rule: 'Reasons for continue-on-other-env: email-link-verified and process-already-completed (the default).' },
  // phone-verify
  { id: '2.phone-otp', rule: 'phone-otp takes a 6-digit code, shows the phone number with an edit icon and has a resend button.' },
  { id: '2.edit-phone', rule: 'edit-phone: a phone field with submit and cancel.' },
  // passkey-append
  { id: '2.passkey-append', rule: 'passkey-append offers to create or add a passkey, with a skip option ("Maybe later") and fallback buttons.' },
  { id: '2.passkey-benefits', rule: 'passkey-append and passkey-verify have a passkey-benefits screen.' },
  { id: '2.passkey-append-error', rule: 'passkey-append\'s passkey-error: try again, fallbacks, and skip or cancel.' },
  { id: '2.edit-user-data', rule: 'edit-user-data: edit the e-mail, phone or username (of passkey-append).' },
  { id: '2.passkey-appended', rule: 'passkey-appended: a success screen with a continue button.' },
  // passkey-verify
  { id: '2.passkey-background', rule: 'passkey-background starts the passkey login automatically, once.' },
  { id: '2.passkey-verify-error', rule: "passkey-verify's passkey-error: try again, fallbacks, and a way back that aborts the process." },
  // completed, abort
  { id: '2.completed-renders-nothing', rule: 'completed renders nothing.' },
  { id: '2.confirm-abort', rule: 'confirm-process-abort: title "Abort Signup?" with a header, subheader, confirm action and back action.' },
  // Passkey list
  { id: '2.passkey-list-login-warning', rule: 'Passkey list: without a session it shows a "Please log in" warning.' },
  { id: '2.passkey-list-cards', rule: 'Passkey list: with a session, one card per passkey, or a "no passkeys" message, plus a create-passkey button.' },
  {
    id: '2.passkey-card-fields',
    rule: 'Each card shows a synced badge (when backupState is true), the credential id, the created date with browser and OS, the last used date, and the status.',
  },
  { id: '2.passkey-delete-confirm', rule: 'Passkey list: deleting asks for confirmation.' },
  { id: '2.passkey-list-dialogs', rule: 'Passkey list dialogs: passkey-already-exists and passkeys-not-supported.' },
  {
    id: '2.authenticator-names',
    rule: 'The authenticator name and a light or dark icon come from the AAGUID; the table covers about 23 known authenticators (password managers, platform and browser authenticators including three identifiers of one desktop OS, a few hardware or SDK ones).',
  },
  { id: '2.authenticator-unknown', rule: 'One generic browser entry has a name but no icons. Unknown identifiers show the name "Passkey" and a default icon.' },
  // User details
  {
    id: '2.user-details-fields',
    rule: 'User details: name, username, e-mails and phones with verified or pending (unverified) badges, and social accounts.',
  },
  { id: '2.user-details-login-warning', rule: 'User details: without a session it shows the "Please log in" warning.' },
  // Other pages
  { id: '2.component-unavailable', rule: 'Component-unavailable page: a message with or without a support contact, plus a reload or refresh button.' },
  { id: '2.generic-fallback', rule: 'Generic fallback: "Something went wrong. Please try again in a few moments."' },
  { id: '2.spinner-delay', rule: 'The loading spinner appears only after loading has lasted 100 ms.' },
  { id: '2.country-picker', rule: 'Country picker: about 250 countries, each with a flag and a calling code.' },
  { id: '2.country-default-us', rule: 'Country picker: the default country is US.' },
];
