// The end of a process: sign-up creates the user (identifiers, passkey, provider account) in one
// transaction, log-in confirms what it verified, and the completed block hands out the sessions once.
import { randomBytes } from 'node:crypto';
import { ApiError } from '../ApiError.ts';
import { handsOutLongSession, IDENTIFIER_TYPES, type ProjectConfig } from '../config/projectConfig.ts';
import { SignupFieldsMissing } from '../config/signupFields.ts';
import { identifierData, passkeyData, type IdentifierData } from '../events/eventTypes.ts';
import type { EventRecorder } from '../events/WebhookEvents.ts';
import type { CreatedUser } from '../session/Sessions.ts';
import type { CredentialRecord } from '../store/CredentialsRepo.ts';
import { newId } from '../randomValues.ts';
import { UniqueViolation } from '../store/Database.ts';
import type { Store } from '../store/Store.ts';
import type { IdentifierRecord } from '../store/UsersRepo.ts';
import { completedBlock, type BlockExtras } from './blockBodies.ts';
import type { FlowContext, FlowOutcome } from './FlowContext.ts';
import { normalizedIdentifier } from './identifierRules.ts';
import { primaryIdentifier, VERIFIABLE_TYPES } from './nextStep.ts';
import { claimIdentifier, removeOtherHolders, takeOverUnverifiedAccount } from './ownership.ts';
import { socialLinkedEmail } from '../senders/messageTexts.ts';
import type { PendingCredential, SocialIdentity, VerifiableType } from './processState.ts';

/** How long a notice (a provider account linked) is tried before it is given up. */
const NOTICE_LIFETIME_MS = 24 * 60 * 60_000;

/** The completed block, with a new session; the process is over afterwards. */
export async function deliverCompleted(ctx: FlowContext): Promise<FlowOutcome> {
  const s = ctx.state;
  const now = ctx.now();
  // a sign-up completed in this very call: the user and its identifiers as createUser inserted them
  const created = ctx.createdUser?.user.id === s.userId ? ctx.createdUser : undefined;
  const session = await ctx.deps.sessions.start(ctx.project, s.userId!, s.orig!.value, ctx.request.frontendApiUrl, now, ctx.request.userAgent, created);
  s.deliveredAt = now;
  s.sessionId = session.id;
  await ctx.save();
  if (s.authType === 'login') {
    // a sign-up's session is told by user.created
    const proof = s.loginProof ?? { method: 'unknown' };
    await ctx.deps.events.record(ctx.project.id, 'user.logged_in', {
      userId: s.userId!,
      method: proof.method,
      identifier: { type: s.orig!.type, value: s.orig!.value },
      ...(proof.passkeyId ? { passkeyId: proof.passkeyId } : {}),
    }, { details: { method: ctx.proofMethod(), process: ctx.process.id, ...(proof.method !== 'passkey' && s.passkeyTried ? { fallback: true } : {}) } });
  }
  const block = completedBlock(
    s.authType,
    {
      shortSession: session.shortSession,
      ...(handsOutLongSession(ctx.project, ctx.request.crossSite) ? { longSession: session.longSession } : {}),
    },
    s.passkeyOperation,
  );
  return {
    response: ctx.wrap(block),
    longSession: { token: session.longSession, maxAgeSeconds: session.longSessionMaxAgeSeconds },
  };
}

/**
 * Sign-up completion: the user, its identifiers, the appended passkey and the provider account, all or
 * nothing. An identifier someone registered meanwhile sends the process back to signup-init.
 */
