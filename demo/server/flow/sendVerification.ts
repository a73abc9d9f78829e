// Sends the code or link of a verify block: a fresh secret (only its HMAC is stored, older ones of the
// process are revoked), within the project's send limits per identifier, client address and project.
// The limits and the code message are shared with codes for identifiers added to an account.
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { RateLimiter } from '../limits/RateLimiter.ts';
import { hmacHex, newId, newOtpCode, newSecretToken } from '../randomValues.ts';
import type { Messenger } from '../senders/Messenger.ts';
import { linkEmail, otpEmail, otpSms } from '../senders/messageTexts.ts';
import { RETRY_DELAY_SECONDS, verificationMethodFor } from './blockBodies.ts';
import { emailLinkUrl } from './emailLink.ts';
import type { FlowContext } from './FlowContext.ts';
import { normalizedIdentifier } from './identifierRules.ts';
import type { VerifiableType } from './processState.ts';

export const SECRET_LIFETIME_MS = 10 * 60_000;

/** Counts one code or link to `value` against the send limits; 429 (counting none) when one is full. */
export function takeSendLimits(limiter: RateLimiter, project: ProjectConfig, clientIp: string, type: VerifiableType, value: string): Promise<void> {
  const email = type === 'email';
  return limiter.take(project, [
    { limit: email ? 'emailSendsPerIdentifier' : 'smsSendsPerIdentifier', subject: normalizedIdentifier(type, value) },
    { limit: email ? 'emailSendsPerIp' : 'smsSendsPerIp', subject: clientIp },
    { limit: email ? 'emailSendsPerProject' : 'smsSendsPerProject', subject: 'all' },
  ]);
}

/** Sends a one-time code by e-mail or SMS, in the project's language. */
export function sendCode(messenger: Messenger, project: ProjectConfig, type: VerifiableType, to: string, code: string, now: number): Promise<void> {
  return type === 'email'
    ? messenger.email(project.id, to, otpEmail(project.language, project.appName, code), { code }, now)
    : messenger.sms(project.id, to, otpSms(project.language, project.appName, code), { code }, now);
}

export async function sendVerification(ctx: FlowContext, type: VerifiableType): Promise<void> {
  const { project } = ctx;
  const s = ctx.state;
  const value = s.identifiers[type]!.value;
  const method = verificationMethodFor(project, type);
  await takeSendLimits(ctx.deps.limiter, project, ctx.request.clientIp, type, value);
  const now = ctx.now();
  const secret = method === 'email-link' ? newSecretToken() : newOtpCode();
  await ctx.store.secrets.issue({
    id: newId('vse'),
    ownerId: ctx.process.id,
    method,
    identifierType: type,
    identifierValue: value,
    secretHash: hmacHex(ctx.deps.secretKey, secret),
    createdAt: now,
    expiresAt: now + SECRET_LIFETIME_MS,
  });
  s.lastSentAt[type] = now;
  if (method !== 'email-link') return sendCode(ctx.deps.messenger, project, type, value, secret, now);
  const link = emailLinkUrl(project, {
    processToken: ctx.request.processToken,
    processExpiresAt: Math.floor(ctx.process.expiresAt / 1000),
    frontendApiUrl: ctx.request.frontendApiUrl,
    identifier: value,
    retryNotBefore: Math.floor(now / 1000) + RETRY_DELAY_SECONDS,
    authType: s.authType,
    token: secret,
  });
  await ctx.deps.messenger.email(project.id, value, linkEmail(project.language, project.appName, link, s.authType), { link }, now);
}
