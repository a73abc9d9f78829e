import type { RequestError } from '../core/api/types';
import { hasText, t } from '../core/i18n/i18n';

/**
 * A server error in the visitor's language: errors.{code}.{variant} (the identifier type, or a sign-up
 * field's type) when that variant exists, then errors.{code}, then the server's own message.
 */
export function requestErrorText(error: RequestError | undefined, identifierType?: string): string | undefined {
  if (!error) return undefined;
  if (identifierType && hasText(`errors.${error.code}.${identifierType}`)) return t(`errors.${error.code}.${identifierType}`);
  if (hasText(`errors.${error.code}`)) return t(`errors.${error.code}`);
  return error.message || t('errors.unknown');
}