export async function createUser(ctx: FlowContext): Promise<BlockExtras | undefined> {
  const { project, store } = ctx;
  const s = ctx.state;
  const entered = IDENTIFIER_TYPES.filter((t) => !!s.identifiers[t]?.value);
  const takenNow = async () => {
    const taken: (typeof IDENTIFIER_TYPES)[number][] = [];
    for (const t of entered) {
      // only a verified holder owns a value; pending copies elsewhere are removed when the user is created
      if (await store.users.findVerifiedIdentifier(project.id, t, normalizedIdentifier(t, s.identifiers[t]!.value))) taken.push(t);
    }
    return taken;
  };
  const social = s.socialAccount;
  let taken = await takenNow();
  if (taken.length === 0 && !(social && (await store.socialAccounts.find(project.id, social.provider, social.subject)))) {
    try {
      await store.transaction(() => insertUser(ctx, entered));
      return undefined;
    } catch (error) {
      if (error instanceof SignupFieldsMissing) return askForFields(ctx, error);
      // another instance created the same identifier between the check and the insert
      if (!(error instanceof UniqueViolation)) throw error;
      taken = await takenNow();
    }
  }
  if (social) {
    // taken meanwhile (another tab or sign-up): start over rather than join someone else's account
    s.block = 'signup-init';
    s.passkey = 'undecided';
    s.pendingCredential = null;
    s.identifiers = {};
    s.fullName = '';
    s.socialAccount = null;
    return ctx.socialError('social_account_conflict');
  }
  // someone else registered the identifier meanwhile: back to the start with the values kept
  s.block = 'signup-init';
  s.passkey = 'undecided';
  s.pendingCredential = null;
  for (const t of entered) s.identifiers[t]!.verified = false;
  const conflicting = taken.length > 0 ? taken : entered;
  return { identifierErrors: Object.fromEntries(conflicting.map((t) => [t, ctx.error('identifier_already_in_use', t)])) };
}

/**
 * The account was refused for its sign-up fields: a required one this process has no answer to (a way
 * in that skipped the form), or one the project has changed since it was answered. Back to signup-init,
 * the fields' errors shown and the identifiers kept (a proven one stays proven); a box answered for an
 * older text comes back unticked. A social sign-up starts again from the form, whose answers it needs.
 */
function askForFields(ctx: FlowContext, refusal: SignupFieldsMissing): BlockExtras {
  const s = ctx.state;
  s.block = 'signup-init';
  s.passkey = 'undecided';
  s.pendingCredential = null;
  s.signupFields = s.signupFields?.map((a) => (refusal.missing[a.id] === 'signup_field_outdated' ? { ...a, accepted: false } : a));
  const signupFieldErrors = Object.fromEntries(Object.entries(refusal.missing).map(([id, code]) => [id, ctx.error(code)]));
  if (!s.socialAccount) return { signupFieldErrors };
  s.socialAccount = null;
  s.identifiers = {};
  s.fullName = '';
  return { signupFieldErrors, ...ctx.socialError('social_signup_fields_missing') };
}

async function insertUser(ctx: FlowContext, entered: readonly (typeof IDENTIFIER_TYPES)[number][]): Promise<void> {
  const { project, store } = ctx;
  const s = ctx.state;
  const now = ctx.now();
  const userId = newId('usr');
  const userHandle = s.userHandle ?? randomBytes(32).toString('base64url');
  // the answers given in this process: a required field unanswered (or answered for an older text)
  // refuses the account here (SignupFieldsMissing), whichever way the process came
  const user = { id: userId, projectId: project.id, fullName: s.fullName, userHandle, createdAt: now, status: 'active', externalId: null } as const;
  await store.users.insertUsers(project, [{ ...user, signupAnswers: s.signupFields ?? [] }]);
  const identifiers: IdentifierData[] = [];
  const inserted: CreatedUser['identifiers'][number][] = [];
  for (const type of entered) {
    const identifier = s.identifiers[type]!;
    const normalized = normalizedIdentifier(type, identifier.value);
    // usernames cannot be verified; other identifiers are verified only by a code or link
    const status = identifier.verified || type === 'username' ? 'verified' : 'pending';
    const record = { id: newId('ide'), userId, type, value: identifier.value, normalized, status } as const;
    await store.users.insertIdentifier(project.id, record, now);
    identifiers.push(identifierData(record));
    inserted.push({ type, value: identifier.value, status });
    // proven in this sign-up (or by the provider of a social sign-up): the value is this user's now
    if (status === 'verified') await removeOtherHolders(store, ctx.deps.events, project.id, type, normalized, userId);
  }
  // the provider account first: whether the passkey waits for a proof depends on it (awaitsConfirmation)
  if (s.socialAccount) await linkSocialAccount(ctx, userId, s.socialAccount, false);
  const pending = s.pendingCredential;
  const passkeys: CredentialRecord[] = [];
  if (pending && !(await store.credentials.findByCredentialId(project.id, pending.credentialId))) {
    passkeys.push(await insertCredential(store, project, userId, userHandle, pending));
    await ctx.audit({ event: 'passkey.created', userId, target: `passkey:${passkeys[0]!.id}`, details: { aaguid: passkeys[0]!.aaguid, status: passkeys[0]!.status } });
  }
  await ctx.deps.events.record(project.id, 'user.created', {
    userId,
    fullName: s.fullName,
    identifiers,
    passkeys: passkeys.map(passkeyData),
    socialProviders: s.socialAccount ? [s.socialAccount.provider] : [],
    source: 'signup',
  }, { event: 'signup.succeeded', details: { method: s.socialAccount ? `social:${s.socialAccount.provider}` : ctx.proofMethod(), process: ctx.process.id } });
  // the state changes only once every row is in (a conflict above leaves it as it was); socialAccount
  // stays: it marks the sign-up as social until it completes (its address is verified after the account)
  s.pendingCredential = null;
  s.userId = userId;
  s.userHandle = userHandle;
  ctx.createdUser = { user, identifiers: inserted };
  s.orig = primaryIdentifier(s, project) ?? null;
}

