import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';

/** Moves a session to another workspace its user is a member of. */
export async function switchWorkspace(
  db: Queryable,
  tokenHash: string,
  userId: string,
  workspaceId: string,
): Promise<void> {
  const { rows } = await db.query(
    `UPDATE sessions SET workspace_id = $3 WHERE token_hash = $1
     AND EXISTS (SELECT 1 FROM memberships WHERE workspace_id = $3 AND user_id = $2) RETURNING 1`,
    [tokenHash, userId, workspaceId],
  );
  if (rows.length === 0) throw new ApiError('not_found', 'No such workspace');
}
