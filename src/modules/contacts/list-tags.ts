import type { Queryable } from '../../db/db.js';

/** Most tags one listing gives: enough for a picker, bounded for a workspace that tags wildly. */
const MOST = 1000;

/** The workspace's tags with how many contacts carry each, by name: the broadcast audience's picker. */
export async function listTags(
  db: Queryable,
  workspaceId: string,
): Promise<{ tag: string; contacts: number }[]> {
  const { rows } = await db.query<{ tag: string; contacts: number }>(
    `SELECT tag, count(*)::int AS contacts
     FROM contacts, unnest(tags) AS tag
     WHERE workspace_id = $1
     GROUP BY tag ORDER BY tag LIMIT ${MOST}`,
    [workspaceId],
  );
  return rows;
}
