// Social sign-in: start hands out the provider's authorization URL (PKCE, state, nonce) and ties the
// attempt to the browser that asked; the provider's callback (a plain browser navigation, in that same
// browser only) exchanges the code for the profile; finish logs in, links or signs up, by whether the
// provider vouches for the address (README, "Social sign-in").
//
// Across sites (the page on another site than the API) the binding cookie a fetch sets is partitioned
// by the page's site, and the callback (a top-level navigation to the API) never sees it. There the
// start hands out a first-party start on the API (GO_PATH) instead of the provider URL: the widget
// navigates the whole page to it, it sets the binding cookie first-party (one time) and sends the
// browser on to the provider, so that the callback finds the same browser. The callback then returns
// to the page with a one-time result secret in its address, and finish requires it: only the page that
// came back from the provider in this browser and holds the process (its token, in the page's storage)
// finishes it. A start URL carried to another browser gets that browser through the callback, but its
// page holds no process, and the page that does never sees the result secret.
import { ApiError } from '../ApiError.ts';
import type { IdentifierType, ProjectConfig, SocialProvider } from '../config/projectConfig.ts';
import { missingSignupFields, type SignupFieldAnswer } from '../config/signupFields.ts';
import { newSecretToken, sha256Hex } from '../randomValues.ts';
import { CALLBACK_PATH, ProviderError, type PreparedProvider, type SocialProfile } from '../social/SocialProviders.ts';
import type { FlowContext, FlowDeps, FlowOutcome } from './FlowContext.ts';
import { canonicalIdentifier, cleanedFullName, normalizedIdentifier } from './identifierRules.ts';
import { verifyStep } from './nextStep.ts';
import { isInitBlock, type AuthType, type SocialIdentity, type SocialRoundTrip } from './processState.ts';
import { checkAnswers } from './signup.ts';
import { advance, enter, respond } from './transitions.ts';

/** The first-party start of a round trip begun on another site (GET, a top-level navigation). */
export const GO_PATH = '/v2/auth/social/verify/go';
/** The query parameter that carries the result secret back to the page, across sites. */
export const RESULT_PARAM = 'cbo_social_result';

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
  /** RFC 9207: the issuer, where the provider says it sends it */
  iss?: string;
}

/** The provider callback ends in a redirect back to the app, or in an error page (400). */
export type SocialCallbackOutcome = { redirect: string } | { page: { title: string; message: string; backUrl?: string } };

/**
 * What the route hands to a start: the provider ready for this project (undefined when it could not be
 * reached; prepared outside the process's transaction) and the browser's binding secret (its cookie).
 */
export interface SocialStartContext {
  prepared: PreparedProvider | undefined;
  browser: string;
}

/** Starts a provider round trip: the init block answers socialData.status=started with the provider's URL. */
export async function socialStart(ctx: FlowContext, body: SocialStartBody, start: SocialStartContext): Promise<FlowOutcome> {
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
  if (!start.prepared) {
    await ctx.save();
    return respond(ctx, ctx.socialError('social_login_failed'));
  }
  const state = newSecretToken();
  const stateHash = sha256Hex(state);
  await ctx.store.oauthStates.insert({
    stateHash,
    processId: ctx.process.id,
    provider: body.providerType,
    createdAt: now,
    expiresAt: Math.min(now + SOCIAL_STATE_LIFETIME_MS, ctx.process.expiresAt),
    browserHash: sha256Hex(start.browser),
  });
  const apiBase = ctx.request.frontendApiUrl;
  const { url, attempt } = await start.prepared.authorization(apiBase + CALLBACK_PATH, state);
  s.social = { provider: body.providerType, redirectUrl, authType: s.authType, stateHash, apiBase, attempt, status: 'started', startedAt: now };
  if (ctx.request.crossSite) {
    // the page navigates to the API first; the binding secret travels in that address, once
    s.social.crossSite = { oauthUrl: url, goHash: sha256Hex(start.browser) };
    await ctx.save();
    const go = new URL(apiBase + GO_PATH);
    go.searchParams.set('process', ctx.process.id);
    go.searchParams.set('browser', start.browser);
    return respond(ctx, { oauthUrl: go.toString() });
  }
  await ctx.save();
  return respond(ctx, { oauthUrl: url });
}

