import type { SpecRule } from './types';

/** SPEC §4. Every rule of the section; a test pins each through `[spec <id>]` in its title. */
export const rules: SpecRule[] = [
  // Start-up
  { id: '4.stored-process', rule: 'Start-up uses the stored process if one exists and is valid; otherwise it starts a new process.' },
  { id: '4.stored-process-fails', rule: 'If loading the stored process fails, a new one is started without a preferred block.' },
  { id: '4.email-link-first', rule: 'An e-mail-verify process started from the URL parameters takes priority over a stored process.' },
  { id: '4.initial-login', rule: 'A login-init process with an empty identifier and social status initial counts as initial and is replaced by a new one.' },
  { id: '4.initial-signup', rule: 'A signup-init process with all identifiers empty and social status initial counts as initial and is replaced by a new one.' },
  { id: '4.init-state', rule: 'Init state: 0 loading, 1 failed (component-unavailable page), 2 ready.' },
  { id: '4.reset-new-process', rule: 'A reset may return a newProcess with token and expiresAt, which is stored.' },
  { id: '4.process-update', rule: 'A process update from the server replaces the current block.' },
  // Signup
  { id: '4.signup-path', rule: 'signup-init leads to the verification screens (e-mail, phone, social), then missing-fields, passkey append, passkey appended, and completed.' },
  { id: '4.signup-login-switch', rule: 'signup-init can switch to login-init, and login-init to signup-init, through their alternatives.' },
  // Login
  { id: '4.login-path', rule: 'login-init leads to e-mail verify, phone verify, passkey verify or social verify.' },
  { id: '4.conditional-ui-once', rule: 'When a conditional-UI challenge exists, login-init starts a passkey login automatically, once.' },
  { id: '4.conditional-ui-ignorable', rule: "Ignorable errors of login-init's automatic passkey login are swallowed." },
  // Passkey verify
  { id: '4.passkey-verify-fallbacks', rule: "passkey-verify's fallbacks come from the alternatives: e-mail OTP, e-mail link or SMS OTP." },
  { id: '4.passkey-verify-benefits', rule: 'passkey-verify can show the benefits screen.' },
  { id: '4.passkey-verify-error', rule: 'A failed passkey login leads to passkey-error.' },
  { id: '4.passkey-unconfirmed', rule: 'A passkey not yet confirmed cannot be used for conditional-UI login until the account is confirmed by an e-mail login.' },
  // Passkey append
  { id: '4.append-retry', rule: 'Passkey append: start, then on failure the error screen, then try again.' },
  { id: '4.append-fallback', rule: 'From the passkey append error, a fallback is offered only if the alternatives include it.' },
  { id: '4.append-skip', rule: 'Passkey append can be skipped if canBeSkipped.' },
  { id: '4.appended-continue', rule: 'Success moves to passkey-appended, whose continue action skips to the next block.' },
  { id: '4.append-edit-unchanged', rule: 'Editing the identifier on passkey append to an unchanged value returns to the append screen without a call.' },
  { id: '4.append-own-refused', rule: "A logged-in user's own append is refused when the server says a passkey already exists or passkeys are unsupported." },
  { id: '4.append-own-unknown', rule: "An unknown not-allowed reason of a logged-in user's own append is ignored silently." },
  // E-mail verify
  { id: '4.email-start-screen', rule: 'E-mail verify starts on email-link-sent or email-otp-verification depending on the method, on email-link-verification when opened from a link.' },
  { id: '4.email-edit', rule: 'The user can edit the e-mail: this resends the verification and returns to the verification screen.' },
  { id: '4.email-edit-login-abort', rule: 'During login, editing the e-mail first aborts the process.' },
  { id: '4.email-resend', rule: 'Resend restarts the code or link verification.' },
  { id: '4.email-resend-poll', rule: 'In link mode, resend also restarts the polling.' },
  {
    id: '4.email-poll',
    rule: 'While on email-link-sent the verification status is polled every 2 s, up to 120 times.',
    deviation:
      'Polled every 2 s for as long as the link is valid: until the server says the link expired unused (10 minutes) or was declined at the link, or the process is gone; then the tab says so and offers a new link where one can be asked for. 120 polls are 4 minutes, and a link opened after them left the tab waiting until reloaded (issue 24).',
  },
  { id: '4.email-poll-other-device', rule: 'If the poll answer says to continue on another device, that is reported, with wording that differs between same-tab and other-tab finish.' },
  { id: '4.email-poll-waiting', rule: 'If the polled block is still email-verify, the user keeps waiting.' },
  {
    id: '4.email-poll-advance',
    rule: 'Otherwise the process advances, and a positive result shows the success screen for the original tab.',
    deviation:
      'A link opened in another browser than the one that asked advances the process only when the person there says so with a click ("Yes, it\'s me: continue there"); loading it changes nothing, and "No, I didn\'t ask for this" or "Log in here instead" end the waiting process, whose tab then says the request was declined. The browser that asked (its stored process or its browser cookie) still continues by itself. Otherwise whoever typed someone\'s address would get in when its owner, or a mail scanner, merely loaded the link (issue 24).',
  },
  // Phone verify
  { id: '4.phone-edit', rule: 'Phone verify shows the phone-otp screen; editing the phone resends the code and returns to the code screen.' },
  // One-time-code screens
  { id: '4.otp-auto-submit', rule: 'The code is submitted automatically once 6 characters are entered.' },
  { id: '4.otp-resend-countdown', rule: 'Resend is disabled with a countdown in seconds until retryNotBefore.' },
  { id: '4.otp-resend-email-default', rule: 'The e-mail resend countdown defaults to 30 s.' },
  {
    id: '4.otp-resend-phone-default',
    rule: 'The phone resend default is not shown.',
    reason: 'SPEC gives no phone default to check; the widget counts down to the retryNotBefore the server sends with the SMS code (4.otp-resend-countdown).',
  },
  { id: '4.otp-error-clears', rule: 'On an error the cells are cleared and focus returns to the first cell.' },
  // Social verify
  { id: '4.social-start', rule: 'Social start sends the provider type, the current page address as return location, and the auth type.' },
  { id: '4.social-redirect', rule: 'When the social status is started and an oauth address is present, the browser navigates there.' },
  { id: '4.social-finish', rule: 'On return, when socialData.finished is set and there is no error, a finish call follows.' },
  // Completed
  { id: '4.completed-clears', rule: 'On completed, the process is cleared.' },
  { id: '4.completed-tokens', rule: 'On completed, the two session tokens are stored.' },
  { id: '4.completed-callback', rule: 'On completed, the completion callback is fired.' },
  { id: '4.completed-login-marker', rule: 'On a completed login, the passkey-append-shown marker is dropped.' },
  // Abort
  {
    id: '4.abort-signup-asks',
    rule: 'Back navigation during signup asks: "Going back will restart the signup process and your current progress will be lost. Do you wish to complete the current signup first?"',
  },
  { id: '4.abort-forward', rule: 'If the user confirms completing the signup first, history goes forward and the previous block is shown again.' },
  { id: '4.abort-reset', rule: 'Otherwise the abort is confirmed: the auth process is reset and entered data is lost.' },
  { id: '4.abort-login-direct', rule: 'During login, the abort is confirmed directly.' },
  { id: '4.abort-exempt', rule: 'Some block types are exempt from the abort confirmation (the list is not shown).' },
  // Errors in the flow
  { id: '4.error-reinit', rule: 'On an error, the process is re-initialised from the backend and the error is attached to the resulting block.' },
  // Session
  { id: '4.session-startup', rule: 'At start-up the stored short session is used if still valid; otherwise a refresh is attempted.' },
  { id: '4.session-check', rule: 'A session check runs every 10 s and when the page becomes visible again.' },
  { id: '4.session-refresh-threshold', rule: 'A refresh happens only if a user is logged in and the short session has fewer than 60 s of validity left.' },
  {
    id: '4.session-refresh-failure',
    // SPEC §7 says a non-200 refresh answer is only logged; the two rules together, and the session
    // surviving server trouble (ARCHITECTURE.md), give: a refusal of the session logs out, an outage does not
    rule:
      'On a refresh failure (exception) the user is logged out. Read with 7.me-refresh-failure: the failure that logs out is the server refusing the session (401/403); a server error or no answer keeps the visitor logged in and is retried.',
  },
  { id: '4.logout', rule: 'Logout calls the server, clears stored sessions and emits a logged-out state.' },
  { id: '4.auth-state', rule: 'Auth state is 1 when logged in and 0 when not.' },
  // Passkey list
  { id: '4.passkey-list-reload', rule: 'After creating or deleting a passkey the passkey list is reloaded.' },
];
