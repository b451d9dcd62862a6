import type { FastifyError } from 'fastify';
import { DatabaseUnreachableError } from '../db/outage.js';
import { type AjvError, plainValidationDetails } from './validation-messages.js';

/**
 * Every error code a client can meet and the status it is answered with: the one table, closed.
 * Users rely on these codes and statuses; add a code here rather than reuse one that means
 * something else.
 */
const ERROR_STATUS = {
  invalid_json: 400,
  bad_request: 400,
  unauthorized: 401,
  plan_limit_reached: 402,
  forbidden: 403,
  csrf_failed: 403,
  not_found: 404,
  media_not_stored: 404,
  template_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  no_connected_number: 409,
  number_paused: 409,
  outside_window: 409,
  contact_opted_out: 409,
  broadcast_state: 409,
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

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * The one error type for anything a client or operator should hear about, thrown where the rule
 * lives (domain functions, hooks, routes) and answered by the HTTP error handler or printed by the
 * CLI. `message` is for the user; what only we should see goes in `cause`, which is logged, never sent.
 */
export class ApiError extends Error {
  /** A send the network refused: the failed message Parley stored, which the client can look up. */
  readonly messageId?: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    options?: { cause?: unknown; messageId?: string },
  ) {
    super(message, options);
    if (options?.messageId) this.messageId = options.messageId;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** A 422 naming the field at fault; the message reads "field: what is wrong". */
  static validation(field: string, message: string): ApiError {
    return new ApiError('validation_error', `${field}: ${message}`, [{ field, message }]);
  }

  /** A 422 whose message already says in words what is wrong; the detail names the field. */
  static invalid(field: string, message: string): ApiError {
    return new ApiError('validation_error', message, [{ field, message }]);
  }
}

/** Seconds a client is told to wait (`Retry-After`) while the database does not answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** What a request meets while the database is unreachable; the driver's words stay in the log. */
function databaseUnavailable(cause: DatabaseUnreachableError): ApiError {
  return new ApiError(
    'unavailable',
    'The service cannot reach its database; try again in a few seconds',
    undefined,
    { cause },
  );
}

/** What a fault of ours is answered with: nothing of the fault itself reaches the client. */
export const INTERNAL_ERROR_MESSAGE = 'Something failed on our side; quote the request id if it persists';

/**
 * Turns anything thrown into the ApiError the client may see (ours, a schema validation failure,
 * Fastify's own refusals of a request, a JSON SyntaxError), or null for a fault of ours.
 */
export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof DatabaseUnreachableError) return databaseUnavailable(err);
  const e = err as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (e?.validation) return validationError(e.validation, e.validationContext ?? 'body');
  switch (e?.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('invalid_json', 'The request body is not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json', 'The request body is empty; send a JSON object');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', 'The request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(
        'unsupported_media_type',
        'Send the body as JSON with Content-Type: application/json',
      );
    case 'FST_ERR_BAD_URL':
      return new ApiError('bad_request', 'The request URL is not valid; check its percent-encoding');
  }
  if (e instanceof SyntaxError) return new ApiError('invalid_json', 'The request body is not valid JSON');
  const status = e?.statusCode ?? 500;
  if (status === 413) return new ApiError('payload_too_large', 'The request body is too large');
  if (status === 415) return new ApiError('unsupported_media_type', 'Send the body as JSON');
  if (status >= 400 && status < 500) return new ApiError('bad_request', 'The request could not be read');
  return null;
}

function validationError(errors: AjvError[], context: string): ApiError {
  const details = plainValidationDetails(errors, context);
  const first = details[0];
  return new ApiError(
    'validation_error',
    first ? `${first.field}: ${first.message}` : 'The request is not valid.',
    details,
  );
}
