import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { Done } from '../../api/schema.js';
import { createPresenceRateLimiter } from '../rate-limit/create-limiter.js';
import { spendPersonBudget } from '../rate-limit/person-budget.js';
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
      await spendPersonBudget(limiter, reply, s, 'presence updates');
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
