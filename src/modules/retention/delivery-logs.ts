import type { Queryable } from '../../db/db.js';

/**
 * One batch of a workspace's outbound webhook deliveries made before `cutoff` and done with (delivered,
 * or failed after its last try); one still pending is never touched. Answers how many went.
 */
export async function removeDeliveryLogs(
  db: Queryable,
  workspaceId: string,
  cutoff: Date,
  size: number,
): Promise<number> {
  const { rows } = await db.query<{ deleted: number }>(
    `WITH batch AS (
       SELECT id FROM webhook_deliveries WHERE workspace_id = $1 AND created_at < $2 AND status <> 'pending'
       ORDER BY created_at LIMIT $3),
     gone AS (
       DELETE FROM webhook_deliveries d USING batch b WHERE d.workspace_id = $1 AND d.id = b.id
         AND d.status <> 'pending' RETURNING 1)
     SELECT count(*)::int AS deleted FROM gone`,
    [workspaceId, cutoff, size],
  );
  return rows[0]!.deleted;
}
