// Which block comes next, decided from the project's configuration and the process state alone.
//
// Sign-up:  signup-init
//   -> passkey-append             (passkeyAppend 'before-verification', passkey possible, not yet decided)
//   -> email-verify / phone-verify (each entered identifier whose verification is not 'none', e-mail first)
//   -> username-collect, phone-collect (required identifiers with collectAt 'later' that are still missing;
//      a collected identifier that needs verification is verified right after it is collected)
//   -> passkey-append             ('after-verification', passkey possible, not yet decided; skippable)
//   -> passkey-appended           ('after-verification' and a passkey was appended)
//   -> post-signup-email-verify   (e-mail verifyAt 'after-signup': the account is created on entering it;
//                                  skippable, the address then stays pending)
//   -> completed
// With e-mail verifyAt 'after-signup' the e-mail address is not among the verifications above.
// Log-in: after a successful code/link verification -> passkey-append (skippable) when passkeys are on,
// the device has a platform authenticator and the user has no passkey yet -> completed. After a log-in
// with a passkey from another device -> passkey-append (variant after-hybrid, skippable) where the
// project offers it -> completed.
import type { IdentifierType, ProjectConfig } from '../config/projectConfig.ts';
import type { ProcessState, VerifiableType } from './processState.ts';

export type Step =
  | { block: 'passkey-append' }
  | { block: 'email-verify'; type: 'email' }
  | { block: 'post-signup-email-verify' }
  | { block: 'phone-verify'; type: 'phone' }
  | { block: 'username-collect' }
  | { block: 'phone-collect' }
  | { block: 'passkey-appended' }
  | { block: 'completed' };

export const VERIFIABLE_TYPES: readonly VerifiableType[] = ['email', 'phone'];

export function verifyStep(type: VerifiableType): Step {
  return type === 'email' ? { block: 'email-verify', type } : { block: 'phone-verify', type };
}

export function passkeyPossible(state: ProcessState, project: ProjectConfig): boolean {
  return project.passkeys && state.client.platformAuthenticator;
}

/**
 * Entered identifiers whose configured verification is still outstanding, e-mail first (not an e-mail
 * verified after sign-up, nor the address of a social sign-up, which is verified after it too).
 */
export function pendingVerifications(state: ProcessState, project: ProjectConfig): VerifiableType[] {
  return VERIFIABLE_TYPES.filter((type) => {
    const entered = state.identifiers[type];
    const cfg = project.identifiers[type];
    if (type === 'email' && state.socialAccount) return false;
    return cfg.enabled && cfg.verification !== 'none' && cfg.verifyAt === 'signup' && !!entered?.value && !entered.verified;
  });
}

/**
 * Sign-up: the e-mail address is to be verified once the account exists (verifyAt 'after-signup', or a
 * provider that did not vouch for it), and that has not happened or been put off.
 */
export function postSignupVerificationPending(state: ProcessState, project: ProjectConfig): boolean {
  const entered = state.identifiers.email;
  const afterSignup = project.identifiers.email.verifyAt === 'after-signup' || !!state.socialAccount;
  return afterSignup && !!entered?.value && !entered.verified && !state.postSignupDeferred;
}

/**
 * Required identifiers collected after sign-up that are still missing: username first, then phone.
 * A social sign-up brings only the e-mail address, so it also collects those normally asked at sign-up.
 */
export function missingFields(state: ProcessState, project: ProjectConfig): ('username' | 'phone')[] {
  const social = !!state.socialAccount;
  return (['username', 'phone'] as const).filter((type) => {
    const cfg = project.identifiers[type];
    return cfg.enabled && cfg.required && (cfg.collectAt === 'later' || social) && !state.identifiers[type]?.value;
  });
}

/** True when the sign-up will verify at least one identifier (now or after collecting it). */
export function signupHasVerification(state: ProcessState, project: ProjectConfig): boolean {
  if (pendingVerifications(state, project).length > 0 || postSignupVerificationPending(state, project)) return true;
  return missingFields(state, project).some((type) => project.identifiers[type].verification !== 'none');
}

export function nextSignupStep(state: ProcessState, project: ProjectConfig): Step {
  const passkeyOpen = passkeyPossible(state, project) && state.passkey === 'undecided';
  if (passkeyOpen && project.passkeyAppend === 'before-verification') return { block: 'passkey-append' };
  const verification = pendingVerifications(state, project)[0];
  if (verification) return verifyStep(verification);
  const missing = missingFields(state, project)[0];
  if (missing) return { block: missing === 'username' ? 'username-collect' : 'phone-collect' };
  if (passkeyOpen) return { block: 'passkey-append' };
  if (state.passkey === 'appended' && project.passkeyAppend === 'after-verification' && !state.passkeyAcknowledged) {
    return { block: 'passkey-appended' };
  }
  if (postSignupVerificationPending(state, project)) return { block: 'post-signup-email-verify' };
  return { block: 'completed' };
}

export function nextLoginStep(state: ProcessState, project: ProjectConfig, userHasPasskey: boolean): Step {
  if (passkeyPossible(state, project) && state.passkey === 'undecided' && !userHasPasskey) return { block: 'passkey-append' };
  return { block: 'completed' };
}

/**
 * Whether passkey-append offers "Maybe later" (a `completed` alternative). In sign-up only after the
 * user verified an identifier they can log in with, or signed in with a provider; otherwise the passkey
 * would be their only way back in.
 */
export function passkeyAppendSkippable(state: ProcessState, project: ProjectConfig): boolean {
  // the provider account is a way back in, so a passkey is optional after a social sign-in
  if (state.authType === 'login' || state.socialAccount) return true;
  // the address verified right after the account is created is the way back in
  if (postSignupVerificationPending(state, project) && project.identifiers.email.loginIdentifier) return true;
  if (project.passkeyAppend !== 'after-verification') return false;
  return VERIFIABLE_TYPES.some((type) => state.identifiers[type]?.verified && project.identifiers[type].loginIdentifier);
}

/** The identifier a passkey is named after and that becomes the JWT `orig` in sign-up. */
export function primaryIdentifier(
  state: ProcessState,
  project: ProjectConfig,
): { type: IdentifierType; value: string } | undefined {
  const order: IdentifierType[] = ['email', 'phone', 'username'];
  const entered = order.filter((type) => !!state.identifiers[type]?.value);
  const chosen = entered.find((type) => project.identifiers[type].loginIdentifier) ?? entered[0];
  return chosen ? { type: chosen, value: state.identifiers[chosen]!.value } : undefined;
}

/** The identifier a passkey is named after: the log-in identifier, or sign-up's primary one. */
export function passkeyIdentifier(state: ProcessState, project: ProjectConfig): { type: IdentifierType; value: string } {
  if (state.authType === 'login' && state.orig) return state.orig;
  return primaryIdentifier(state, project) ?? { type: 'email', value: '' };
}

/**
 * Log-in: the identifier types a code or link can be sent to, the one used to log in first.
 */
export function loginVerifications(state: ProcessState, project: ProjectConfig, loginType: IdentifierType): VerifiableType[] {
  const order: VerifiableType[] = loginType === 'phone' ? ['phone', 'email'] : ['email', 'phone'];
  return order.filter((type) => project.identifiers[type].enabled && project.identifiers[type].verification !== 'none' && !!state.identifiers[type]?.value);
}
