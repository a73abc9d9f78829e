// The tab an e-mail link opens (its two query parameters, SPEC.md section 2, "Routes"): the link's
// process is shown on the email-link-verification screen while its token is verified.
import { emailLinkTokenMissing } from '../errors';
import { readStoredProcess } from '../storage';
import { adopt, applyAnswer, setBlock } from './applyAnswer';
import { verificationMethodOf } from './block';
import { withoutEmailLinkParams, type EmailLinkEntry } from './emailLink';
import type { FlowContext } from './flowContext';
import { runAction } from './recovery';
import { initialScreen } from './screens';

export async function startFromEmailLink(ctx: FlowContext, link: EmailLinkEntry): Promise<void> {
  const stored = readStoredProcess(ctx.projectId);
  const isNewDevice = stored?.id !== link.process.id;
  ctx.window.history.replaceState(ctx.window.history.state, '', withoutEmailLinkParams(ctx.window.location.href));
  ctx.api.processId = link.process.id;
  ctx.api.processBaseUrl = link.process.frontendApiUrl || undefined;
  // straight to email-link-verification: never the link-sent screen (and its poll) in between
  setBlock(
    ctx,
    {
      type: 'email-verify',
      authType: link.authType,
      data: { ...link.blockData, verificationMethod: 'email-link' },
      alternatives: [],
    },
    true,
  );
  ctx.$screen.set('email-link-verification');
  ctx.$initState.set(2);
  if (!link.token) {
    ctx.$ceremonyError.set(emailLinkTokenMissing());
    return;
  }
  await runAction(ctx, async () => {
    const response = await ctx.api.verifyFinish('email', 'email-link', link.token, isNewDevice);
    if (!isNewDevice && link.process.expires) {
      adopt(ctx, link.process.id, link.process.expires, link.process.frontendApiUrl ?? '');
    }
    applyAnswer(ctx, response, { keepScreen: true });
    // the link's verdict: an error stays on this screen, anything else moves on
    const block = ctx.$block.get();
    if (!block || block.type === 'completed' || (block.type === 'email-verify' && block.data.error)) return;
    ctx.$screen.set(initialScreen(block.type, verificationMethodOf(block)));
  });
}
