// Sign-up: the entered identifiers and name (signup-init), identifiers asked for later (username-collect,
// phone-collect), and changing an entered identifier on a verify or passkey screen.
import { ApiError } from '../ApiError.ts';
import type { IdentifierType } from '../config/projectConfig.ts';
import { identifierData } from '../events/eventTypes.ts';
import { checkSignupAnswers, type SignupFieldAnswer } from '../config/signupFields.ts';
import type { Issue } from '../schema.ts';
import { collectBlock } from './blockBodies.ts';
import type { FlowContext, FlowOutcome } from './FlowContext.ts';
import { canonicalFullName, canonicalIdentifier, FULL_NAME_RULE, normalizedIdentifier } from './identifierRules.ts';
import { passkeyPossible, signupHasVerification } from './nextStep.ts';
import { isInitBlock } from './processState.ts';
import type { RequestError } from './requestErrors.ts';
import { advance, respond } from './transitions.ts';

export interface SignupInitBody {
  identifiers: { type: IdentifierType; identifier: string }[];
  fullName?: string;
  /** answers to the project's sign-up fields */
  signupFields?: SignupFieldAnswer[];
}

export interface IdentifierUpdateBody {
  identifierType: IdentifierType;
  value: string;
}

export async function signupInit(ctx: FlowContext, body: SignupInitBody): Promise<FlowOutcome> {
  const { project } = ctx;
  if (!project.publicSignup) throw ApiError.invalidRequest('Public sign-up is disabled for this project');
  const signupTypes = (['email', 'phone', 'username'] as const).filter(
    (t) => project.identifiers[t].enabled && project.identifiers[t].collectAt === 'signup',
  );
  const given = new Map<IdentifierType, string>();
  body.identifiers.forEach((entry, i) => {
    if (!signupTypes.includes(entry.type as never)) {
      throw ApiError.invalidRequest(`Identifier type ${entry.type} is not collected at sign-up`, [
        { field: `identifiers[${i}].type`, message: 'is not enabled for sign-up in this project' },
      ]);
    }
    if (given.has(entry.type)) {
      throw ApiError.invalidRequest(`Identifier type ${entry.type} given twice`, [{ field: `identifiers[${i}].type`, message: 'is given twice' }]);
    }
    given.set(entry.type, entry.identifier);
  });
  const checked = checkAnswers(ctx, body.signupFields);
  const s = ctx.state;
  if (!isInitBlock(s.block)) return respond(ctx, { error: ctx.error('unexpected_step') });
  // proven in this process already ("Sign up here instead" at an e-mail link): kept while unchanged
  const proven = s.identifiers;
  s.authType = 'signup';
  s.block = 'signup-init';
  s.identifiers = {};
  s.social = null;
  s.socialAccount = null;
  const identifierErrors: Partial<Record<IdentifierType, RequestError>> = {};
  for (const type of signupTypes) {
    const raw = (given.get(type) ?? '').trim();
    if (!raw) {
      if (project.identifiers[type].required) identifierErrors[type] = ctx.error('missing_identifier_type', type);
      continue;
    }
    const problem = await ctx.identifierProblem(type, raw);
    if (problem) identifierErrors[type] = problem.error;
    const value = problem ? raw : canonicalIdentifier(type, raw)!;
    s.identifiers[type] = { value, verified: !problem && proven[type]?.verified === true && proven[type].value === value };
  }
  const name = canonicalFullName(body.fullName ?? '');
  if (name.error && !project.fullNameRequired) {
    // the project shows no name field to put the error on
    throw ApiError.invalidRequest('The full name is not valid', [{ field: 'fullName', message: FULL_NAME_RULE }]);
  }
  const fullNameError = name.error ? ctx.error(name.error) : project.fullNameRequired && !name.value ? ctx.error('missing_full_name') : undefined;
  // a refused name stays in the process as typed (JSON-escaped there), so the field shows it again
  s.fullName = name.error ? (body.fullName ?? '').trim() : name.value;
  s.signupFields = checked.answers;
  if (fullNameError || Object.keys(identifierErrors).length > 0 || checked.errors) {
    await ctx.save();
    return respond(ctx, { identifierErrors, ...(fullNameError ? { fullNameError } : {}), ...(checked.errors ? { signupFieldErrors: checked.errors } : {}) });
  }
  const provenLogin = (['email', 'phone'] as const).some((t) => s.identifiers[t]?.verified && project.identifiers[t].loginIdentifier);
  if (!passkeyPossible(s, project) && !signupHasVerification(s, project) && !provenLogin) {
    await ctx.save();
    return respond(ctx, { dataError: ctx.error('no_fallback_available') });
  }
  s.passkey = 'undecided';
  return respond(ctx, await advance(ctx));
}

