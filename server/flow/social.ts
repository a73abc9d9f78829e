// Social sign-in: start hands out the provider's authorization URL, the provider's callback (a plain
// browser navigation) exchanges the code for the profile, and finish logs in, links or signs up.
import { ApiError } from '../ApiError.ts';
import type { IdentifierType, ProjectConfig, SocialProvider } from '../config/projectConfig.ts';
import { requiredAnswered, type SignupFieldAnswer } from '../config/signupFields.ts';
import { newSecretToken, sha256Hex } from '../randomValues.ts';
import { CALLBACK_PATH, ProviderError, type SocialProfile } from '../social/providerClient.ts';
import type { FlowContext, FlowDeps, FlowOutcome } from './FlowContext.ts';
import { canonicalIdentifier, cleanedFullName, normalizedIdentifier } from './identifierRules.ts';
import { isInitBlock, type AuthType, type SocialIdentity, type SocialRoundTrip } from './processState.ts';
import { checkAnswers } from './signup.ts';
import { advance, respond } from './transitions.ts';

/** how long a provider round trip may take (the OAuth state's lifetime) */
export const SOCIAL_STATE_LIFETIME_MS = 15 * 60_000;

export interface SocialStartBody {
  providerType: SocialProvider;
  redirectUrl: string;
  authType: AuthType;
  /** from sign-up: the answers to the project's sign-up fields, which a new account needs */
  signupFields?: SignupFieldAnswer[];
}

/** What the provider's redirect to the callback carries. */
export interface SocialCallbackQuery {
  state?: string;
  code?: string;
  error?: string;
}

/** The provider callback ends in a redirect back to the app, or in an error page (400). */
export type SocialCallbackOutcome = { redirect: string } | { page: { title: string; message: string; backUrl?: string } };

/** Starts a provider round trip: the init block answers socialData.status=started with the provider's URL. */
export async function socialStart(ctx: FlowContext, body: SocialStartBody): Promise<FlowOutcome> {
  const { project } = ctx;
  const redirectUrl = checkRedirectUrl(project, body.redirectUrl);
  const signup = body.authType === 'signup' && project.publicSignup;
  const checked = signup && body.signupFields ? checkAnswers(ctx, body.signupFields) : undefined;
  const s = ctx.state;
  if (!isInitBlock(s.block)) return respond(ctx, { error: ctx.error('unexpected_step') });
  const now = ctx.now();
  s.authType = signup ? 'signup' : 'login';
  s.block = s.authType === 'signup' ? 'signup-init' : 'login-init';
  s.social = null;
  s.socialAccount = null;
  // only answers given with this start count for the account it may create
  s.signupFields = checked?.answers;
  if (checked?.errors) {
    await ctx.save();
    return respond(ctx, { signupFieldErrors: checked.errors });
  }
  await ctx.store.oauthStates.revokeForProcess(ctx.process.id, now);
  if (!project.socialProviders.includes(body.providerType)) {
    await ctx.save();
    return respond(ctx, ctx.socialError('social_provider_not_enabled'));
  }
  const state = newSecretToken();
  const stateHash = sha256Hex(state);
  await ctx.store.oauthStates.insert({
    stateHash,
    processId: ctx.process.id,
    provider: body.providerType,
    createdAt: now,
    expiresAt: Math.min(now + SOCIAL_STATE_LIFETIME_MS, ctx.process.expiresAt),
  });
  const apiBase = ctx.request.frontendApiUrl;
  s.social = { provider: body.providerType, redirectUrl, authType: s.authType, stateHash, apiBase, status: 'started', startedAt: now };
  await ctx.save();
  const oauthUrl = ctx.deps.social.authorizationUrl(body.providerType, {
    apiBase,
    projectId: project.id,
    redirectUri: apiBase + CALLBACK_PATH,
    state,
  });
  return respond(ctx, { oauthUrl });
}

/**
 * The provider sent the browser back (no project or process header). The state leads to the process;
 * the code is exchanged at the provider (outside any transaction: it is a network call) and the
 * profile kept in the process.
 */
