import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';

export async function setLeadStatus(
  db: Queryable,
  workspaceId: string,
  id: string,
  status: string,
): Promise<void> {
  const { rows } = await db.query(
    'UPDATE leads SET status = $3, updated_at = now() WHERE workspace_id = $1 AND id = $2 RETURNING id',
    [workspaceId, id, status],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No lead with that id');
}
