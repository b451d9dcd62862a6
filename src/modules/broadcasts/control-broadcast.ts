import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { announceCompleted } from './complete-broadcast.js';
import { getBroadcast } from './get-broadcast.js';
import { CANCELLED } from './release-batch.js';
import { scheduleDelivery } from './schedule-delivery.js';
import type { Broadcast, BroadcastStatus } from './schemas.js';

type Move = 'pause' | 'resume' | 'cancel';

/** The states each move starts from: any other answers 409 broadcast_state. */
const FROM: Record<Move, BroadcastStatus[]> = {
  pause: ['scheduled', 'sending', 'waiting_for_limit'],
  // A draft is started by resuming it.
  resume: ['paused', 'draft'],
  cancel: ['draft', 'scheduled', 'sending', 'paused', 'waiting_for_limit'],
};

const SET: Record<Move, string> = {
  pause: `status = 'paused', paused_reason = NULL`,
  resume: `paused_reason = NULL, status = CASE WHEN send_at > now() THEN 'scheduled' ELSE 'sending' END,
    started_at = CASE WHEN send_at > now() THEN started_at ELSE coalesce(started_at, now()) END`,
  cancel: `status = 'cancelled', cancelled_at = now()`,
};

/**
 * Pause, resume or cancel, as one guarded update: a delivery in progress sees the new state at its
 * next batch and stops (sends already handed to the network go on). Cancelling skips the recipients
 * not yet released and announces `broadcast.completed` with status cancelled.
 */
export async function controlBroadcast(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  move: Move,
): Promise<Broadcast> {
  const moved = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ status: BroadcastStatus; send_at: Date | null }>(
      `UPDATE broadcasts SET ${SET[move]}, updated_at = now()
       WHERE workspace_id = $1 AND id = $2 AND status = ANY ($3::text[]) RETURNING status, send_at`,
      [workspaceId, id, FROM[move]],
    );
    const row = rows[0];
    if (!row) return null;
    if (move === 'cancel') {
      await tx.query(
        `UPDATE broadcast_recipients SET state = 'skipped', error_title = $3
         WHERE workspace_id = $1 AND broadcast_id = $2 AND state = 'pending'`,
        [workspaceId, id, CANCELLED],
      );
    }
    if (move === 'resume') await scheduleDelivery(ctx, { workspaceId, broadcastId: id }, row.send_at, tx);
    return row;
  });
  if (!moved) {
    const current = await getBroadcast(ctx.db, workspaceId, id);
    throw new ApiError(
      'broadcast_state',
      `A ${current.status.replaceAll('_', ' ')} broadcast cannot be ${move === 'pause' ? 'paused' : move === 'resume' ? 'resumed' : 'cancelled'}`,
    );
  }
  // Read before waking the delivery: the answer is the move's result, not what a worker did next
  // (a resumed broadcast whose number is gone was already paused again by the time it was read).
  const broadcast = await getBroadcast(ctx.db, workspaceId, id);
  if (move === 'resume' && moved.status === 'sending') ctx.queue?.wake('broadcasts.deliver');
  if (move === 'cancel') await announceCompleted(ctx, workspaceId, broadcast);
  return broadcast;
}
