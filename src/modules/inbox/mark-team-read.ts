import type { Queryable } from '../../db/db.js';

/**
 * A teammate has the conversation open: its customer messages so far are read by the team (the
 * unread counts), whatever the workspace says about telling the network (messaging/mark-read.ts).
 */
export async function markTeamRead(db: Queryable, workspaceId: string, contactId: string): Promise<void> {
  await db.query(
    `UPDATE conversations SET team_read_at = now()
     WHERE workspace_id = $1 AND contact_id = $2 AND last_inbound_at > COALESCE(team_read_at, '-infinity')`,
    [workspaceId, contactId],
  );
}
