// Checking what a user entered (or a link carried) against a stored secret, for process verifications
// and for identifiers added to an account alike: attempt limits per identifier and client address,
// single use, expiry, a bounded number of tries per code, and a comparison in constant time.
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { LimitedSubject, RateLimiter } from '../limits/RateLimiter.ts';
import { equalHex, hmacHex } from '../randomValues.ts';
import type { VerificationSecret, VerificationSecretsRepo } from '../store/VerificationSecretsRepo.ts';
import { normalizedIdentifier } from './identifierRules.ts';
import type { VerifiableType } from './processState.ts';

export const MAX_CODE_ATTEMPTS = 5;

export interface SecretCheck {
  limiter: RateLimiter;
  /** HMAC key the secrets were stored with */
  secretKey: string;
  project: ProjectConfig;
  clientIp: string;
  /** where the secret lives (attempts and use are recorded there) */
  repo: VerificationSecretsRepo;
  /** the identifier the secret must have been sent to */
  identifier: { type: VerifiableType; value: string };
  now: number;
}

/**
 * True when `entered` matches a usable secret, which is used up then (unless `spend` is false: an
 * e-mail link opened in another browser is only looked at). 429 when the attempt limits are full
 * (checked before anything is looked at); every miss counts against them.
 */
export async function acceptSecret(
  check: SecretCheck,
  entered: string,
  find: (secretHash: string) => Promise<VerificationSecret | undefined>,
  spend = true,
): Promise<boolean> {
  const { limiter, project, repo, identifier, now } = check;
  const attempts: LimitedSubject[] = [
    { limit: 'codeAttemptsPerIdentifier', subject: normalizedIdentifier(identifier.type, identifier.value) },
    { limit: 'codeAttemptsPerIp', subject: check.clientIp },
  ];
  await limiter.check(project, attempts);
  const secretHash = hmacHex(check.secretKey, entered);
  const secret = await find(secretHash);
  const usable =
    secret &&
    secret.usedAt === null &&
    secret.revokedAt === null &&
    secret.expiresAt > now &&
    secret.attempts < MAX_CODE_ATTEMPTS &&
    secret.identifierValue === identifier.value;
  if (!usable) {
    await limiter.record(project, attempts);
    return false;
  }
  if (!equalHex(secret.secretHash, secretHash)) {
    await repo.recordFailedAttempt(secret.id);
    await limiter.record(project, attempts);
    return false;
  }
  return !spend || repo.consume(secret.id, now);
}
