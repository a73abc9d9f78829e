// An e-mail link, opened (SECURITY.md, "E-mail links"). The link names its process by id and carries
// the single-use token; it never carries the process token. Opened in the browser that asked for it
// (the page sends the process token from its storage, or the browser cookie the process was started
// with), it verifies as it always did. Opened anywhere else, loading it changes nothing and spends
// nothing: the page is told what the link would approve, and only a click sends the token back, to
// approve the waiting browser, to decline it (its tab then says so), or to continue on this device.
import type { EmailLinkRequest } from '../../src/core/api/types.ts';
import { ApiError } from '../ApiError.ts';
import { missingSignupFields } from '../config/signupFields.ts';
import { sha256Hex } from '../randomValues.ts';
import { verifyBlock } from './blockBodies.ts';
import { FlowContext, type FlowOutcome } from './FlowContext.ts';
import { createProcess } from './lifecycle.ts';
import { initialState, verifyTypeOf } from './processState.ts';
import { advance, alreadyCompleted, respond } from './transitions.ts';
import { acceptProcessSecret, verifyFinish } from './verification.ts';

/** What the person at a link opened in another browser can answer. */
export const LINK_ANSWERS = ['approve', 'decline', 'here'] as const;
export type LinkAnswer = (typeof LINK_ANSWERS)[number];

/**
 * The page load. `holdsProcess`: the request named the link's process by its token (X-Corbado-Process-ID,
 * from the page's storage). The browser cookie the process was started with counts as the same browser
 * too; then the tab that asked continues (the link's page says so), as for web-js 3, which sends no token.
 */
export async function openLink(ctx: FlowContext, token: string, holdsProcess: boolean): Promise<FlowOutcome> {
  const s = ctx.state;
  const cookie = ctx.request.browserCookie;
  const sameBrowser = holdsProcess || (!!s.browser && !!cookie && sha256Hex(cookie) === s.browser);
  if (sameBrowser && !s.linkDeclinedAt) {
    if (s.deliveredAt !== null) return alreadyCompleted(ctx);
    return verifyFinish(ctx, { code: token, identifierType: 'email', verificationType: 'email-link', isNewDevice: !holdsProcess });
  }
  if (!(await liveLink(ctx, token, false))) return deadLink(ctx);
  await ctx.audit({ event: 'link.opened_elsewhere', actor: 'visitor' });
  // blockBody for clients that know nothing of linkRequest (web-js 3): an error that changes nothing
  return { response: { ...ctx.wrap(verifyBlock(ctx.render(), 'email', { dataError: ctx.error('email_link_other_browser') })), linkRequest: requestOf(ctx) } };
}

/** A deliberate answer of the person at the link; each needs the link's token and spends it. */
export async function answerLink(ctx: FlowContext, token: string, answer: LinkAnswer): Promise<FlowOutcome> {
  const s = ctx.state;
  if (answer === 'approve') {
    if (ctx.project.emailLinkOtherDevice === 'refuse') {
      throw new ApiError(403, 'email_link_approval_refused', 'Forbidden', 'This project lets an e-mail link continue only in the browser that asked for it');
    }
    if (s.deliveredAt !== null || s.linkDeclinedAt) return deadLink(ctx);
    // the waiting tab's next poll moves on; this page says "continue there"
    const outcome = await verifyFinish(ctx, { code: token, identifierType: 'email', verificationType: 'email-link', isNewDevice: true });
    if (s.identifiers.email?.verified) await ctx.audit({ event: 'link.approved', actor: 'visitor' });
    return outcome;
  }
  if (!(await liveLink(ctx, token, true))) return deadLink(ctx);
  s.linkDeclinedAt = ctx.now();
  await ctx.save();
  await ctx.audit({ event: answer === 'decline' ? 'link.declined' : 'link.continued_here', actor: 'visitor' });
  return answer === 'decline' ? declined(ctx) : continueHere(ctx);
}

/** The answer to every call on a declined process but a reset: the tab says the request was declined. */
export function declined(ctx: FlowContext): FlowOutcome {
  return { response: ctx.wrap(verifyBlock(ctx.render(), 'email', { dataError: ctx.error('email_link_declined') })) };
}

/** A link that was used, declined, replaced, expired, or never was: dead for everybody. */
function deadLink(ctx: FlowContext): FlowOutcome {
  return { response: ctx.wrap(verifyBlock(ctx.render(), 'email', { dataError: ctx.error('invalid_challenge_solution_email-link') })) };
}

/** Whether `token` is the open link of a process that still waits for it; spent when `spend`. */
async function liveLink(ctx: FlowContext, token: string, spend: boolean): Promise<boolean> {
  const s = ctx.state;
  if (s.deliveredAt !== null || s.linkDeclinedAt || verifyTypeOf(s.block) !== 'email' || ctx.project.identifiers.email.verification !== 'email-link') {
    return false;
  }
  return acceptProcessSecret(ctx, 'email', 'email-link', token, spend);
}

function requestOf(ctx: FlowContext): EmailLinkRequest {
  const s = ctx.state;
  const sentAt = s.lastSentAt.email ?? ctx.now();
  return {
    authType: s.authType,
    browser: s.linkAsker?.browser ?? 'Unknown browser',
    os: s.linkAsker?.os ?? 'Unknown OS',
    age: Math.max(0, Math.round((ctx.now() - sentAt) / 1000)),
    ...(ctx.project.emailLinkOtherDevice === 'confirm' && s.linkAsker ? { matchCode: s.linkAsker.matchCode } : {}),
  };
}

/**
 * "Log in here instead" / "Sign up here instead": a new process for this browser with the address
 * proven, and nothing else of the one that asked (its name, other identifiers, passkey were typed in
 * by whoever asked, and so were the answers to the sign-up fields). A log-in completes here; a sign-up
 * goes on here, on signup-init where the project asks for more than the address (a name, a required
 * identifier, a required sign-up field).
 */
async function continueHere(ctx: FlowContext): Promise<FlowOutcome> {
  const { project, request } = ctx;
  const asked = ctx.state;
  const state = initialState(asked.authType, { platformAuthenticator: false, conditionalMediation: false });
  const { token, record } = await createProcess(ctx.deps, project, state, request.browserCookie);
  const here = new FlowContext(ctx.deps, { ...request, processToken: token }, record);
  const email = { value: asked.identifiers.email!.value, verified: true };
  let outcome: FlowOutcome;
  if (asked.authType === 'login') {
    await here.loadUser(asked.userId!, asked.orig!);
    state.identifiers.email = email;
    outcome = await respond(here, await advance(here));
  } else {
    state.identifiers.email = email;
    // the asker's answers to the sign-up fields are his: this browser gives its own on the form
    const moreAtSignup =
      project.fullNameRequired ||
      Object.keys(missingSignupFields(project.signupFields, state.signupFields)).length > 0 ||
      (['phone', 'username'] as const).some((t) => project.identifiers[t].enabled && project.identifiers[t].required && project.identifiers[t].collectAt === 'signup');
    if (moreAtSignup) await here.save();
    outcome = moreAtSignup ? await respond(here) : await respond(here, await advance(here));
  }
  outcome.response.newProcess = { token, expiresAt: Math.floor(record.expiresAt / 1000) };
  return outcome;
}
