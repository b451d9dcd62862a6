import { ApiError, restErrorBody } from './errors.js';
import { toApiError } from './fastify-errors.js';
import type { RestApp } from './rest-app.js';

/** The REST error envelope for every error and unknown route of a plugin (REST v1 and the web app's API). */
export function withRestErrors(app: RestApp): void {
  app.setErrorHandler((err, request, reply) => {
    let apiError = toApiError(err);
    if (!apiError) {
      request.log.error({ err }, 'unhandled error');
      apiError = new ApiError(
        'internal_error',
        'Something failed on our side; quote the request id if it persists',
      );
    }
    return reply.code(apiError.status).send(restErrorBody(apiError, request.id));
  });
  app.setNotFoundHandler((request, reply) => {
    const err = new ApiError('not_found', `No endpoint ${request.method} ${request.url.split('?')[0]}`);
    return reply.code(404).send(restErrorBody(err, request.id));
  });
}
