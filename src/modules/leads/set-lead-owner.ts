import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';

/** Gives the lead to a member of its workspace, or to nobody (null); anyone else is refused. */
export async function setLeadOwner(
  db: Queryable,
  workspaceId: string,
  id: string,
  ownerId: string | null,
): Promise<void> {
  const { rows } = await db.query<{ id: string; member: boolean }>(
    `UPDATE leads l SET owner_id = $3, updated_at = now()
     WHERE l.workspace_id = $1 AND l.id = $2
       AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = $1 AND m.user_id = $3))
     RETURNING l.id`,
    [workspaceId, id, ownerId],
  );
  if (rows[0]) return;
  const lead = await db.query('SELECT 1 FROM leads WHERE workspace_id = $1 AND id = $2', [workspaceId, id]);
  if (!lead.rows[0]) throw new ApiError('not_found', 'No lead with that id');
  throw new ApiError('validation_error', 'Pick a member of this workspace as the owner.', [
    { field: 'owner_id', message: 'Pick a member of this workspace.' },
  ]);
}
