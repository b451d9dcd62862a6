import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.js';
import { clientAddressKey } from '../../lib/client-address.js';
import type { WebhookLimiters } from '../rate-limit/create-limiter.js';
import type { LimitDecision, RateLimiter } from '../rate-limit/limiter.js';

// Sequence ids are 23 characters: a longer segment names none, and is counted under its start.
const SEQUENCE_KEY_LENGTH = 64;

/** The decision, or undefined when the counter store is down (the limiter logs that once): let it through. */
async function ask(limiter: RateLimiter, mode: 'hit' | 'peek', key: string) {
  try {
    return await limiter[mode](key);
  } catch {
    return undefined;
  }
}

function refuse(reply: FastifyReply, d: LimitDecision, what: string): never {
  reply.header('Retry-After', String(d.resetSeconds));
  throw new ApiError('rate_limited', `${what}; retry after ${d.resetSeconds} seconds`);
}

/**
 * The workflow webhook's limits, checked before the body is read or the database asked: the
 * client address's failures (peeked, not spent), then its requests, then the sequence id's. A
 * request refused at one is not counted by the next, so a flood from one address does not spend
 * the sequence's budget for the senders it trusts.
 */
export function webhookLimits(limiters: WebhookLimiters) {
  const { address, sequence, failures } = limiters;
  const policy = `"address";q=${address.limit};w=${address.windowMs / 1000}, "sequence";q=${sequence.limit};w=${sequence.windowMs / 1000}`;
  return {
    async check(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const client = clientAddressKey(request.ip);
      const { sequenceId } = request.params as { sequenceId: string };
      reply.header('RateLimit-Policy', policy);
      const failed = await ask(failures, 'peek', client);
      if (failed && !failed.allowed) {
        refuse(
          reply,
          failed,
          `Too many refused requests (wrong secret or unknown workflow) from this address, at most ${failures.limit} a minute`,
        );
      }
      const byAddress = await ask(address, 'hit', client);
      if (byAddress && !byAddress.allowed) {
        refuse(reply, byAddress, `Too many requests from this address (at most ${address.limit} a minute)`);
      }
      const bySequence = await ask(sequence, 'hit', sequenceId.slice(0, SEQUENCE_KEY_LENGTH));
      if (bySequence && !bySequence.allowed) {
        refuse(reply, bySequence, `Too many requests for this workflow (at most ${sequence.limit} a minute)`);
      }
      const fields = [
        byAddress && `"address";r=${byAddress.remaining};t=${byAddress.resetSeconds}`,
        bySequence && `"sequence";r=${bySequence.remaining};t=${bySequence.resetSeconds}`,
      ].filter(Boolean);
      if (fields.length) reply.header('RateLimit', fields.join(', '));
    },

    /** A refusal as unknown or unauthenticated (401, 404) spends the address's failure budget. */
    async failed(request: FastifyRequest): Promise<void> {
      await ask(failures, 'hit', clientAddressKey(request.ip));
    },
  };
}
