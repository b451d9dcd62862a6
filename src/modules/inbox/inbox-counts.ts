import type { Queryable } from '../../db/db.js';
import { filterSql } from './list-conversations.js';
import { FILTERS, type InboxFilter } from './schemas.js';

// Each count reads at most this many rows; the page shows "1,000+" at the cap.
export const COUNT_CAP = 1_000;

/** How many conversations each filter holds, each at most COUNT_CAP: bounded work at any size. */
export async function inboxCounts(
  db: Queryable,
  workspaceId: string,
  userId: string,
): Promise<Record<InboxFilter, number>> {
  const counts = FILTERS.map(
    (f) => `(SELECT count(*)::int FROM (SELECT 1 FROM conversations cv
      WHERE cv.workspace_id = $1 AND cv.last_message_at IS NOT NULL AND ${filterSql(f, '$2')} LIMIT ${COUNT_CAP}) AS n) AS ${f}`,
  );
  const { rows } = await db.query<Record<InboxFilter, number>>(`SELECT ${counts.join(', ')}`, [
    workspaceId,
    userId,
  ]);
  return rows[0]!;
}
