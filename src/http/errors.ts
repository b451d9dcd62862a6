/** Every REST error code and the status it is answered with: the one table for both. */
const ERROR_STATUS = {
  invalid_json: 400,
  bad_request: 400,
  unauthorized: 401,
  plan_limit_reached: 402,
  forbidden: 403,
  csrf_failed: 403,
  not_found: 404,
  template_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  no_connected_number: 409,
  outside_window: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_error: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  field: string;
  message: string;
}

/** The one error type thrown for anything the client should hear about. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  static validation(field: string, message: string): ApiError {
    return new ApiError('validation_error', `${field}: ${message}`, [{ field, message }]);
  }
}

export interface RestErrorBody {
  result: false;
  error: { code: ErrorCode; message: string; request_id: string; details?: ErrorDetail[] };
}

export function restErrorBody(err: ApiError, requestId: string): RestErrorBody {
  return {
    result: false,
    error: {
      code: err.code,
      message: err.message,
      request_id: requestId,
      ...(err.code === 'validation_error' && err.details ? { details: err.details } : {}),
    },
  };
}