/**
 * GO_PATH: the first-party start of a round trip begun on another site. Answers the provider URL to
 * send the browser on to, with the binding secret for the first-party cookie; once per start.
 */
export async function socialGo(deps: FlowDeps, processId: string | undefined, browser: string | undefined): Promise<{ redirect: string; browser: string } | undefined> {
  if (!processId || !browser || processId.length > 64 || browser.length > 64) return undefined;
  const { store } = deps;
  return store.transaction(async () => {
    const record = await store.processes.lock(processId);
    const trip = record?.state.social;
    if (!record || !trip?.crossSite?.goHash || trip.status !== 'started' || record.endedAt !== null || record.expiresAt <= deps.now()) return undefined;
    if (sha256Hex(browser) !== trip.crossSite.goHash || deps.now() - trip.startedAt > SOCIAL_STATE_LIFETIME_MS) return undefined;
    record.state.social = { ...trip, crossSite: { ...trip.crossSite, goHash: null } };
    await store.processes.saveState(record.id, record.state);
    return { redirect: trip.crossSite.oauthUrl, browser };
  });
}

/**
 * The provider sent the browser back (no project or process header). The state leads to the process,
 * and only in the browser that started it (its cookie); the code is exchanged at the provider (outside
 * any transaction: network calls) and the profile kept in the process for finish.
 */
export async function socialCallback(deps: FlowDeps, query: SocialCallbackQuery, browser: string | undefined): Promise<SocialCallbackOutcome> {
  const { store } = deps;
  const invalid = (message: string, backUrl?: string): SocialCallbackOutcome => ({
    page: { title: 'This sign-in cannot continue', message, ...(backUrl ? { backUrl } : {}) },
  });
  if (!query.state) return invalid('The answer from the sign-in provider has no state parameter.');
  // single use: whatever follows, this state (and the code with it) cannot be tried again
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
  /**
   * Ends the round trip on the process as it is now; a newer start meanwhile wins and this answer is
   * dropped. Across sites a finished trip returns with the result secret that finish requires.
   */
  const end = (update: Partial<SocialRoundTrip>): Promise<SocialCallbackOutcome> =>
    store.transaction(async () => {
      const fresh = await store.processes.lock(record.id);
      if (!fresh || fresh.state.social?.stateHash !== trip.stateHash || fresh.state.social.status !== 'started' || fresh.state.deliveredAt !== null) {
        return back;
      }
      let redirect = trip.redirectUrl;
      if (trip.crossSite && update.status === 'finished') {
        const result = newSecretToken();
        update = { ...update, crossSite: { ...trip.crossSite, resultHash: sha256Hex(result) } };
        const url = new URL(trip.redirectUrl);
        url.searchParams.set(RESULT_PARAM, result);
        redirect = url.toString();
      }
      fresh.state.social = { ...trip, ...update };
      await store.processes.saveState(fresh.id, fresh.state);
      return { redirect };
    });
  if (!stored.browserHash || !browser || sha256Hex(browser) !== stored.browserHash) {
    // carried to another browser (sent to someone, or replayed elsewhere): neither that browser nor the
    // one that started gets in; the starting tab shows a failed sign-in
    await end({ status: 'failed', errorCode: 'social_login_failed' });
    return invalid('This sign-in was started in another browser. Start it again in the browser you want to use.', trip.redirectUrl);
  }
  if (query.error) return end({ status: 'failed', errorCode: query.error === 'access_denied' ? 'social_login_cancelled' : 'social_login_failed' });
  if (!query.code || query.code.length > 2048 || !trip.attempt || (query.iss !== undefined && query.iss.length > 2048)) {
    return end({ status: 'failed', errorCode: 'social_login_failed' });
  }

  let profile: SocialProfile | undefined;
  try {
    const prepared = await deps.social.prepare(trip.provider, project.id, trip.apiBase);
    profile = await prepared.signIn(trip.apiBase + CALLBACK_PATH, { code: query.code, state: query.state, ...(query.iss ? { iss: query.iss } : {}) }, trip.attempt);
  } catch (error) {
    // whatever went wrong (network, provider, a token that does not check out, configuration), the
    // browser gets an in-band error; the reason goes to the log
    const detail = error instanceof ProviderError ? error.message : error;
    deps.log?.error(`social sign-in with ${trip.provider} failed for process ${record.id}`, detail);
  }
  if (!profile) return end({ status: 'failed', errorCode: 'social_login_failed' });
  const email = canonicalIdentifier('email', profile.email);
  if (!email) return end({ status: 'failed', errorCode: 'social_login_failed' });
  const identity: SocialIdentity = {
    provider: trip.provider,
    subject: profile.subject,
    email,
    emailVerified: profile.emailVerified,
    fullName: cleanedFullName(profile.fullName),
    avatarUrl: profile.avatarUrl,
  };
  return end({ status: 'finished', identity });
}

