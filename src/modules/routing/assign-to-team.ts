import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { type ChangedBy, changeConversationIn } from '../inbox/change-conversation.js';
import type { AfterCommit } from '../messaging/events.js';
import { availableSql } from './availability.js';

export interface TeamAssignment {
  /** The member round robin picked, or null: nobody was available under the cap, left in the team's queue. */
  assigneeId: string | null;
  /** What must run once the caller's transaction commits (conversation.changed's subscribers' work). */
  after: AfterCommit[];
}

/**
 * Gives the conversation to a team, in `tx`: the team is locked (one pick at a time per team), then
 * its available member (online, seen within the idle limit) holding fewer open or pending
 * conversations than the team's cap who waited longest since their last one (never first) gets it.
 * With nobody so, the conversation is the team's, unassigned. 404 for a team not of the workspace.
 */
export async function assignToTeam(
  ctx: AppContext,
  tx: Queryable,
  by: ChangedBy,
  contactId: string,
  teamId: string,
): Promise<TeamAssignment> {
  const { workspaceId } = by;
  const team = await tx.query<{ max_open_per_member: number | null }>(
    'SELECT max_open_per_member FROM teams WHERE workspace_id = $1 AND id = $2 FOR UPDATE',
    [workspaceId, teamId],
  );
  if (!team.rows[0]) throw new ApiError('not_found', 'No team with that id');
  const { rows } = await tx.query<{ user_id: string }>(
    `SELECT tm.user_id FROM team_members tm
     JOIN memberships m ON m.workspace_id = tm.workspace_id AND m.user_id = tm.user_id
     LEFT JOIN routing_settings rs ON rs.workspace_id = tm.workspace_id
     WHERE tm.workspace_id = $1 AND tm.team_id = $2 AND ${availableSql('m', 'rs')}
       AND ($3::int IS NULL OR (SELECT count(*) FROM conversations c
         WHERE c.workspace_id = $1 AND c.assignee_id = tm.user_id AND c.state <> 'resolved'
           AND c.contact_id <> $4) < $3)
     ORDER BY tm.last_assigned_at ASC NULLS FIRST, tm.created_at, tm.user_id
     LIMIT 1`,
    [workspaceId, teamId, team.rows[0].max_open_per_member, contactId],
  );
  const assigneeId = rows[0]?.user_id ?? null;
  const after = await changeConversationIn(ctx, tx, by, contactId, {
    team_id: teamId,
    assignee_id: assigneeId,
  });
  if (assigneeId)
    await tx.query(
      `UPDATE team_members SET last_assigned_at = clock_timestamp()
       WHERE workspace_id = $1 AND team_id = $2 AND user_id = $3`,
      [workspaceId, teamId, assigneeId],
    );
  return { assigneeId, after };
}
