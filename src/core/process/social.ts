// Social sign-in: the provider's page, and on the way back the process the server finishes for the
// visitor (applyAnswer.ts asks for that when an answer says the social log-in has finished).
import type { SocialData, SocialProvider } from '../api/types';
import { storageKeys, writeItem } from '../storage';
import { applyAnswer } from './applyAnswer';
import type { FlowContext } from './flowContext';
import { runAction, runCall } from './recovery';

export function startSocial(ctx: FlowContext, provider: SocialProvider): Promise<void> {
  return runAction(ctx, async () => {
    const block = ctx.$block.get();
    const redirectUrl = ctx.window.location.origin + ctx.window.location.pathname;
    const response = await ctx.api.socialStart(provider, redirectUrl, block?.authType ?? 'signup');
    const social = response.blockBody.data?.socialData as SocialData | undefined;
    if (social?.status === 'started' && social.oauthUrl) {
      writeItem(storageKeys.socialLogin, provider);
      ctx.window.location.assign(social.oauthUrl);
      return;
    }
    applyAnswer(ctx, response);
  });
}

export async function finishSocial(ctx: FlowContext): Promise<void> {
  ctx.socialFinishing = true;
  try {
    await runCall(ctx, () => ctx.api.socialFinish());
  } finally {
    ctx.socialFinishing = false;
  }
}
