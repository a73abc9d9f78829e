// Welcome back (issue 27), what acts on the remembered account (lastUser.ts): the welcome-back screen's
// one action, and "Use another account" (README, "Welcome back").
import { storageKeys, writeItem } from '../storage';
import type { FlowContext } from './flowContext';
import { isVerification } from './lastUser';
import { submitLogin } from './signupAndLogin';
import { startSocial } from './social';

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
