import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import { filterSql } from './list-conversations.js';
import { FILTERS, type InboxFilter } from './schemas.js';

// Each count reads at most this many rows; the page shows "1,000+" at the cap.
export const COUNT_CAP = 1_000;

/**
 * What the inbox's first page shows beside its rows, in one statement (the page is read again on
 * every live event): how many conversations each filter holds, each at most COUNT_CAP (bounded work
 * at any size), and when the next snoozed conversation wakes (null if none sleeps until a time; the
 * open lists read the clock, so the page reads them again then; conversations_snoozed serves it).
 */
export async function inboxCounts(
  db: Queryable,
  workspaceId: string,
  userId: string,
): Promise<{ counts: Record<InboxFilter, number>; wakes_at: string | null }> {
  const columns = FILTERS.map(
    (f) => `(SELECT count(*)::int FROM (SELECT 1 FROM conversations cv
      WHERE cv.workspace_id = $1 AND cv.last_message_at IS NOT NULL AND ${filterSql(f, '$2')} LIMIT ${COUNT_CAP}) AS n) AS ${f}`,
  );
  const { rows } = await db.query<Record<InboxFilter, number> & { wakes_at: string | null }>(
    `SELECT ${columns.join(', ')},
       (SELECT to_char(min(snoozed_until) AT TIME ZONE 'UTC', ${ISO}) FROM conversations
        WHERE workspace_id = $1 AND snoozed_until > now() AND snoozed_until <> 'infinity') AS wakes_at`,
    [workspaceId, userId],
  );
  const { wakes_at, ...counts } = rows[0]!;
  return { counts, wakes_at };
}
