import type { Queryable } from '../../db/db.js';

/** What a refused send told Parley of a template: it is paused or disabled on the network. */
export async function markTemplateStatus(
  db: Queryable,
  workspaceId: string,
  ref: { name: string; language: string },
  status: 'PAUSED' | 'DISABLED',
  reason: string,
): Promise<void> {
  await db.query(
    `UPDATE templates SET status = $4, status_reason = $5, updated_at = now()
     WHERE workspace_id = $1 AND name = $2 AND language = $3`,
    [workspaceId, ref.name, ref.language, status, reason],
  );
}
