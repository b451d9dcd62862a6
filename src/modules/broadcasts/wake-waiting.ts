import type { AppContext } from '../../context.js';
import { scheduleDelivery } from './schedule-delivery.js';

/**
 * The number's messaging limit tier changed (Meta's phone_number_quality_update): the workspace's
 * broadcasts waiting for the limit look again now, instead of at their next check (up to 10 minutes).
 */
export async function wakeWaitingForLimit(ctx: AppContext, workspaceId: string): Promise<void> {
  const { rows } = await ctx.db.query<{ id: string }>(
    `UPDATE broadcasts SET waiting_until = now(), updated_at = now()
     WHERE workspace_id = $1 AND status = 'waiting_for_limit' RETURNING id`,
    [workspaceId],
  );
  for (const r of rows) await scheduleDelivery(ctx, { workspaceId, broadcastId: r.id });
}
