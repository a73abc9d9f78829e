// Sends the code or link of a verify block: a fresh secret (only its HMAC is stored, older ones of the
// process are revoked), within the project's send limits per identifier, client address and project.
import { hmacHex, newId, newOtpCode, newSecretToken } from '../randomValues.ts';
import { linkEmail, otpEmail, otpSms } from '../senders/messageTexts.ts';
import { RETRY_DELAY_SECONDS, verificationMethodFor } from './blockBodies.ts';
import { emailLinkUrl } from './emailLink.ts';
import type { FlowContext } from './FlowContext.ts';
import { normalizedIdentifier } from './identifierRules.ts';
import type { VerifiableType } from './processState.ts';

export const SECRET_LIFETIME_MS = 10 * 60_000;

export async function sendVerification(ctx: FlowContext, type: VerifiableType): Promise<void> {
  const { project } = ctx;
  const s = ctx.state;
  const value = s.identifiers[type]!.value;
  const method = verificationMethodFor(project, type);
  const channel = type === 'email' ? 'email' : 'sms';
  await ctx.deps.limiter.take(project, [
    { limit: channel === 'email' ? 'emailSendsPerIdentifier' : 'smsSendsPerIdentifier', subject: normalizedIdentifier(type, value) },
    { limit: channel === 'email' ? 'emailSendsPerIp' : 'smsSendsPerIp', subject: ctx.request.clientIp },
    { limit: channel === 'email' ? 'emailSendsPerProject' : 'smsSendsPerProject', subject: 'all' },
  ]);
  const now = ctx.now();
  const secret = method === 'email-link' ? newSecretToken() : newOtpCode();
  await ctx.store.secrets.issue({
    id: newId('vse'),
    processId: ctx.process.id,
    method,
    identifierType: type,
    identifierValue: value,
    secretHash: hmacHex(ctx.deps.secretKey, secret),
    createdAt: now,
    expiresAt: now + SECRET_LIFETIME_MS,
  });
  s.lastSentAt[type] = now;
  const { messenger } = ctx.deps;
  if (method === 'email-link') {
    const link = emailLinkUrl(project, {
      processToken: ctx.request.processToken,
      processExpiresAt: Math.floor(ctx.process.expiresAt / 1000),
      frontendApiUrl: ctx.request.frontendApiUrl,
      identifier: value,
      retryNotBefore: Math.floor(now / 1000) + RETRY_DELAY_SECONDS,
      authType: s.authType,
      token: secret,
    });
    await messenger.email(project.id, value, linkEmail(project.language, project.appName, link, s.authType), { link }, now);
  } else if (method === 'email-otp') {
    await messenger.email(project.id, value, otpEmail(project.language, project.appName, secret), { code: secret }, now);
  } else {
    await messenger.sms(project.id, value, otpSms(project.language, project.appName, secret), { code: secret }, now);
  }
}
