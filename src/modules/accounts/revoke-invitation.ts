import type { Queryable } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';

/** Revokes an invitation not yet accepted: its link stops working. */
export async function revokeInvitation(db: Queryable, workspaceId: string, id: string): Promise<void> {
  const { rows } = await db.query(
    `UPDATE invitations SET revoked_at = now() WHERE workspace_id = $1 AND id = $2 AND accepted_at IS NULL
     AND revoked_at IS NULL RETURNING 1`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No open invitation with that id');
}
