// An error that ends a request with a non-2xx status. Raised by the flows, the account and the
// configuration below the routes; the HTTP layer turns it into the error envelope (CONTRACT §2.1).
import type { Issue } from './schema.ts';

export type ErrorType =
  | 'invalid_request'
  | 'project_id_missing'
  | 'project_not_found'
  | 'process_not_available'
  | 'not_found'
  | 'unauthorized'
  | 'forbidden_origin'
  | 'passkey_verification_failed'
  | 'too_many_requests'
  | 'internal_error'
  // the database (or another part the call needs) cannot serve for now: try again after Retry-After
  | 'service_unavailable'
  // the body: over the size limit (413), not JSON on a JSON route (415)
  | 'request_too_large'
  | 'unsupported_media_type'
  // the account calls (/v2/me, /v2/me/identifier*): what the user entered or asked for cannot be done
  | 'missing_full_name'
  | 'invalid_full_name'
  | 'identifier_invalid_format'
  | 'identifier_already_in_use'
  | 'identifier_not_allowed'
  | 'identifier_limit_reached'
  | 'last_login_identifier'
  // what cannot be undone needs a log-in within the project's recentLoginSeconds (or a fresh proof)
  | 'recent_login_required'
  // the Backend API: the host's own id for a user is unique within the project; a disabled user gets no session
  | 'external_id_in_use'
  | 'user_disabled'
  // an e-mail link opened in another browser of a project that lets it continue only where it was asked for
  | 'email_link_approval_refused'
  // a social sign-in begun on another site, finished without the result secret its callback returned to the page with
  | 'social_result_mismatch'
  | 'invalid_challenge_solution_email-otp'
  | 'invalid_challenge_solution_phone-otp';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 503;

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly type: ErrorType,
    message: string,
    readonly details?: string,
    readonly validation?: Issue[],
    /** 429, 503: seconds until the request may be made again (the Retry-After header) */
    readonly retryAfterSeconds?: number,
    /** 429: the limit that refused the request (the metrics count refusals by it; never sent) */
    readonly limit?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static invalidRequest(details: string, validation?: Issue[]): ApiError {
    return new ApiError(400, 'invalid_request', 'Bad request', details, validation);
  }

  static processNotAvailable(details: string): ApiError {
    return new ApiError(404, 'process_not_available', 'Process not available', details);
  }

  static notFound(details = 'No such resource'): ApiError {
    return new ApiError(404, 'not_found', 'Not found', details);
  }

  static unauthorized(details = 'A valid session is required'): ApiError {
    return new ApiError(401, 'unauthorized', 'Unauthorized', details);
  }

  static tooManyRequests(details: string, retryAfterSeconds: number, limit: string): ApiError {
    return new ApiError(429, 'too_many_requests', 'Too many requests', details, undefined, Math.max(1, Math.ceil(retryAfterSeconds)), limit);
  }

  static serviceUnavailable(details: string, retryAfterSeconds: number): ApiError {
    return new ApiError(503, 'service_unavailable', 'Service unavailable', details, undefined, Math.max(1, Math.ceil(retryAfterSeconds)));
  }
}
