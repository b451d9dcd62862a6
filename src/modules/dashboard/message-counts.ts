import type { Queryable } from '../../db/db.js';
import { dayOf, everyDay, SINCE } from './period.js';

interface MessageDay {
  day: string;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  replied: number;
}

/**
 * Per day of the period, the outbound messages by how far they got (status ranks: accepted 1, sent 2,
 * delivered 3, read 4, failed 5; a read message was also sent and delivered) and the inbound ones
 * (customers' replies). A message counts on the day it was created.
 */
export async function messageCounts(db: Queryable, workspaceId: string, days: number): Promise<MessageDay[]> {
  const { rows } = await db.query<MessageDay>(
    everyDay(
      `SELECT ${dayOf('m.created_at')} AS day,
         count(*) FILTER (WHERE m.direction = 'outbound' AND m.status_rank BETWEEN 1 AND 4) AS sent,
         count(*) FILTER (WHERE m.direction = 'outbound' AND m.status_rank IN (3, 4)) AS delivered,
         count(*) FILTER (WHERE m.direction = 'outbound' AND m.status_rank = 4) AS read,
         count(*) FILTER (WHERE m.direction = 'outbound' AND m.status_rank = 5) AS failed,
         count(*) FILTER (WHERE m.direction = 'inbound') AS replied
       FROM messages m WHERE m.workspace_id = $1 AND m.created_at >= ${SINCE}
       GROUP BY 1`,
      ['sent', 'delivered', 'read', 'failed', 'replied'],
    ),
    [workspaceId, days],
  );
  return rows;
}
