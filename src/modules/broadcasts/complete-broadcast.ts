import type { AppContext } from '../../context.js';
import { emitEvent } from '../webhooks/emit.js';
import { getBroadcast } from './get-broadcast.js';
import type { Broadcast } from './schemas.js';

/** `broadcast.completed`, once per broadcast (its key), whether it completed or was cancelled. */
export async function announceCompleted(
  ctx: AppContext,
  workspaceId: string,
  broadcast: Broadcast,
): Promise<void> {
  await emitEvent(ctx, workspaceId, 'broadcast.completed', `broadcast:${broadcast.id}`, broadcast);
}

/**
 * Completes a broadcast whose recipients are all settled (none waiting to be released or for the
 * network to take its message); true when it did.
 */
export async function completeIfSettled(ctx: AppContext, workspaceId: string, id: string): Promise<boolean> {
  const { rows } = await ctx.db.query(
    `UPDATE broadcasts b SET status = 'completed', completed_at = now(), updated_at = now()
     WHERE b.workspace_id = $1 AND b.id = $2 AND b.status = 'sending' AND b.snapshot_done
       AND NOT EXISTS (SELECT 1 FROM broadcast_recipients r WHERE r.workspace_id = $1 AND r.broadcast_id = $2
         AND r.state IN ('pending', 'releasing', 'queued'))
     RETURNING id`,
    [workspaceId, id],
  );
  if (!rows[0]) return false;
  await announceCompleted(ctx, workspaceId, await getBroadcast(ctx.db, workspaceId, id));
  return true;
}
