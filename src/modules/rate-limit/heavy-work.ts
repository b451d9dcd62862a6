import type { FastifyReply } from 'fastify';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';

/** Exports and imports running at once, per workspace and per person (the web app); tests lower them. */
export const HEAVY_WORK = { perWorkspace: 2, perUser: 2, retryAfterSeconds: 5 };

// Counted per running server (its context): an export's cost is this process's memory and a database
// connection held, so each instance bounds its own.
const running = new WeakMap<AppContext, Map<string, number>>();

/**
 * Takes a place for an export or an import upload until its reply has closed (sent or cut off);
 * past a bound, 429 with Retry-After. A refused request takes no place.
 */
export function holdHeavyWork(
  ctx: AppContext,
  reply: FastifyReply,
  owner: { workspaceId: string; userId?: string },
): void {
  const counts = running.get(ctx) ?? new Map<string, number>();
  running.set(ctx, counts);
  const places: [key: string, bound: number, who: string][] = [
    [`w:${owner.workspaceId}`, HEAVY_WORK.perWorkspace, 'this workspace'],
  ];
  if (owner.userId) places.push([`u:${owner.userId}`, HEAVY_WORK.perUser, 'you']);
  for (const [key, bound, who] of places) {
    if ((counts.get(key) ?? 0) < bound) continue;
    reply.header('Retry-After', String(HEAVY_WORK.retryAfterSeconds));
    throw new ApiError(
      'rate_limited',
      `${bound} exports or imports are already running for ${who}; retry after ${HEAVY_WORK.retryAfterSeconds} seconds`,
    );
  }
  for (const [key] of places) counts.set(key, (counts.get(key) ?? 0) + 1);
  reply.raw.once('close', () => {
    for (const [key] of places) {
      const left = (counts.get(key) ?? 1) - 1;
      if (left > 0) counts.set(key, left);
      else counts.delete(key);
    }
  });
}