/**
 * After the round trip. The provider account already linked logs in. Otherwise, an address a user holds
 * verified: linked at once when the provider vouches for it, else only after a code to that address
 * (a log-in by code, the link at its end). Anything else signs up, with the address verified when the
 * provider vouches for it, else pending with a code asked for right after the account is made.
 */
export async function socialFinish(ctx: FlowContext, result?: string): Promise<FlowOutcome> {
  const s = ctx.state;
  const isInit = isInitBlock(s.block);
  const identity = s.social?.status === 'finished' ? s.social.identity : undefined;
  if (!isInit || !identity) {
    const error = ctx.error('unexpected_step');
    return respond(ctx, isInit ? { dataError: error } : { error });
  }
  // across sites: only the page the callback returned to (with the result secret) finishes; nothing changes otherwise
  const resultHash = s.social?.crossSite?.resultHash;
  if (resultHash && (!result || sha256Hex(result) !== resultHash)) {
    throw new ApiError(403, 'social_result_mismatch', 'Forbidden', 'This sign-in finishes only on the page its provider returned to');
  }
  const { project, store } = ctx;
  const vouched = identity.emailVerified !== false;
  s.social = null; // the profile is used once
  s.passkey = 'undecided';
  s.passkeyAcknowledged = false;
  s.passkeyOperation = null;
  s.pendingCredential = null;
  const linked = await store.socialAccounts.find(project.id, identity.provider, identity.subject);
  // linking to an address nobody has proven to own would hand that account to the provider's user: only
  // a verified holder is linked; otherwise this is a sign-up, which takes the address from pending holders
  const holder = linked ? undefined : await store.users.findVerifiedIdentifier(project.id, 'email', normalizedIdentifier('email', identity.email));
  s.socialAccount = identity;
  s.loginProof = { method: `social:${identity.provider}` };
  if (linked || holder) {
    s.authType = 'login';
    s.block = 'login-init';
    const userId = (linked ?? holder)!.userId;
    await ctx.loadUser(userId, await socialOrig(ctx, userId, identity));
    if (holder && !vouched) {
      // the provider cannot vouch for the address: whoever signs in proves it with a code to it first
      s.identifiers.email = { value: holder.value, verified: false };
      s.orig = { type: 'email', value: holder.value };
      return respond(ctx, await enter(ctx, verifyStep('email')));
    }
    return respond(ctx, await advance(ctx));
  }
  if (!project.publicSignup) {
    s.authType = 'login';
    s.block = 'login-init';
    s.socialAccount = null;
    await ctx.save();
    return respond(ctx, ctx.socialError('social_signup_disabled'));
  }
  if (Object.keys(missingSignupFields(project.signupFields, s.signupFields)).length > 0) {
    // a new account needs the project's required fields, which only the sign-up form asks for
    s.authType = 'signup';
    s.block = 'signup-init';
    s.socialAccount = null;
    await ctx.save();
    return respond(ctx, ctx.socialError('social_signup_fields_missing'));
  }
  s.authType = 'signup';
  s.block = 'signup-init';
  s.userId = null;
  s.userHandle = null;
  s.orig = null;
  // verified when the provider vouches for it; else pending, with a code right after the account is made
  s.identifiers = { email: { value: identity.email, verified: vouched } };
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
