import type { Queryable } from '../../db/db.js';
import { AWAKE } from './label-sql.js';

/**
 * How many conversations hold customer messages the team has not read (the sidebar and the tab
 * title). A snoozed one waits until it wakes: the team chose not to be reminded of it before.
 */
export async function unreadConversations(db: Queryable, workspaceId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM conversations cv
     WHERE cv.workspace_id = $1 AND cv.last_inbound_at > COALESCE(cv.team_read_at, '-infinity') AND ${AWAKE}`,
    [workspaceId],
  );
  return rows[0]!.n;
}
