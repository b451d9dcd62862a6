import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';

export async function deleteQuickReply(db: Queryable, workspaceId: string, id: string): Promise<void> {
  const { rows } = await db.query(
    'DELETE FROM quick_replies WHERE workspace_id = $1 AND id = $2 RETURNING id',
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No quick reply with that id');
}
