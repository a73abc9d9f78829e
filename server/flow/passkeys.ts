// Passkeys in a process: appending one (sign-up, or offered after a log-in) and logging in with one,
// by the passkey-verify block or the autofill (conditional UI) challenge of the init blocks. Each
// challenge is single use: it is cleared before the response is verified, whatever the outcome. A log-in
// with a passkey from another device (hybrid) is followed by the offer of one for this device, where the
// project asks for it (passkey-append, variant after-hybrid). A passkey still pending (its account's
// e-mail address not yet confirmed) logs in on passkey-verify only, not by conditional UI.
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { randomBytes } from 'node:crypto';
import type { CredentialRecord } from '../store/CredentialsRepo.ts';
import { passkeyAppendBlock, passkeyVerifyBlock } from './blockBodies.ts';
import { appendCredential } from './completion.ts';
import type { FlowContext, FlowOutcome } from './FlowContext.ts';
import {
  authenticationOptions,
  parseAuthenticationResponse,
  parseRegistrationResponse,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
} from './passkeyCeremonies.ts';
import { passkeyIdentifier, passkeyPossible } from './nextStep.ts';
import { isInitBlock, type PasskeyOperation } from './processState.ts';
import { advance, enter, respond } from './transitions.ts';

/** local: an authenticator of this device; cda: a phone over hybrid; security-key: another roaming one. */
function ceremonyOf(response: AuthenticationResponseJSON, credential: CredentialRecord): PasskeyOperation['ceremonyType'] {
  if (response.authenticatorAttachment !== 'cross-platform') return 'local';
  return credential.transports.includes('hybrid') ? 'cda' : 'security-key';
}

/** Uses up a challenge of the process: cleared and saved before the response to it is verified. */
async function takeChallenge(ctx: FlowContext, field: 'appendChallenge' | 'loginChallenge' | 'conditionalChallenge'): Promise<string | null> {
  const challenge = ctx.state[field];
  if (challenge) {
    ctx.state[field] = null;
    await ctx.save();
  }
  return challenge;
}

/** Remembers a passkey this process verified or created: proving the account's address here keeps it. */
function heldInProcess(ctx: FlowContext, credentialId: string): void {
  const held = (ctx.state.passkeysOfProcess ??= []);
  if (!held.includes(credentialId)) held.push(credentialId);
}

/** A verified passkey log-in: completed, or first the offer of a passkey for this device after hybrid. */
async function passkeyLoggedIn(ctx: FlowContext, response: AuthenticationResponseJSON, credential: CredentialRecord): Promise<FlowOutcome> {
  const s = ctx.state;
  const ceremonyType = ceremonyOf(response, credential);
  s.loginProof = { method: 'passkey', passkeyId: credential.id };
  s.passkeyOperation = { operationType: 'verify', identifierValue: s.orig!.value, identifierType: s.orig!.type, ceremonyType };
  if (ceremonyType === 'cda' && ctx.project.passkeyAppendAfterHybrid && passkeyPossible(s, ctx.project) && !s.client.optOutAfterHybrid) {
    s.appendAfterHybrid = true;
    return respond(ctx, await enter(ctx, { block: 'passkey-append' }));
  }
  return respond(ctx, await enter(ctx, { block: 'completed' }));
}

export async function passkeyAppendStart(ctx: FlowContext): Promise<FlowOutcome> {
  const s = ctx.state;
  if (s.block !== 'passkey-append') return respond(ctx, { error: ctx.error('unexpected_step') });
  const identifier = passkeyIdentifier(s, ctx.project);
  const loggedIn = s.authType === 'login' && s.userId ? await ctx.store.users.get(s.userId) : undefined;
  const handle = loggedIn?.userHandle ?? s.userHandle ?? randomBytes(32).toString('base64url');
  const exclude = loggedIn ? await ctx.store.credentials.listByUser(loggedIn.id) : [];
  const options = await registrationOptions(ctx.project, { handle, name: identifier.value, displayName: s.fullName || identifier.value }, exclude);
  if (s.authType === 'signup') s.userHandle ??= handle;
  s.appendChallenge = options.challenge;
  await ctx.save();
  return { response: ctx.wrap(passkeyAppendBlock(ctx.render(), { challenge: options.json })) };
}

