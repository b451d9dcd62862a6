import type { FastifyReply } from 'fastify';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';

/**
 * Exports and imports running at once: per workspace, and a smaller share per person (the web app,
 * counted across their workspaces) or API key, so one of them cannot hold all of a workspace's.
 */
export const HEAVY_WORK = { perWorkspace: 3, perOwner: 2, retryAfterSeconds: 5 };

// Counted per running server (its context): an export's cost is this process's memory and a database
// connection held, so each instance bounds its own.
/** Who runs it: a person in the web app, or an API key. */
export interface HeavyWorkOwner {
  workspaceId: string;
  userId?: string;
  keyId?: string;
}

const running = new WeakMap<AppContext, Map<string, number>>();

/**
 * Takes a place for an export or an import upload until its reply has closed (sent or cut off);
 * past a bound, 429 with Retry-After. A refused request takes no place.
 */
export function holdHeavyWork(ctx: AppContext, reply: FastifyReply, owner: HeavyWorkOwner): void {
  const counts = running.get(ctx) ?? new Map<string, number>();
  running.set(ctx, counts);
  const places: [key: string, bound: number, who: string][] = [
    [`w:${owner.workspaceId}`, HEAVY_WORK.perWorkspace, 'this workspace'],
  ];
  if (owner.userId) places.push([`u:${owner.userId}`, HEAVY_WORK.perOwner, 'you']);
  if (owner.keyId) places.push([`k:${owner.keyId}`, HEAVY_WORK.perOwner, 'this API key']);
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
