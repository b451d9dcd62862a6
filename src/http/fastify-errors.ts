import type { FastifyError } from 'fastify';
import { ApiError, type ErrorDetail } from './errors.js';

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * Turns whatever reached the error handler into an ApiError the client may see, or null for a
 * fault of ours (logged, answered as a plain 500).
 */
export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  const e = err as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (e.validation) return validationError(e.validation, e.validationContext ?? 'body');
  switch (e.code) {
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
  }
  if (e instanceof SyntaxError) return new ApiError('invalid_json', 'The request body is not valid JSON');
  const status = e.statusCode ?? 500;
  if (status === 413) return new ApiError('payload_too_large', 'The request body is too large');
  if (status === 415) return new ApiError('unsupported_media_type', 'Send the body as JSON');
  if (status >= 400 && status < 500) return new ApiError('bad_request', 'The request could not be read');
  return null;
}

function validationError(errors: AjvError[], context: string): ApiError {
  const details = errors.slice(0, 20).map((e) => describe(e, context));
  const first = details[0];
  return new ApiError(
    'validation_error',
    first ? `${first.field}: ${first.message}` : 'The request is not valid',
    details,
  );
}

function describe(e: AjvError, context: string): ErrorDetail {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const prefix = context === 'body' ? [] : [context];
  const field = (extra?: unknown) =>
    [...prefix, ...path, ...(extra ? [String(extra)] : [])].join('.') || context;
  switch (e.keyword) {
    case 'required':
      return { field: field(e.params.missingProperty), message: 'is required' };
    case 'additionalProperties':
      return { field: field(e.params.additionalProperty), message: 'is not a known field' };
    case 'pattern':
      return { field: field(), message: 'contains characters that are not allowed' };
    default:
      return { field: field(), message: e.message ?? 'is not valid' };
  }
}
