// Codes and links: (re)sending them on a verify block, choosing a verification from passkey-append or
// passkey-verify, and checking what the user entered or the link carried.
import { ApiError } from '../ApiError.ts';
import type { IdentifierType, VerificationMethod } from '../config/projectConfig.ts';
import { acceptSecret } from './acceptSecret.ts';
import { verifyBlock } from './blockBodies.ts';
import type { FlowContext, FlowOutcome } from './FlowContext.ts';
import { loginVerifications, pendingVerifications, verifyStep } from './nextStep.ts';
import { verifyTypeOf, type VerifiableType } from './processState.ts';
import { resendWaitMs, sendVerification } from './sendVerification.ts';
import { advance, enter, respond } from './transitions.ts';

const VERIFY_TYPE_OF_METHOD: Record<VerificationMethod, VerifiableType> = {
  'email-otp': 'email',
  'email-link': 'email',
  'phone-otp': 'phone',
};

export interface VerifyStartBody {
  identifierType: IdentifierType;
  verificationType: VerificationMethod;
}

export interface VerifyFinishBody extends VerifyStartBody {
  code: string;
  isNewDevice?: boolean;
}

export async function verifyStart(ctx: FlowContext, body: VerifyStartBody): Promise<FlowOutcome> {
  const type = verifiableType(body.identifierType, body.verificationType);
  const s = ctx.state;
  const configured = ctx.project.identifiers[type];
  if (!s.identifiers[type]?.value || !configured.enabled || configured.verification !== body.verificationType) {
    return respond(ctx, { error: ctx.error('identifier_not_allowed', type) });
  }
  if (verifyTypeOf(s.block) === type) {
    if (resendWaitMs(s.lastSentAt[type], ctx.now()) > 0) return respond(ctx, { dataError: ctx.error('verification_retry_too_early') });
    await sendVerification(ctx, type);
    await ctx.save();
    return respond(ctx);
  }
  if (s.block === 'passkey-append' && s.authType === 'signup' && pendingVerifications(s, ctx.project).includes(type)) {
    s.passkey = 'declined';
    return respond(ctx, await enter(ctx, verifyStep(type)));
  }
  if (s.block === 'passkey-verify' && loginVerifications(s, ctx.project, s.orig?.type ?? 'email').includes(type)) {
    return respond(ctx, await enter(ctx, verifyStep(type)));
  }
  return respond(ctx, { error: ctx.error('unexpected_step') });
}

export async function verifyFinish(ctx: FlowContext, body: VerifyFinishBody): Promise<FlowOutcome> {
  const type = verifiableType(body.identifierType, body.verificationType);
  const s = ctx.state;
  const method = body.verificationType;
  const invalid = async (): Promise<FlowOutcome> => {
    await ctx.audit({ event: `${s.authType}.failed`, outcome: 'refused', reason: method === 'email-link' ? 'invalid_link' : 'wrong_code', details: { method } });
    const dataError = ctx.error(`invalid_challenge_solution_${method}`);
    if (verifyTypeOf(s.block) === type || method === 'email-link') {
      return { response: ctx.wrap(verifyBlock(ctx.render(), type, { dataError })) };
    }
    return respond(ctx, { error: dataError });
  };
  if (verifyTypeOf(s.block) !== type || ctx.project.identifiers[type].verification !== method) return invalid();
  if (!(await acceptProcessSecret(ctx, type, method, body.code))) return invalid();
  s.identifiers[type]!.verified = true;
  s.loginProof = { method };
  const extras = await advance(ctx);
  if (method === 'email-link' && (body.isNewDevice ?? ctx.request.fromEmailLink) === true && !extras.error) {
    // The other tab (still polling verify/status) continues; this one shows "continue there".
    return { response: ctx.wrap(verifyBlock(ctx.render(), 'email', { continueOnOtherDevice: { reason: 'email-link-verified' } })) };
  }
  return respond(ctx, extras);
}

/**
 * Whether `code` is the open code or link token the process sent to the identifier of that type (on a
 * verify block of that type); it is used up then, unless `spend` is false.
 */
export function acceptProcessSecret(ctx: FlowContext, type: VerifiableType, method: VerificationMethod, code: string, spend = true): Promise<boolean> {
  const { secrets } = ctx.store;
  return acceptSecret(
    {
      limiter: ctx.deps.limiter,
      secretKey: ctx.deps.secretKey,
      project: ctx.project,
      clientIp: ctx.request.clientIp,
      repo: secrets,
      identifier: { type, value: ctx.state.identifiers[type]?.value ?? '' },
      now: ctx.now(),
    },
    code,
    (hash) => (method === 'email-link' ? secrets.findByHash(ctx.process.id, method, hash) : secrets.latest(ctx.process.id, type, method)),
    spend,
  );
}

/** Whether the e-mail link the process waits for has expired unused (a newer link, or the address changed, revokes it instead). */
export async function linkExpired(ctx: FlowContext): Promise<boolean> {
  if (verifyTypeOf(ctx.state.block) !== 'email' || ctx.project.identifiers.email.verification !== 'email-link') return false;
  const latest = await ctx.store.secrets.latest(ctx.process.id, 'email', 'email-link');
  return !!latest && latest.usedAt === null && latest.revokedAt === null && latest.expiresAt <= ctx.now();
}

/** The identifier type a verification method works on; 400 for a mismatched pair. */
function verifiableType(identifierType: IdentifierType, method: VerificationMethod): VerifiableType {
  const type = VERIFY_TYPE_OF_METHOD[method];
  if (identifierType !== type) {
    throw ApiError.invalidRequest(`${method} cannot verify a ${identifierType}`, [
      { field: 'verificationType', message: `does not fit identifierType ${identifierType}` },
    ]);
  }
  return type;
}
