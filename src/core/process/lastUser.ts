// Welcome back (issue 27), what is remembered: the account last logged in on this browser, offered
// first on log-in with the way it used as the one action (welcomeBack.ts acts on it). Kept is the least
// that needs: the identifier (the session's `orig` claim, what the account logs in with), its type and
// the method; never a token. Per project, in this browser's local storage, and not at all where the host
// says `rememberLastUser: false`. "Use another account" and deleting the account forget it; a log-out
// does not (README, "Welcome back").
import type { WritableAtom } from 'nanostores';
import type { IdentifierType, SocialData, SocialProvider, VerificationMethod } from '../api/types';
import type { Session } from '../session/session';
import { readItem, storageKeys, writeItem } from '../storage';
import { toJson } from '../toJson';
import { verificationMethodOf, type FlowBlock } from './block';
import { socialProviderUnderWay } from './socialProviderUnderWay';

/** A passkey, a code or link (VerificationMethod), or a social provider. */
export type LoginMethod = 'passkey' | VerificationMethod | SocialProvider;

export interface LastUser {
  /** the identifier (a phone number in E.164) */
  value: string;
  type: IdentifierType;
  /** the way this browser logged the account in last; none known: the server's choice */
  method?: LoginMethod;
}

/** What the memory works with: the fields of a FlowContext (flowContext.ts) it reads and keeps. */
export interface Remembering {
  readonly projectId: string;
  readonly session: Pick<Session, '$user'>;
  readonly $lastUser: WritableAtom<LastUser | undefined>;
  /** whether the page lets the widget remember the account */
  remember: boolean;
  /** the way noted last */
  method: LoginMethod | undefined;
}

/** A code or link, as opposed to a passkey or a social provider. */
export function isVerification(method: LoginMethod | undefined): method is VerificationMethod {
  return !!method?.includes('-');
}

/** Reads the remembered account when the page allows remembering, and removes it where it does not. */
export function recallLastUser(ctx: Remembering, remember: boolean): void {
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
export function noteMethod(ctx: Remembering, previous: FlowBlock | undefined): void {
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
export function rememberLastUser(ctx: Remembering, method: LoginMethod | undefined): void {
  const value = ctx.session.$user.get()?.orig;
  if (!ctx.remember || !value) return;
  const user: LastUser = { value, type: value.includes('@') ? 'email' : /^\+\d+$/.test(value) ? 'phone' : 'username', method };
  writeItem(storageKeys.lastUser(ctx.projectId), toJson(user));
  ctx.$lastUser.set(user);
}
