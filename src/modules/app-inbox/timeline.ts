import type { Queryable } from '../../db/db.js';

export interface TimelineItem {
  kind: 'message' | 'event' | 'flow_run' | 'lead';
  id: string;
  at: string;
  title: string;
  detail: string | null;
  status: string | null;
}

/** A contact's history, newest first: messages, and whatever later modules record about the contact. */
export async function timelineOf(
  db: Queryable,
  workspaceId: string,
  contactId: string,
): Promise<TimelineItem[]> {
  const { rows } = await db.query<TimelineItem>(
    `SELECT 'message' AS kind, id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
       CASE WHEN direction = 'inbound' THEN 'Received a message'
            WHEN type = 'template' THEN 'Sent template ' || template_name ELSE 'Sent a message' END AS title,
       text AS detail, status
     FROM messages WHERE workspace_id = $1 AND contact_id = $2 ORDER BY created_at DESC LIMIT 200`,
    [workspaceId, contactId],
  );
  return rows;
}
