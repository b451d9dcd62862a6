import { ApiError } from '../../api/errors.js';
import type { Db } from '../../db/db.js';
import { recordAudit } from '../audit/record-audit.js';
import { revokeInvitationsBy } from './revoke-invitation.js';
import { type Role, requireManager } from './roles.js';

/**
 * Changes a member's role, or removes them (role null), ends their sessions (and so their live
 * streams) and unassigns their conversations and leads. Members may remove
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
      // What they looked after goes back to the team: nobody would see it as theirs again.
      await tx.query(
        'UPDATE conversations SET assignee_id = NULL, updated_at = now() WHERE workspace_id = $1 AND assignee_id = $2',
        [actor.workspaceId, userId],
      );
      await tx.query('UPDATE leads SET owner_id = NULL WHERE workspace_id = $1 AND owner_id = $2', [
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
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actor: { type: 'user', id: actor.userId },
      action: role === null ? 'delete' : 'update',
      entityType: 'member',
      entityId: userId,
      changes: role === null ? { from: current } : { fields: ['role'], from: current, role },
    });
  });
}
