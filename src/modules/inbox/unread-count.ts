import type { Queryable } from '../../db/db.js';

/** How many conversations hold customer messages the team has not read (the sidebar and the tab title). */
export async function unreadConversations(db: Queryable, workspaceId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM conversations
     WHERE workspace_id = $1 AND last_inbound_at > COALESCE(team_read_at, '-infinity')`,
    [workspaceId],
  );
  return rows[0]!.n;
}
