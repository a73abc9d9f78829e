import type { IdentifierType } from '../../../core/api/types';
import { CorbadoError } from '../../../core/errors';
import { t } from '../../../core/i18n/i18n';
import { requestErrorText } from '../../requestErrorText';

/**
 * An account call's failure in the user's language: how long to wait after too many attempts, the
 * server's reason (per identifier type), or a generic text.
 */
export function accountErrorText(error: unknown, identifierType?: IdentifierType): string {
  if (error instanceof CorbadoError && error.kind === 'tooManyRequests') return t(error.translationKey, error.translationValues);
  const code = error instanceof CorbadoError && error.type ? error.type : 'unknown';
  return requestErrorText({ code, message: '' }, identifierType)!;
}