/**
 * Log-in completion (and post-signup-email-verify's): identifiers proven by a code or link during the
 * process are claimed for the user. Proving an address of an account without any verified identifier
 * first takes that account over (see takeOverUnverifiedAccount), unless this process created it. An
 * address another account has claimed meanwhile is refused with identifier_already_in_use.
 */
export async function confirmLogin(ctx: FlowContext): Promise<BlockExtras | undefined> {
  const { store, project } = ctx;
  const s = ctx.state;
  const userId = s.userId;
  if (!userId) return undefined;
  // the account was deleted while this log-in ran
  if (!(await store.users.get(userId))) throw ApiError.processNotAvailable('The account no longer exists');
  const held = await store.users.listIdentifiers(userId);
  const proven: IdentifierRecord[] = [];
  for (const type of VERIFIABLE_TYPES) {
    const entered = s.identifiers[type];
    if (!entered?.verified) continue;
    const identifier = held.find((i) => i.type === type && i.value === entered.value);
    if (identifier?.status === 'verified') continue;
    const owner = await store.users.findVerifiedIdentifier(project.id, type, normalizedIdentifier(type, entered.value));
    if (owner && owner.userId !== userId) return lostClaim(ctx, type);
    if (identifier) proven.push(identifier);
  }
  if (proven.length > 0) {
    const lost = await store.transaction(async () => {
      if (s.authType === 'login' && !held.some((i) => i.status === 'verified')) {
        await takeOverUnverifiedAccount(store, ctx.deps.events, project.id, userId, s.passkeysOfProcess ?? [], ctx.now());
      }
      for (const identifier of proven) {
        // claimed by another account between the check above and now: undo the take-over too
        if (!(await claimIdentifier(store, ctx.deps.events, project.id, identifier))) throw new LostClaim(identifier.type as VerifiableType);
      }
      return undefined;
    }).catch((error: unknown) => {
      if (error instanceof LostClaim) return error.type;
      throw error;
    });
    if (lost) return lostClaim(ctx, lost);
  }
  if (s.socialAccount) {
    await linkSocialAccount(ctx, userId, s.socialAccount, true);
    s.socialAccount = null;
  }
  return undefined;
}

class LostClaim extends Error {
  constructor(readonly type: VerifiableType) {
    super(`${type} claimed by another account`);
  }
}

/** The proof came too late: another account owns the value now. The process stays where it is. */
function lostClaim(ctx: FlowContext, type: VerifiableType): BlockExtras {
  ctx.state.identifiers[type]!.verified = false;
  return { error: ctx.error('identifier_already_in_use', type) };
}

