import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { Done } from '../../api/schema.js';
import { createPresenceRateLimiter } from '../rate-limit/create-limiter.js';
import type { LimitDecision } from '../rate-limit/limiter.js';
import { LIVE_CHANNEL, type LiveHub } from './live-hub.js';
import type { PresenceNotice } from './presence.js';
import { PresenceBody, PresenceList } from './presence-schemas.js';

/**
 * Who is looking (issue 32): a teammate's page says "viewing" or "replying" on a conversation, and
 * "left"; every member's stream of the workspace shows it (presence.ts). One teammate's own state:
 * REST v1 has no counterpart.
 */
export function registerPresenceRoutes(app: RestApp, hub: LiveHub): void {
  const { db } = app.ctx;
  const limiter = createPresenceRateLimiter(app.ctx.config.redisUrl, app.ctx.log);
  app.addHook('onClose', async () => limiter.close());

  app.get('/presence', { schema: { response: { 200: PresenceList } } }, async (request) => ({
    result: true as const,
    presence: hub.presence.of(request.session().workspaceId),
  }));

  app.post(
    '/presence',
    { schema: { body: PresenceBody, response: { 200: Done } } },
    async (request, reply) => {
      const s = request.session();
      let d: LimitDecision | undefined;
      try {
        d = await limiter.hit(`${s.workspaceId}:${s.userId}`);
      } catch {
        // The counter store is down (the limiter logs the outage once): presence is let through.
      }
      if (d && !d.allowed) {
        reply.header('Retry-After', String(d.resetSeconds));
        throw new ApiError(
          'rate_limited',
          `At most ${limiter.limit} presence updates a minute; retry after ${d.resetSeconds} seconds`,
        );
      }
      const { contact_id: contactId, state } = request.body;
      const notice: PresenceNotice & { k: 'presence' } = {
        k: 'presence',
        w: s.workspaceId,
        u: s.userId,
        n: s.name || s.email,
        c: contactId,
        s: state,
      };
      // Only a contact of the session's workspace: the notice goes out from the same statement.
      const { rows } = await db.query(
        `SELECT pg_notify($3, $4) FROM contacts WHERE workspace_id = $1 AND id = $2`,
        [s.workspaceId, contactId, LIVE_CHANNEL, JSON.stringify(notice)],
      );
      if (!rows[0]) throw new ApiError('not_found', 'No conversation with that id');
      return { result: true as const };
    },
  );
}
