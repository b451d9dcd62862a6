import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

// URLs that carry a secret, never written to a log: the workflow webhook's secret (its last path
// segment), an invitation's token in the web app's page and in its preview under /api/app (but
// not `accept`, nor an invitation's id, `inv_...`, which a token never looks like), and a password
// reset link's token in the web app's page.
const WEBHOOK_SECRET_SEGMENT = /^(\/api\/automation\/webhooks\/[^/?#]+\/)[^?#]+/i;
const TOKEN_SEGMENT =
  /^(\/invite\/|\/reset-password\/|\/api\/app\/invitations\/(?!accept(?:[/?#]|$)|inv_))[^/?#]+/i;

// Meta's webhook handshake carries the verify token in the query.
const VERIFY_TOKEN_PARAM = /([?&]hub\.verify_token=)[^&#]*/gi;

/** The URL as it may be logged or echoed, with the secrets it carries replaced. */
export function redactUrl(url: string): string {
  return url
    .replace(WEBHOOK_SECRET_SEGMENT, '$1[redacted]')
    .replace(VERIFY_TOKEN_PARAM, '$1[redacted]')
    .replace(TOKEN_SEGMENT, '$1[redacted]');
}

/**
 * One access-log line per request, when it completes, at debug level: at info it costs about a
 * quarter of the API's throughput (measured with npm run bench), while the proxy in front usually
 * keeps an access log and /metrics has counts and latencies by route and status. Failed requests
 * (5xx but 503) are always logged, at error level.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    // A 503 is the answer chosen while a dependency is away, whose outage is logged once, not per request.
    if (error || (reply.statusCode >= 500 && reply.statusCode !== 503)) {
      reply.log.error({ ...line, err: error }, 'request failed');
    } else reply.log.debug(line, 'request');
  }
}
