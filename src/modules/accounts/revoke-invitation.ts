import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { canInvite, ROLES, type Role } from './roles.js';

/** Revokes an invitation not yet accepted: its link stops working. */
export async function revokeInvitation(db: Queryable, workspaceId: string, id: string): Promise<void> {
  const { rows } = await db.query(
    `UPDATE invitations SET revoked_at = now() WHERE workspace_id = $1 AND id = $2 AND accepted_at IS NULL
     AND revoked_at IS NULL RETURNING 1`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No open invitation with that id');
}

/**
 * Revokes the open invitations a member made that their new role (null: removed) could not make
 * now, so a removed or demoted admin cannot come back, or bring anyone in, through a link they sent.
 */
export async function revokeInvitationsBy(
  db: Queryable,
  workspaceId: string,
  userId: string,
  role: Role | null,
): Promise<void> {
  const stillAllowed = role === null ? [] : ROLES.filter((invited) => canInvite(role, invited));
  await db.query(
    `UPDATE invitations SET revoked_at = now() WHERE workspace_id = $1 AND invited_by = $2
     AND accepted_at IS NULL AND revoked_at IS NULL AND NOT (role = ANY($3::text[]))`,
    [workspaceId, userId, stillAllowed],
  );
}
