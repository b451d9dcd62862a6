import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../api/errors.js';
import type { LimitDecision, RateLimiter } from './limiter.js';

/**
 * onRequest hook, after authentication: counts the request against its key and sets the IETF
 * RateLimit fields on every response. If the shared counter store is down the request goes through
 * (the limiter logs the outage once): an outage of Redis should not take the whole API down with it.
 */
export function rateLimit(limiter: RateLimiter) {
  const policy = `"key";q=${limiter.limit};w=${limiter.windowMs / 1000}`;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    let d: LimitDecision;
    try {
      d = await limiter.hit(request.principal().keyId);
    } catch {
      return;
    }
    reply.header('RateLimit-Policy', policy);
    reply.header('RateLimit', `"key";r=${d.remaining};t=${d.resetSeconds}`);
    if (!d.allowed) {
      reply.header('Retry-After', String(d.resetSeconds));
      throw new ApiError(
        'rate_limited',
        `Rate limit of ${limiter.limit} requests per ${limiter.windowMs / 1000} seconds reached for this key; retry after ${d.resetSeconds} seconds`,
      );
    }
  };
}
