// An HTTP-level error. The global error handler turns it into the error envelope (CONTRACT §2.1).
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
  | 'internal_error';

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 500,
    readonly type: ErrorType,
    message: string,
    readonly details?: string,
    readonly validation?: Issue[],
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
}
