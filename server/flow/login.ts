// Log-in by identifier: find the account, then its passkey or a code or link to one of its identifiers.
import { logsIn, type IdentifierType } from '../config/projectConfig.ts';
import type { FlowContext, FlowOutcome } from './FlowContext.ts';
import { canonicalIdentifier, normalizedIdentifier } from './identifierRules.ts';
import { loginVerifications, verifyStep } from './nextStep.ts';
import { isInitBlock } from './processState.ts';
import { enter, respond } from './transitions.ts';

export interface LoginInitBody {
  identifierValue: string;
  isPhone: boolean;
}

export async function loginInit(ctx: FlowContext, body: LoginInitBody): Promise<FlowOutcome> {
  const s = ctx.state;
  if (!isInitBlock(s.block)) return respond(ctx, { error: ctx.error('unexpected_step') });
  const { project } = ctx;
  s.authType = 'login';
  s.block = 'login-init';
  s.social = null;
  s.socialAccount = null;
  s.loginValue = body.identifierValue;
  s.loginIsPhone = body.isPhone;
  const raw = body.identifierValue.trim();
  const type: IdentifierType = body.isPhone ? 'phone' : raw.includes('@') ? 'email' : 'username';
  const canonical = logsIn(project, type) ? canonicalIdentifier(type, raw) : undefined;
  // the verified holder, or an unverified account's pending copy so that it can be proven; a pending copy
  // on a verified account answers as an unknown user (UsersRepo.findLoginIdentifier)
  const found = canonical ? await ctx.store.users.findLoginIdentifier(project.id, type, normalizedIdentifier(type, canonical)) : undefined;
  if (!found) {
    await ctx.save();
    return respond(ctx, { fieldError: ctx.error('login_identifier_unknown_user') });
  }
  await ctx.loadUser(found.userId, { type, value: found.value });
  // a pending passkey too: only conditional UI needs a confirmed one
  if (project.passkeys && (await ctx.store.credentials.listByUser(found.userId)).length > 0) {
    s.block = 'passkey-verify';
    await ctx.save();
    return respond(ctx);
  }
  const fallback = loginVerifications(s, project, type)[0];
  if (!fallback) {
    s.userId = null;
    s.identifiers = {};
    await ctx.save();
    return respond(ctx, { dataError: ctx.error('no_fallback_available') });
  }
  return respond(ctx, await enter(ctx, verifyStep(fallback)));
}
