import type { AppContext } from '../../context.js';

/**
 * One batch of a workspace's stored media made before `cutoff`: the rows are marked removed first (so
 * nothing serves or sends them from then on), then their bytes are deleted through the media store,
 * then the rows forget their key. A run killed in between finds those rows again (removed, key still
 * set) and deletes their bytes next time. Media still downloading is never touched. Answers how many.
 */
export async function removeMedia(
  ctx: AppContext,
  workspaceId: string,
  cutoff: Date,
  size: number,
): Promise<number> {
  const { rows } = await ctx.db.query<{ id: string; storage_key: string }>(
    `WITH batch AS (
       SELECT id FROM media WHERE workspace_id = $1 AND storage_key IS NOT NULL AND created_at < $2
         AND state IN ('stored', 'removed')
       ORDER BY created_at LIMIT $3)
     UPDATE media m SET state = 'removed', updated_at = now() FROM batch b
     WHERE m.workspace_id = $1 AND m.id = b.id AND m.storage_key IS NOT NULL
     RETURNING m.id, m.storage_key`,
    [workspaceId, cutoff, size],
  );
  for (const row of rows) await ctx.media.delete(row.storage_key);
  if (rows.length > 0) {
    await ctx.db.query('UPDATE media SET storage_key = NULL WHERE workspace_id = $1 AND id = ANY($2)', [
      workspaceId,
      rows.map((r) => r.id),
    ]);
  }
  return rows.length;
}
