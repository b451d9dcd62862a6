import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import type { TeamResult } from './schemas.js';

type Team = Static<typeof TeamResult>;

/** Settings › Team: the workspace's members (earliest first) and its open invitations. */
export async function listTeam(db: Queryable, workspaceId: string) {
  const members = await db.query<Team['members'][number]>(
    `SELECT u.id, u.email, u.name, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.workspace_id = $1 ORDER BY m.created_at, u.id`,
    [workspaceId],
  );
  const invitations = await db.query<Team['invitations'][number]>(
    `SELECT id, email, role, created_at, expires_at FROM invitations
     WHERE workspace_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
     ORDER BY created_at`,
    [workspaceId],
  );
  return { members: members.rows, invitations: invitations.rows };
}
