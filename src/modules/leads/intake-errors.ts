import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { redactUrl } from '../../http/access-log.js';
import { ApiError } from '../../http/errors.js';
import { toApiError } from '../../http/fastify-errors.js';

/** The lead-intake envelope: `{"success": false, "error": "..."}`, never the REST v1 one. */
export interface IntakeFailure {
  success: false;
  error: string;
}

// Fastify's own refusals, worded for these endpoints (the REST wording speaks of JSON only).
const MESSAGES: Partial<Record<ApiError['code'], string>> = {
  invalid_json: 'The request body is not valid JSON',
  payload_too_large: 'The request body is too large',
  bad_request: 'The request could not be read',
};

/**
 * Gives every error under the plugin (thrown ApiErrors, validation failures, Fastify's own errors
 * for bad JSON, oversized bodies or wrong content types, unknown routes) the intake envelope.
 * `render` may answer a browser with a page instead (the plain HTML form).
 */
export function intakeErrors(
  app: FastifyInstance,
  options: {
    unsupportedMediaType: string;
    render?: (
      request: FastifyRequest,
      reply: FastifyReply,
      status: number,
      message: string,
    ) => FastifyReply | null;
  },
): void {
  const answer = (request: FastifyRequest, reply: FastifyReply, status: number, message: string) =>
    options.render?.(request, reply, status, message) ??
    reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send({ success: false, error: message } satisfies IntakeFailure);

  app.setErrorHandler((err, request, reply) => {
    const apiError = toApiError(err);
    if (!apiError) {
      request.log.error({ err }, 'unhandled error');
      return answer(request, reply, 500, 'Something failed on our side; please try again');
    }
    const message =
      apiError.code === 'unsupported_media_type'
        ? options.unsupportedMediaType
        : apiError.code === 'validation_error'
          ? apiError.message
          : MESSAGES[apiError.code] && !(err instanceof ApiError)
            ? MESSAGES[apiError.code]!
            : apiError.message;
    return answer(request, reply, apiError.status, message);
  });
  app.setNotFoundHandler((request, reply) =>
    answer(request, reply, 404, `No endpoint ${request.method} ${redactUrl(request.url.split('?')[0]!)}`),
  );
}
