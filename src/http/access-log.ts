import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { redactUrl } from '../api/redact-url.js';

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