/**
 * A passkey is pending, not yet good for a conditional-UI log-in, while its account waits for the
 * e-mail address it is to be confirmed by: verified after sign-up (verifyAt 'after-signup') and no
 * address of the user verified so far; or an account a provider made without vouching for its address
 * and nothing of it proven since (the owner of the address takes such an account over with its pending
 * passkeys removed: ownership.ts).
 */
async function awaitsConfirmation(store: Store, project: ProjectConfig, userId: string): Promise<boolean> {
  const held = await store.users.listIdentifiers(userId);
  const emails = held.filter((i) => i.type === 'email');
  if (project.identifiers.email.verifyAt === 'after-signup' && emails.length > 0 && !emails.some((i) => i.status === 'verified')) return true;
  if (held.some((i) => i.status === 'verified' && i.type !== 'username')) return false;
  return (await store.socialAccounts.listByUser(userId)).length > 0;
}

/** Writes a verified registration (sign-up's, or an append during log-in or in the account) to the user. */
export async function insertCredential(
  store: Store,
  project: ProjectConfig,
  userId: string,
  userHandle: string,
  c: PendingCredential,
): Promise<CredentialRecord> {
  const record: CredentialRecord = {
    id: newId('cre'),
    projectId: project.id,
    userId,
    credentialId: c.credentialId,
    publicKey: new Uint8Array(Buffer.from(c.publicKey, 'base64url')),
    userHandle,
    aaguid: c.aaguid,
    backupEligible: c.backupEligible,
    backupState: c.backupState,
    transports: c.transports,
    signCount: c.signCount,
    attestationType: c.attestationType,
    sourceBrowser: c.sourceBrowser,
    sourceOS: c.sourceOS,
    status: (await awaitsConfirmation(store, project, userId)) ? 'pending' : 'active',
    createdAt: c.createdAt,
    lastUsedAt: c.createdAt,
  };
  await store.credentials.insert(record);
  return record;
}

/** A passkey added to an existing user (a log-in's append, the account page's): written and told, in the caller's transaction. */
export async function appendCredential(
  store: Store,
  events: EventRecorder,
  project: ProjectConfig,
  user: { id: string; userHandle: string },
  c: PendingCredential,
): Promise<CredentialRecord> {
  const record = await insertCredential(store, project, user.id, user.userHandle, c);
  await events.record(project.id, 'passkey.added', { userId: user.id, passkey: passkeyData(record) });
  return record;
}

/**
 * Links (or refreshes) the provider account of a social sign-in to the user; inside the completion. A
 * provider account linked to an account that existed before is announced to that account's address,
 * through the deliveries table of this transaction.
 */
async function linkSocialAccount(ctx: FlowContext, userId: string, account: SocialIdentity, existingUser: boolean): Promise<void> {
  const { store, project } = ctx;
  const now = ctx.now();
  const existing = await store.socialAccounts.find(project.id, account.provider, account.subject);
  if (existing) {
    if (existing.userId === userId) await store.socialAccounts.recordUse(existing.id, account, now);
    return;
  }
  if (existingUser) {
    const held = await store.users.listIdentifiers(userId);
    const email = normalizedIdentifier('email', account.email);
    // the address the link was proven with (a verified one of the user's), else the primary verified one
    const to = held.find((i) => i.type === 'email' && i.status === 'verified' && i.normalized === email) ?? held.find((i) => i.type === 'email' && i.status === 'verified' && i.primary);
    if (to) await ctx.deps.messenger.email(project.id, to.value, socialLinkedEmail(project, account.provider, account.email), {}, now, now + NOTICE_LIFETIME_MS);
  }
  await store.socialAccounts.insert({
    id: newId('soc'),
    projectId: project.id,
    userId,
    provider: account.provider,
    subject: account.subject,
    email: account.email,
    fullName: account.fullName,
    avatarUrl: account.avatarUrl,
    createdAt: now,
    lastUsedAt: now,
  });
  // a sign-up's provider account is in user.created
  if (existingUser) await ctx.deps.events.record(project.id, 'social_account.linked', { userId, provider: account.provider });
}
