import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../api/errors.js';
import { clientAddressKey } from '../../lib/client-address.js';
import type { WebhookLimiters } from '../rate-limit/create-limiter.js';
import type { LimitDecision, RateLimiter } from '../rate-limit/limiter.js';

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
 * The workflow webhook's limits. Before the body is read or the database asked: the client address's
 * refused posts (peeked, not spent), then its requests. Only once the secret or signature checks, the
 * sequence's budget (`admit`): a stranger guessing can spend its own address's budgets, never the
 * budget of the senders the sequence trusts. A request refused at one limit is not counted by the next.
 */
export function webhookLimits(limiters: WebhookLimiters) {
  const { address, sequence, failures } = limiters;
  const policy = `"address";q=${address.limit};w=${address.windowMs / 1000}, "sequence";q=${sequence.limit};w=${sequence.windowMs / 1000}`;
  const tooManyFailures = `Too many refused requests (wrong secret or unknown workflow) from this address, at most ${failures.limit} a minute`;
  return {
    async check(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const client = clientAddressKey(request.ip);
      reply.header('RateLimit-Policy', policy);
      const failed = await ask(failures, 'peek', client);
      if (failed && !failed.allowed) refuse(reply, failed, tooManyFailures);
      const byAddress = await ask(address, 'hit', client);
      if (byAddress && !byAddress.allowed) {
        refuse(reply, byAddress, `Too many requests from this address (at most ${address.limit} a minute)`);
      }
      if (byAddress)
        reply.header('RateLimit', `"address";r=${byAddress.remaining};t=${byAddress.resetSeconds}`);
    },

    /** A request whose secret or signature checked spends the sequence's budget (its id is a real one). */
    async admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const { sequenceId } = request.params as { sequenceId: string };
      const bySequence = await ask(sequence, 'hit', sequenceId);
      if (bySequence && !bySequence.allowed) {
        refuse(reply, bySequence, `Too many requests for this workflow (at most ${sequence.limit} a minute)`);
      }
      if (!bySequence) return;
      const field = `"sequence";r=${bySequence.remaining};t=${bySequence.resetSeconds}`;
      const before = reply.getHeader('RateLimit');
      reply.header('RateLimit', before ? `${before}, ${field}` : field);
    },

    /**
     * A refusal as unknown or unauthenticated (401, 404) takes one of the address's failures, in one
     * atomic count: of refusals arriving together, those past the allowance are answered 429 instead.
     */
    async failed(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const counted = await ask(failures, 'hit', clientAddressKey(request.ip));
      if (counted && !counted.allowed) refuse(reply, counted, tooManyFailures);
    },
  };
}
