import type { FastifyReply } from 'fastify';
import { ApiError } from '../../api/errors.js';
import type { LimitDecision, RateLimiter } from './limiter.js';

/**
 * Spends one of a person's budget in a workspace (`what`: "test messages", "presence updates"):
 * past it, 429 with Retry-After. A counter store that is down lets the request through (the limiter
 * logs the outage once).
 */
export async function spendPersonBudget(
  limiter: RateLimiter,
  reply: FastifyReply,
  person: { workspaceId: string; userId: string },
  what: string,
): Promise<void> {
  let d: LimitDecision | undefined;
  try {
    d = await limiter.hit(`${person.workspaceId}:${person.userId}`);
  } catch {
    return;
  }
  if (d.allowed) return;
  reply.header('Retry-After', String(d.resetSeconds));
  throw new ApiError(
    'rate_limited',
    `At most ${limiter.limit} ${what} a minute; retry after ${d.resetSeconds} seconds`,
  );
}
