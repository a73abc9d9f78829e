import type { IdentifierType } from '../../../core/api/types';
import { CorbadoError } from '../../../core/errors';
import { requestErrorText } from '../../requestErrorText';

/** An account call's failure in the user's language: the server's reason (per identifier type), or a generic text. */
export function accountErrorText(error: unknown, identifierType?: IdentifierType): string {
  const code = error instanceof CorbadoError && error.type ? error.type : 'unknown';
  return requestErrorText({ code, message: '' }, identifierType)!;
}
