import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, restErrorBody } from './errors.js';

/** Answers with the envelope of the part of the API the path names, and the request id header. */
function refuse(request: FastifyRequest, reply: FastifyReply, status: number, message: string): FastifyReply {
  const path = request.raw.url ?? '';
  reply.code(status).header('x-request-id', request.id);
  if (path.startsWith('/api/v1/') || path === '/api/v1') {
    return reply.send(restErrorBody(new ApiError('bad_request', message), request.id));
  }
  if (path.startsWith('/api/forms/') || path.startsWith('/api/automation/webhooks/')) {
    return reply.send({ success: false, error: message });
  }
  return reply.send({ error: message });
}

/**
 * Fastify's refusals raised before routing (a path with broken percent-encoding such as
 * `/api/v1/messages/%`) skip every plugin's error handler: answer them here.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  refuse(request, reply, status, 'The request URL is not valid; check its percent-encoding');
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
    return refuse(request, reply, 400, 'The request path contains %00, which no address here holds');
  }
  return undefined;
}
