// Sends the code or link of a verify block: a fresh secret (only its HMAC is stored, older ones of the
// process are revoked), within the project's send limits per identifier, client address and project,
// and the server's limit per identifier across all projects.
// The secrets, the resend delay, the limits and the code message are shared with codes for identifiers
// added to an account.
import { masked } from '../audit/AuditTrail.ts';
import type { Language, ProjectConfig, VerificationMethod } from '../config/projectConfig.ts';
import type { RateLimiter } from '../limits/RateLimiter.ts';
import { hmacHex, newId, newMatchCode, newOtpCode, newSecretToken } from '../randomValues.ts';
import type { Messenger } from '../senders/Messenger.ts';
import { linkEmail, otpEmail, otpSms } from '../senders/messageTexts.ts';
import type { VerificationSecretsRepo } from '../store/VerificationSecretsRepo.ts';
import { emailLinkUrl } from './emailLink.ts';
import type { FlowContext } from './FlowContext.ts';
import { normalizedIdentifier } from './identifierRules.ts';
import type { VerifiableType } from './processState.ts';
import { userAgentSource } from './userAgentSource.ts';

const SECRET_LIFETIME_MS = 10 * 60_000;

/** When a secret issued at `now` expires: its message is never sent after that. */
export function secretExpiresAt(now: number): number {
  return now + SECRET_LIFETIME_MS;
}
export const RETRY_DELAY_SECONDS = 30;

/** The one-time code an e-mail address or phone number is verified with. */
export function otpMethodOf(type: VerifiableType): 'email-otp' | 'phone-otp' {
  return type === 'email' ? 'email-otp' : 'phone-otp';
}

/** The method of a verify block: the configured one, or the type's code where none is configured. */
export function verificationMethodFor(project: ProjectConfig, type: VerifiableType): VerificationMethod {
  const configured = project.identifiers[type].verification;
  return configured !== 'none' ? configured : otpMethodOf(type);
}

/** How long until another code or link may go out after the one sent at `lastSentAt` (0: at once). */
export function resendWaitMs(lastSentAt: number | undefined, now: number): number {
  return lastSentAt === undefined ? 0 : Math.max(0, lastSentAt + RETRY_DELAY_SECONDS * 1000 - now);
}

/** Stores a fresh secret of its owner, only its HMAC; the owner's older open ones of that type are revoked. */
export function issueSecret(
  repo: VerificationSecretsRepo,
  secretKey: string,
  s: { ownerId: string; method: VerificationMethod; type: VerifiableType; value: string; secret: string; now: number },
): Promise<void> {
  return repo.issue({
    id: newId('vse'),
    ownerId: s.ownerId,
    method: s.method,
    identifierType: s.type,
    identifierValue: s.value,
    secretHash: hmacHex(secretKey, s.secret),
    createdAt: s.now,
    expiresAt: secretExpiresAt(s.now),
  });
}

/** Counts one code or link to `value` against the send limits; 429 (counting none) when one is full. */
export function takeSendLimits(limiter: RateLimiter, project: ProjectConfig, clientIp: string, type: VerifiableType, value: string): Promise<void> {
  const email = type === 'email';
  const identifier = normalizedIdentifier(type, value);
  return limiter.take(project, [
    { limit: email ? 'emailSendsPerIdentifier' : 'smsSendsPerIdentifier', subject: identifier },
    { serverLimit: email ? 'emailSendsPerIdentifier' : 'smsSendsPerIdentifier', subject: identifier },
    { limit: email ? 'emailSendsPerIp' : 'smsSendsPerIp', subject: clientIp },
    { limit: email ? 'emailSendsPerProject' : 'smsSendsPerProject', subject: 'all' },
  ]);
}

/**
 * The host an SMS code is bound to (WebOTP's `@host #code`): the page the request came from (its Origin
 * header, already checked against the project's allowed origins), else the project's first allowed
 * origin, the site it names first. The port is not part of it: the phone compares host names.
 */
export function smsOriginHost(project: ProjectConfig, requestOrigin?: string): string {
  const origin = requestOrigin !== undefined && project.allowedOrigins.includes(requestOrigin) ? requestOrigin : project.allowedOrigins[0];
  return origin ? new URL(origin).hostname : 'localhost';
}

/** Where a message is asked for: the requesting page's origin (SMS) and the visitor's language. */
export interface MessageRequest {
  origin?: string;
  language: Language;
}

/** Sends a one-time code by e-mail or SMS, in the visitor's language (else the project's). */
export function sendCode(
  messenger: Messenger,
  project: ProjectConfig,
  type: VerifiableType,
  to: string,
  code: string,
  now: number,
  page: MessageRequest,
): Promise<void> {
  return type === 'email'
    ? messenger.email(project.id, to, otpEmail({ ...project, language: page.language }, code), { code }, now, secretExpiresAt(now))
    : messenger.sms(project.id, to, otpSms(page.language, project.appName, code, smsOriginHost(project, page.origin)), { code }, now, secretExpiresAt(now));
}

export async function sendVerification(ctx: FlowContext, type: VerifiableType): Promise<void> {
  const { project } = ctx;
  const s = ctx.state;
  const value = s.identifiers[type]!.value;
  const method = verificationMethodFor(project, type);
  await takeSendLimits(ctx.deps.limiter, project, ctx.request.clientIp, type, value);
  const now = ctx.now();
  const secret = method === 'email-link' ? newSecretToken() : newOtpCode();
  await issueSecret(ctx.store.secrets, ctx.deps.secretKey, { ownerId: ctx.process.id, method, type, value, secret, now });
  s.lastSentAt[type] = now;
  await ctx.audit({ event: method === 'email-link' ? 'link.sent' : 'code.sent', details: { method, to: masked(type, value) } });
  if (method !== 'email-link') return sendCode(ctx.deps.messenger, project, type, value, secret, now, ctx.request);
  // who asked, shown where the link is opened in another browser, with a code this tab shows as well
  s.linkAsker = { ...userAgentSource(ctx.request.userAgent), matchCode: newMatchCode() };
  const link = emailLinkUrl(project, {
    // the process's id, not its token: the link must not let its holder act as the browser that asked
    processId: ctx.process.id,
    processExpiresAt: Math.floor(ctx.process.expiresAt / 1000),
    frontendApiUrl: ctx.request.frontendApiUrl,
    identifier: value,
    retryNotBefore: Math.floor(now / 1000) + RETRY_DELAY_SECONDS,
    authType: s.authType,
    token: secret,
  });
  await ctx.deps.messenger.email(project.id, value, linkEmail({ ...project, language: ctx.request.language }, link, s.authType), { link }, now, secretExpiresAt(now));
}
