import type { Db } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';
import { revokeInvitationsBy } from './revoke-invitation.js';
import { type Role, requireManager } from './roles.js';

/**
 * Changes a member's role, or removes them (role null) and ends their sessions. Members may remove
 * themselves; otherwise managers only. Only owners touch owners or make new ones, and a workspace
 * always keeps at least one owner. Their open invitations their new role could not make are revoked.
 */
export async function changeMember(
  db: Db,
  actor: { workspaceId: string; userId: string; role: Role },
  userId: string,
  role: Role | null,
): Promise<void> {
  if (userId !== actor.userId || role !== null) requireManager(actor.role);
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ role: string }>(
      'SELECT role FROM memberships WHERE workspace_id = $1 ORDER BY user_id FOR UPDATE',
      [actor.workspaceId],
    );
    const target = await tx.query<{ role: string }>(
      'SELECT role FROM memberships WHERE workspace_id = $1 AND user_id = $2',
      [actor.workspaceId, userId],
    );
    const current = target.rows[0]?.role;
    if (!current) throw new ApiError('not_found', 'No member with that id');
    if ((current === 'owner' || role === 'owner') && actor.role !== 'owner') {
      throw new ApiError('forbidden', 'Only an owner can change an owner or make one');
    }
    const owners = rows.filter((r) => r.role === 'owner').length;
    if (current === 'owner' && role !== 'owner' && owners <= 1) {
      throw new ApiError('conflict', 'A workspace needs at least one owner; make someone else owner first');
    }
    if (role === null) {
      await tx.query('DELETE FROM memberships WHERE workspace_id = $1 AND user_id = $2', [
        actor.workspaceId,
        userId,
      ]);
      await tx.query('DELETE FROM sessions WHERE workspace_id = $1 AND user_id = $2', [
        actor.workspaceId,
        userId,
      ]);
    } else {
      await tx.query('UPDATE memberships SET role = $3 WHERE workspace_id = $1 AND user_id = $2', [
        actor.workspaceId,
        userId,
        role,
      ]);
    }
    await revokeInvitationsBy(tx, actor.workspaceId, userId, role);
  });
}
