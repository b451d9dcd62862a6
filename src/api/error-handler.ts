import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnreachableError } from '../db/outage.js';
import {
  ApiError,
  DATABASE_RETRY_AFTER_SECONDS,
  type ErrorCode,
  type ErrorDetail,
  INTERNAL_ERROR_MESSAGE,
  toApiError,
} from './errors.js';
import { redactUrl } from './redact-url.js';

/** How one part of the API words an error: REST v1 and the web app's API, or lead intake. */
export interface Envelope {
  send(request: FastifyRequest, reply: FastifyReply, err: ApiError): FastifyReply | Promise<FastifyReply>;
}

export interface RestErrorBody {
  result: false;
  error: {
    code: ErrorCode;
    message: string;
    request_id: string;
    details?: ErrorDetail[];
    message_id?: string;
  };
}

/**
 * `{"result": false, "error": {code, message, request_id, details?, message_id?}}`; details on 422 only,
 * message_id when the network refused a send (the failed message stored).
 */
export const restEnvelope: Envelope = {
  send: (request, reply, err) =>
    reply.send({
      result: false,
      error: {
        code: err.code,
        message: err.message,
        request_id: request.id,
        ...(err.code === 'validation_error' && err.details ? { details: err.details } : {}),
        ...(err.messageId ? { message_id: err.messageId } : {}),
      },
    } satisfies RestErrorBody),
};

export interface IntakeFailure {
  success: false;
  error: string;
  /** On a 422: each field at fault with a sentence to show beside it. */
  details?: ErrorDetail[];
}

/**
 * Lead intake's `{"success": false, "error": "...", "details"?: [...]}`. `unsupportedMediaType` says
 * which bodies the endpoint takes; `render` may answer a browser with a page instead (the plain HTML
 * form), or null to keep the JSON.
 */
export function intakeEnvelope(options: {
  unsupportedMediaType: string;
  render?: (
    request: FastifyRequest,
    reply: FastifyReply,
    failure: IntakeFailure,
  ) => Promise<FastifyReply | null> | null;
}): Envelope {
  const json = (reply: FastifyReply, failure: IntakeFailure) =>
    reply.type('application/json; charset=utf-8').send(failure);
  return {
    send: (request, reply, err) => {
      const message =
        err.code === 'unsupported_media_type'
          ? options.unsupportedMediaType
          : err.code === 'internal_error'
            ? 'Something failed on our side; please try again'
            : err.message;
      const failure: IntakeFailure = {
        success: false,
        error: message,
        ...(err.code === 'validation_error' && err.details ? { details: err.details } : {}),
      };
      const page = options.render?.(request, reply, failure);
      return page ? page.then((sent) => sent ?? json(reply, failure)) : json(reply, failure);
    },
  };
}

/** Answers anything thrown: its ApiError, or for a fault of ours a logged 500 that tells nothing of it. */
function answer(
  envelope: Envelope,
  err: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | Promise<FastifyReply> {
  let apiError = toApiError(err);
  if (!apiError) {
    request.log.error({ err }, 'unhandled error');
    apiError = new ApiError('internal_error', INTERNAL_ERROR_MESSAGE);
  } else if (apiError.cause instanceof DatabaseUnreachableError) {
    // The database layer logs the outage once when it starts and once when it ends, not per request.
    request.log.debug({ err: apiError.cause }, apiError.message);
    reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
  } else if (apiError.cause !== undefined) {
    request.log[apiError.status >= 500 ? 'error' : 'debug']({ err: apiError.cause }, apiError.message);
  }
  // A library's own refusal (a static file's 416, say) keeps its status; the body is our envelope.
  const theirs = (err as FastifyError | undefined)?.statusCode;
  const status =
    !(err instanceof ApiError) && apiError.code === 'bad_request' && theirs && theirs > 400 && theirs < 500
      ? theirs
      : apiError.status;
  reply.code(status).header('x-request-id', request.id);
  return envelope.send(request, reply, apiError);
}

/** Every error and unknown route under the plugin answered in its envelope. */
export function answerErrorsWith(app: FastifyInstance, envelope: Envelope): void {
  app.setErrorHandler((err, request, reply) => answer(envelope, err, request, reply));
  app.setNotFoundHandler((request, reply) => answerNotFound(envelope, request, reply));
}

export function answerNotFound(
  envelope: Envelope,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | Promise<FastifyReply> {
  const path = redactUrl(request.url.split('?')[0]!);
  return answer(envelope, new ApiError('not_found', `No endpoint ${request.method} ${path}`), request, reply);
}

const INTAKE_PATHS = /^\/api\/(forms|automation\/webhooks)\//;
const intakeByPath = intakeEnvelope({ unsupportedMediaType: 'Send the body as JSON' });

/**
 * Where no plugin's handler applies (before routing, and the server's own routes such as /f/{token}
 * or /readyz): the envelope of the part of the API the path names.
 */
export function answerForPath(
  err: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | Promise<FastifyReply> {
  const envelope = INTAKE_PATHS.test(request.raw.url ?? '') ? intakeByPath : restEnvelope;
  return answer(envelope, err, request, reply);
}

/**
 * Fastify's refusals raised before routing (a path with broken percent-encoding such as
 * `/api/v1/messages/%`) skip every plugin's error handler: answered here.
 */
export function preRoutingErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // All of them refuse the request as sent, none is a fault of ours.
  answerForPath(
    toApiError(error) ?? new ApiError('bad_request', 'The request could not be read'),
    request,
    reply,
  );
}

const NUL_IN_PATH = /%00/i;

/**
 * A path holding U+0000 (`%00`) names nothing here, and a path parameter carrying it would reach
 * PostgreSQL, which cannot take it in text and fails the query (a 500). Refused for every route.
 */
export async function refuseNulInPath(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const url = request.raw.url ?? '';
  const q = url.indexOf('?');
  if (NUL_IN_PATH.test(q === -1 ? url : url.slice(0, q))) {
    const err = new ApiError('bad_request', 'The request path contains %00, which no address here holds');
    return answerForPath(err, request, reply);
  }
  return undefined;
}