export async function socialCallback(deps: FlowDeps, query: SocialCallbackQuery): Promise<SocialCallbackOutcome> {
  const { store } = deps;
  const invalid = (message: string, backUrl?: string): SocialCallbackOutcome => ({
    page: { title: 'This sign-in cannot continue', message, ...(backUrl ? { backUrl } : {}) },
  });
  if (!query.state) return invalid('The answer from the sign-in provider has no state parameter.');
  const stored = query.state.length <= 512 ? await store.oauthStates.consume(sha256Hex(query.state), deps.now()) : undefined;
  if (!stored) return invalid('This sign-in is unknown, has expired or was already completed. Please start it again.');
  const record = await store.processes.get(stored.processId);
  const project = record ? await store.projects.get(record.projectId) : undefined;
  const trip = record?.state.social;
  if (!record || !project || !trip || trip.stateHash !== stored.stateHash || trip.status !== 'started') {
    return invalid('This sign-in is no longer in progress. Please start it again.');
  }
  const s = record.state;
  if (record.endedAt !== null || record.expiresAt <= deps.now() || s.deliveredAt !== null || !isInitBlock(s.block)) {
    return invalid('This sign-in has expired. Please start it again.', trip.redirectUrl);
  }
  const back = { redirect: trip.redirectUrl };
  /** Ends the round trip on the process as it is now; a newer start meanwhile wins and this answer is dropped. */
  const end = (update: Partial<SocialRoundTrip>): Promise<SocialCallbackOutcome> =>
    store.transaction(async () => {
      const fresh = await store.processes.lock(record.id);
      if (!fresh || fresh.state.social?.stateHash !== trip.stateHash || fresh.state.social.status !== 'started' || fresh.state.deliveredAt !== null) {
        return back;
      }
      fresh.state.social = { ...trip, ...update };
      await store.processes.saveState(fresh.id, fresh.state);
      return back;
    });
  if (query.error) return end({ status: 'failed', errorCode: query.error === 'access_denied' ? 'social_login_cancelled' : 'social_login_failed' });
  if (!query.code || query.code.length > 2048) return end({ status: 'failed', errorCode: 'social_login_failed' });

  let profile: SocialProfile | undefined;
  try {
    profile = await deps.social.signIn(trip.provider, {
      apiBase: trip.apiBase,
      projectId: project.id,
      code: query.code,
      redirectUri: trip.apiBase + CALLBACK_PATH,
    });
  } catch (error) {
    // whatever went wrong (network, provider, configuration), the browser gets an in-band error
    const detail = error instanceof ProviderError ? error.message : error;
    deps.log?.error(`social sign-in with ${trip.provider} failed for process ${record.id}`, detail);
  }
  if (!profile) return end({ status: 'failed', errorCode: 'social_login_failed' });
  const email = canonicalIdentifier('email', profile.email);
  if (!email) return end({ status: 'failed', errorCode: 'social_login_failed' });
  if (!profile.emailVerified) return end({ status: 'failed', errorCode: 'social_email_not_verified' });
  const identity: SocialIdentity = {
    provider: trip.provider,
    subject: profile.subject,
    email,
    fullName: cleanedFullName(profile.fullName),
    avatarUrl: profile.avatarUrl,
  };
  return end({ status: 'finished', identity });
}

/**
 * After the round trip: the known provider account logs in, a verified e-mail address of an existing
 * user gets the provider account linked and logs in, anything else signs up. Then the usual next steps.
 */
export async function socialFinish(ctx: FlowContext): Promise<FlowOutcome> {
  const s = ctx.state;
  const isInit = isInitBlock(s.block);
  const identity = s.social?.status === 'finished' ? s.social.identity : undefined;
  if (!isInit || !identity) {
    const error = ctx.error('unexpected_step');
    return respond(ctx, isInit ? { dataError: error } : { error });
  }
  const { project, store } = ctx;
  s.social = null; // the profile is used once
  s.passkey = 'undecided';
  s.passkeyAcknowledged = false;
  s.passkeyOperation = null;
  s.pendingCredential = null;
  const refuse = async (code: string): Promise<FlowOutcome> => {
    s.socialAccount = null;
    await ctx.save();
    return respond(ctx, ctx.socialError(code));
  };
  let userId = (await store.socialAccounts.find(project.id, identity.provider, identity.subject))?.userId;
  if (!userId) {
    // linking to an address nobody has proven to own would hand that account to the provider's user: only
    // a verified holder is linked; otherwise this is a sign-up, which takes the address from pending holders
    userId = (await store.users.findVerifiedIdentifier(project.id, 'email', normalizedIdentifier('email', identity.email)))?.userId;
  }
  s.socialAccount = identity;
  s.loginProof = { method: `social:${identity.provider}` };
  if (userId) {
    s.authType = 'login';
    s.block = 'login-init';
    await ctx.loadUser(userId, await socialOrig(ctx, userId, identity));
    return respond(ctx, await advance(ctx));
  }
  if (!project.publicSignup) {
    s.authType = 'login';
    s.block = 'login-init';
    return refuse('social_signup_disabled');
  }
  if (!requiredAnswered(project.signupFields, s.signupFields)) {
    // a new account needs the project's required fields, which only the sign-up form asks for
    s.authType = 'signup';
    s.block = 'signup-init';
    return refuse('social_signup_fields_missing');
  }
  s.authType = 'signup';
  s.block = 'signup-init';
  s.userId = null;
  s.userHandle = null;
  s.orig = null;
  // the provider has verified the address
  s.identifiers = { email: { value: identity.email, verified: true } };
  s.fullName = identity.fullName;
  return respond(ctx, await advance(ctx));
}

/** The redirect URL of a social start: an http(s) URL on one of the project's origins; 400 otherwise. */
function checkRedirectUrl(project: ProjectConfig, raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  const fine = url && (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  if (!url || !fine || !project.allowedOrigins.includes(url.origin)) {
    throw ApiError.invalidRequest('The redirectUrl is not allowed', [
      { field: 'redirectUrl', message: "must be an http(s) URL on one of the project's allowed origins" },
    ]);
  }
  return url.href;
}

/** The identifier a social log-in counts as (JWT `orig`): the provider's address if the user has it. */
async function socialOrig(ctx: FlowContext, userId: string, identity: SocialIdentity): Promise<{ type: IdentifierType; value: string }> {
  const identifiers = await ctx.store.users.listIdentifiers(userId);
  const email = normalizedIdentifier('email', identity.email);
  const chosen = identifiers.find((i) => i.type === 'email' && i.normalized === email) ?? ctx.loginIdentifierOf(identifiers);
  return chosen ? { type: chosen.type, value: chosen.value } : { type: 'email', value: identity.email };
}

