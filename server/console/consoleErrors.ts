// The console's error answers: `{ error: { type, message, fields? } }` (console-contract).
import { ApiError } from '../ApiError.ts';

/** The console's error answer: `{ error: { type, message, fields? } }` (console-contract). */
export class ConsoleError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 429,
    readonly type: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = () => new ConsoleError(404, 'not_found', 'There is no such thing here');

/** An ApiError of the operations below as the console answers it. */
export function consoleErrorOf(error: ApiError): ConsoleError {
  const issues = error.validation ?? [];
  // an id the operations do not find (the Backend API's 400 "does not exist") is a 404 here
  if (error.status === 404 || (issues.length > 0 && issues.every((i) => i.message === 'does not exist'))) return notFound();
  if (error.status === 400) {
    const fields = Object.fromEntries(issues.map((i) => [i.field, i.message]));
    return new ConsoleError(400, 'invalid', error.details ?? error.message, issues.length > 0 ? fields : undefined);
  }
  if (error.status === 401) return new ConsoleError(401, 'unauthenticated', error.details ?? error.message);
  if (error.status === 403) return new ConsoleError(403, error.type === 'recent_login_required' ? error.type : 'forbidden', error.details ?? error.message);
  // a send limit (a code sent a moment ago, too many to one address): as the person's own request is refused
  if (error.status === 429) return new ConsoleError(429, 'too_many_requests', error.details ?? error.message);
  return new ConsoleError(error.status === 409 ? 409 : 400, error.type, error.details ?? error.message);
}

