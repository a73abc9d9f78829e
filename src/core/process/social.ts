// Social sign-in: the provider's page, and on the way back the process the server finishes for the
// visitor (applyAnswer.ts asks for that when an answer says the social log-in has finished).
import type { SignupFieldAnswer, SignupFieldWithAnswer, SocialData, SocialProvider } from '../api/types';
import { storageKeys, writeItem } from '../storage';
import { applyAnswer } from './applyAnswer';
import { INIT_BLOCKS, type FlowContext } from './flowContext';
import { abort } from './history';
import { dismissError, runAction } from './recovery';
import { initialScreen } from './screens';

/**
 * The provider round trip shows the social-verify screen while it is started and while it is finished
 * (web-js 3.5 shows a loading state on the init screen then, and keeps the provider under socialLogin);
 * a failure stays on that screen, with its text and a way back (leaveSocialVerify).
 */
export function startSocial(ctx: FlowContext, provider: SocialProvider, signupFields?: SignupFieldAnswer[]): Promise<void> {
  return runAction(ctx, async () => {
    writeItem(storageKeys.socialLogin, provider);
    ctx.$screen.set('social-verify');
    const block = ctx.$block.get();
    const redirectUrl = ctx.window.location.origin + ctx.window.location.pathname;
    const response = await ctx.api.socialStart(provider, redirectUrl, block?.authType ?? 'signup', signupFields);
    const social = response.blockBody.data?.socialData as SocialData | undefined;
    if (social?.status === 'started' && social.oauthUrl) {
      ctx.window.location.assign(social.oauthUrl);
      return;
    }
    applyAnswer(ctx, response);
    // the server refused an answer to a sign-up field (a text changed meanwhile): back to the form, which shows it
    if ((response.blockBody.data?.signupFields as SignupFieldWithAnswer[] | undefined)?.some((f) => f.error)) {
      writeItem(storageKeys.socialLogin, undefined);
      ctx.$screen.set('signup-init');
    }
  });
}

/** The query parameter of the result secret a round trip begun on another site returns with (server: flow/social.ts). */
export const SOCIAL_RESULT_PARAM = 'cbo_social_result';

/** Takes the result secret out of the page's address (it is spent by the finish that follows). */
function takeSocialResult(ctx: FlowContext): string | undefined {
  const url = new URL(ctx.window.location.href);
  const result = url.searchParams.get(SOCIAL_RESULT_PARAM) ?? undefined;
  if (result !== undefined) {
    url.searchParams.delete(SOCIAL_RESULT_PARAM);
    ctx.window.history.replaceState(ctx.window.history.state, '', url.toString());
  }
  return result;
}

export async function finishSocial(ctx: FlowContext): Promise<void> {
  ctx.socialFinishing = true;
  try {
    await runAction(ctx, async () => {
      ctx.$screen.set('social-verify');
      applyAnswer(ctx, await ctx.api.socialFinish(takeSocialResult(ctx)));
    });
  } finally {
    ctx.socialFinishing = false;
  }
}

/** Back from a failed round trip: the init block's own screen, or a new process for a social-verify block. */
export function leaveSocialVerify(ctx: FlowContext): Promise<void> | void {
  writeItem(storageKeys.socialLogin, undefined);
  const block = ctx.$block.get();
  if (!block || !INIT_BLOCKS.includes(block.type)) return abort(ctx);
  dismissError(ctx);
  ctx.$screen.set(initialScreen(block.type));
}