/**
 * The answers to the project's sign-up fields, checked: an answer to a field the project does not have
 * is a forged request (400, before anything changes); the rest are the fields' errors, if any.
 */
export function checkAnswers(ctx: FlowContext, given: SignupFieldAnswer[] | undefined) {
  const issues: Issue[] = [];
  // the text each answer was given on: the project's label in the language of this request (the widget's)
  const context = { now: ctx.now(), language: ctx.request.language, source: 'signup' } as const;
  const { answers, errors } = checkSignupAnswers(ctx.project.signupFields, given, context, issues);
  if (issues.length > 0) throw ApiError.invalidRequest('The sign-up fields are not those of this project', issues);
  const codes = Object.entries(errors);
  return { answers, errors: codes.length > 0 ? Object.fromEntries(codes.map(([id, code]) => [id, ctx.error(code)])) : undefined };
}

export async function collect(ctx: FlowContext, type: 'username' | 'phone', raw: string): Promise<FlowOutcome> {
  const s = ctx.state;
  const block = type === 'username' ? 'username-collect' : 'phone-collect';
  if (s.block !== block) return respond(ctx, { error: ctx.error('unexpected_step') });
  const value = raw.trim();
  const problem = value ? await ctx.identifierProblem(type, value) : { error: ctx.error('missing_identifier_type', type) };
  if (problem) return { response: ctx.wrap(collectBlock(ctx.render(), block, { dataError: problem.error, collectValue: raw })) };
  s.identifiers[type] = { value: canonicalIdentifier(type, value)!, verified: false };
  return respond(ctx, await advance(ctx));
}

/**
 * Changes an entered identifier (edit on a verify screen or passkey-append); no code is sent. On
 * post-signup-email-verify the account exists already, so its address changes with it.
 */
export async function updateIdentifier(ctx: FlowContext, body: IdentifierUpdateBody): Promise<FlowOutcome> {
  const type = body.identifierType;
  if (!ctx.project.identifiers[type].enabled) {
    throw ApiError.invalidRequest(`Identifier type ${type} is not enabled`, [{ field: 'identifierType', message: 'is not enabled in this project' }]);
  }
  const s = ctx.state;
  const editable = s.block === 'email-verify' || s.block === 'phone-verify' || s.block === 'passkey-append' || s.block === 'post-signup-email-verify';
  if (s.authType !== 'signup' || !editable || !s.identifiers[type]) {
    return respond(ctx, { error: ctx.error(s.authType === 'login' ? 'identifier_not_allowed' : 'unexpected_step', type) });
  }
  const value = body.value.trim();
  const canonical = canonicalIdentifier(type, value);
  if (canonical && normalizedIdentifier(type, canonical) === normalizedIdentifier(type, s.identifiers[type]!.value)) return respond(ctx);
  const problem = value ? await ctx.identifierProblem(type, value) : { error: ctx.error('identifier_invalid_format', type) };
  if (problem) return respond(ctx, { error: problem.error });
  if (s.userId) {
    const stored = (await ctx.store.users.listIdentifiers(s.userId)).find((i) => i.type === type && i.value === s.identifiers[type]!.value);
    if (stored) {
      await ctx.store.users.updateIdentifierValue(stored.id, canonical!, normalizedIdentifier(type, canonical!));
      // to a receiver, a changed address is the old one removed and the new one added (it keeps its id)
      await ctx.deps.events.record(ctx.project.id, 'identifier.removed', { userId: s.userId, identifier: identifierData(stored) });
      await ctx.deps.events.record(ctx.project.id, 'identifier.added', { userId: s.userId, identifier: identifierData({ ...stored, value: canonical! }) });
    }
    if (s.orig?.type === type) s.orig = { type, value: canonical! };
  }
  s.identifiers[type] = { value: canonical!, verified: false };
  if (type === 'email' || type === 'phone') {
    await ctx.store.secrets.revokeOpen(ctx.process.id, type, ctx.now());
    delete s.lastSentAt[type];
  }
  await ctx.save();
  return respond(ctx);
}
