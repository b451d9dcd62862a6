import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { scheduleDelivery } from './schedule-delivery.js';

/**
 * The workspace's number was paused (messaging/pause-number.ts): its broadcasts under way pause with
 * the reason number_paused, in the pausing transaction; a delivery stops at its next look.
 */
export async function pauseForNumber(tx: Queryable, workspaceId: string): Promise<void> {
  await tx.query(
    `UPDATE broadcasts SET status = 'paused', paused_reason = 'number_paused', waiting_until = NULL,
       updated_at = now()
     WHERE workspace_id = $1 AND status IN ('sending', 'waiting_for_limit')`,
    [workspaceId],
  );
}

/** The number was put right: the broadcasts its pause stopped go on, each with its delivery job. */
export async function resumeAfterNumber(
  ctx: AppContext,
  tx: Queryable,
  workspaceId: string,
): Promise<number> {
  const { rows } = await tx.query<{ id: string; send_at: Date | null }>(
    `UPDATE broadcasts SET paused_reason = NULL, updated_at = now(),
       status = CASE WHEN send_at > now() THEN 'scheduled' ELSE 'sending' END
     WHERE workspace_id = $1 AND status = 'paused' AND paused_reason = 'number_paused'
     RETURNING id, send_at`,
    [workspaceId],
  );
  for (const r of rows) await scheduleDelivery(ctx, { workspaceId, broadcastId: r.id }, r.send_at, tx);
  return rows.length;
}