export async function passkeyAppendFinish(ctx: FlowContext, signedChallenge: string): Promise<FlowOutcome> {
  const response = parseRegistrationResponse(signedChallenge, 'signedChallenge');
  const s = ctx.state;
  const failed = async () => {
    await ctx.audit({ event: 'passkey.failed', outcome: 'refused', reason: 'passkey_verification_failed' });
    return respond(ctx, { error: ctx.error('passkey_verification_failed') });
  };
  if (s.block !== 'passkey-append') return failed();
  const challenge = await takeChallenge(ctx, 'appendChallenge');
  if (!challenge) return failed();
  const credential = await verifyRegistration(ctx.project, response, challenge, ctx.request.userAgent, ctx.now());
  if (!credential || (await ctx.store.credentials.findByCredentialId(ctx.project.id, credential.credentialId))) return failed();
  const identifier = passkeyIdentifier(s, ctx.project);
  const user = s.authType === 'login' && s.userId ? await ctx.store.users.get(s.userId) : undefined;
  if (user) {
    await appendCredential(ctx.store, ctx.deps.events, ctx.project, user, credential);
    heldInProcess(ctx, credential.credentialId);
  } else s.pendingCredential = credential;
  s.passkey = 'appended';
  s.passkeyOperation = { operationType: 'append', identifierValue: identifier.value, identifierType: identifier.type, ceremonyType: 'local' };
  return respond(ctx, await advance(ctx));
}

export async function passkeyLoginStart(ctx: FlowContext): Promise<FlowOutcome> {
  const s = ctx.state;
  if (s.block !== 'passkey-verify' || !s.userId) return respond(ctx, { error: ctx.error('unexpected_step') });
  const options = await authenticationOptions(ctx.project, await ctx.store.credentials.listByUser(s.userId));
  s.loginChallenge = options.challenge;
  s.passkeyTried = 'verify';
  await ctx.save();
  return { response: ctx.wrap(passkeyVerifyBlock(ctx.render(), { challenge: options.json })) };
}

export async function passkeyLoginFinish(ctx: FlowContext, signedChallenge: string): Promise<FlowOutcome> {
  const response = parseAuthenticationResponse(signedChallenge, 'signedChallenge');
  const s = ctx.state;
  const failed = async () => {
    await ctx.audit({ event: 'login.failed', outcome: 'refused', reason: 'passkey_verification_failed', details: { method: 'passkey' } });
    return respond(ctx, { error: ctx.error('passkey_verification_failed') });
  };
  if (s.block !== 'passkey-verify' || !s.userId) return failed();
  const challenge = await takeChallenge(ctx, 'loginChallenge');
  if (!challenge) return failed();
  const credential = await ctx.store.credentials.findByCredentialId(ctx.project.id, response.id);
  // pending or active: a passkey not yet confirmed still logs in when the user picks it here
  if (!credential || credential.userId !== s.userId) return failed();
  const result = await verifyAuthentication(ctx.project, response, challenge, credential);
  if (!result) return failed();
  heldInProcess(ctx, credential.credentialId);
  await ctx.store.credentials.recordUse(credential.id, result.signCount, result.backupState, ctx.now());
  return passkeyLoggedIn(ctx, response, credential);
}

/** Conditional UI (autofill) log-in with the challenge bound to the process at login-init. */
export async function mediationFinish(ctx: FlowContext, signedChallenge: string): Promise<FlowOutcome> {
  const response = parseAuthenticationResponse(signedChallenge, 'signedChallenge');
  const s = ctx.state;
  s.passkeyTried = 'autofill';
  const failed = async (code = 'invalid_conditional_ui_login'): Promise<FlowOutcome> => {
    await ctx.audit({ event: 'login.failed', outcome: 'refused', reason: code === 'invalid_conditional_ui_login' ? 'passkey_verification_failed' : 'passkey_unconfirmed', details: { method: 'passkey-autofill' } });
    if (isInitBlock(s.block)) {
      s.authType = 'login';
      s.block = 'login-init';
      await ctx.save();
    }
    return respond(ctx, { fieldError: ctx.error(code) });
  };
  if (!isInitBlock(s.block)) return failed();
  const challenge = await takeChallenge(ctx, 'conditionalChallenge');
  if (!challenge) return failed();
  const credential = await ctx.store.credentials.findByCredentialId(ctx.project.id, response.id);
  if (!credential) return failed();
  const userHandle = response.response.userHandle;
  if (userHandle && userHandle !== credential.userHandle) return failed();
  const result = await verifyAuthentication(ctx.project, response, challenge, credential);
  if (!result) return failed();
  // the holder has just shown it: an e-mail log-in in this process confirms it rather than removing it
  heldInProcess(ctx, credential.credentialId);
  // told only to the passkey's holder: confirmed by an e-mail log-in, it works here too
  if (credential.status === 'pending') return failed('conditionalUiUnconfirmedCredential');
  await ctx.store.credentials.recordUse(credential.id, result.signCount, result.backupState, ctx.now());
  const orig = ctx.loginIdentifierOf(await ctx.store.users.listIdentifiers(credential.userId));
  if (!orig) return failed();
  s.authType = 'login';
  await ctx.loadUser(credential.userId, { type: orig.type, value: orig.value });
  return passkeyLoggedIn(ctx, response, credential);
}
