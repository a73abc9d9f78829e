import type { IdentifierType } from '../../../core/api/types';
import { CorbadoError } from '../../../core/errors';
import { t } from '../../../core/i18n/i18n';
import { requestErrorText } from '../../requestErrorText';

/**
 * An account call's failure in the user's language: nothing for one nobody is shown (a cancelled
 * "Confirm it's you"), how long to wait after too many attempts, a cancelled passkey, the server's
 * reason (per identifier type), or a generic text.
 */
export function accountErrorText(error: unknown, identifierType?: IdentifierType): string {
  if (error instanceof CorbadoError && error.ignorable) return '';
  if (error instanceof CorbadoError && (error.kind === 'tooManyRequests' || error.kind === 'passkeyChallengeCancelled')) {
    return t(error.translationKey, error.translationValues);
  }
  const code = error instanceof CorbadoError && error.type ? error.type : 'unknown';
  return requestErrorText({ code, message: '' }, identifierType)!;
}
