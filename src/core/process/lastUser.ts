// Welcome back (issue 27): the account last logged in on this browser is offered first on log-in,
// with the way it used as the one action. Kept is the least that needs: the identifier (the session's
// `orig` claim, what the account logs in with), its type and the method; never a token. Per project,
// in this browser's local storage, and not at all where the host says `rememberLastUser: false`.
// "Use another account" and deleting the account forget it; a log-out does not (README, "Welcome back").
import type { IdentifierType, SocialData, SocialProvider, VerificationMethod } from '../api/types';
import { readItem, storageKeys, writeItem } from '../storage';
import { toJson } from '../toJson';
import { verificationMethodOf, type FlowBlock } from './block';
import type { FlowContext } from './flowContext';
import { socialProviderUnderWay, startSocial } from './social';
import { submitLogin } from './signupAndLogin';

/** A passkey, a code or link (VerificationMethod), or a social provider. */
export type LoginMethod = 'passkey' | VerificationMethod | SocialProvider;

export interface LastUser {
  /** the identifier (a phone number in E.164) */
  value: string;
  type: IdentifierType;
  /** the way this browser logged the account in last; none known: the server's choice */
  method?: LoginMethod;
}

/** A code or link, as opposed to a passkey or a social provider. */
export function isVerification(method: LoginMethod | undefined): method is VerificationMethod {
  return !!method?.includes('-');
}

/** Reads the remembered account when the page allows remembering, and removes it where it does not. */
export function recallLastUser(ctx: FlowContext, remember: boolean): void {
  const key = storageKeys.lastUser(ctx.projectId);
  ctx.remember = remember;
  if (!remember) return writeItem(key, undefined);
  try {
    const user = JSON.parse(readItem(key)!) as LastUser;
    if (typeof user.value === 'string') ctx.$lastUser.set(user);
  } catch {
    // nothing kept, or not readable: a plain log-in
  }
}

/**
 * Notes the way a visitor proves who they are as the process moves on from a block: the code or link
 * of a verification block, or a social log-in coming back finished (its provider). A passkey log-in or
 * a passkey created on the way is the completed block's own word (its passkeyOperation), which goes first.
 */
export function noteMethod(ctx: FlowContext, previous: FlowBlock | undefined): void {
  const type = previous?.type;
  const method =
    type === 'email-verify' || type === 'post-signup-email-verify'
      ? verificationMethodOf(previous!)
      : type === 'phone-verify'
        ? 'phone-otp'
        : (previous?.data.socialData as SocialData | undefined)?.status === 'finished'
          ? socialProviderUnderWay()
          : undefined;
  if (method) ctx.method = method;
}

/** At completion: the account now logged in (the session's `orig`), and how. */
export function rememberLastUser(ctx: FlowContext, method: LoginMethod | undefined): void {
  const value = ctx.session.$user.get()?.orig;
  if (!ctx.remember || !value) return;
  const user: LastUser = { value, type: value.includes('@') ? 'email' : /^\+\d+$/.test(value) ? 'phone' : 'username', method };
  writeItem(storageKeys.lastUser(ctx.projectId), toJson(user));
  ctx.$lastUser.set(user);
}

/** "Use another account", and an account that is gone: nothing is kept, the plain log-in shows. */
export function forgetLastUser(ctx: FlowContext): void {
  writeItem(storageKeys.lastUser(ctx.projectId), undefined);
  ctx.$lastUser.set(undefined);
  if (ctx.$screen.get() === 'welcome-back') ctx.$screen.set('login-init');
}

/**
 * The welcome-back screen's one action: the provider again, or the log-in with the remembered
 * identifier going the remembered way (a passkey ceremony, a code or link to that address). Where
 * the server refuses the identifier (the account was deleted, no way is left to log it in), the account
 * is forgotten and the plain log-in shows with the identifier filled in and the server's error.
 */
export async function continueAsLastUser(ctx: FlowContext): Promise<void> {
  const user = ctx.$lastUser.get();
  if (!user) return;
  const { method } = user;
  if (method && method !== 'passkey' && !isVerification(method)) return startSocial(ctx, method);
  await submitLogin(ctx, user.value, user.type === 'phone', method);
  const block = ctx.$block.get();
  if (block?.type === 'login-init' && (block.data.fieldError || block.data.error)) forgetLastUser(ctx);
}
