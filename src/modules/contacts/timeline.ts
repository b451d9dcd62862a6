import type { Queryable } from '../../db/db.js';

export interface TimelineItem {
  kind: 'message' | 'event' | 'flow_run' | 'lead' | 'consent';
  id: string;
  at: string;
  title: string;
  detail: string | null;
  status: string | null;
}

/** A contact's history, newest first: messages, events, leads, and the flows and sequences run for them. */
export async function timelineOf(
  db: Queryable,
  workspaceId: string,
  contactId: string,
): Promise<TimelineItem[]> {
  const { rows } = await db.query<TimelineItem>(
    `SELECT 'message' AS kind, id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
       CASE WHEN direction = 'inbound' THEN 'Received a message'
            WHEN type = 'template' THEN 'Sent template ' || template_name ELSE 'Sent a message' END AS title,
       -- A customer's message is stored "read" (by the network's ranking); a badge would say a teammate read it.
       CASE WHEN content_removed_at IS NOT NULL THEN 'Content removed (data retention)' ELSE text END AS detail,
       CASE WHEN direction = 'outbound' THEN status END AS status
     FROM messages WHERE workspace_id = $1 AND contact_id = $2
     UNION ALL
     SELECT 'event', id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       'Event ' || name, CASE WHEN properties = '{}'::jsonb THEN NULL ELSE properties::text END, NULL
     FROM events WHERE workspace_id = $1 AND contact_id = $2
     UNION ALL
     SELECT 'flow_run', r.id, to_char(r.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       'Ran ' || a.kind || ' ' || a.name, r.error, r.status
     FROM runs r JOIN automations a ON a.workspace_id = r.workspace_id AND a.id = r.automation_id
     WHERE r.workspace_id = $1 AND r.contact_id = $2
     UNION ALL
     SELECT 'lead', id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       'Became a lead (' || source || ')', COALESCE(email, phone), status
     FROM leads WHERE workspace_id = $1 AND contact_id = $2
     UNION ALL
     SELECT 'consent', id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       CASE WHEN opted_out THEN 'Opted out' ELSE 'Opted back in' END,
       CASE source WHEN 'keyword' THEN 'wrote ' || keyword WHEN 'payload' THEN 'tapped ' || keyword
         WHEN 'api' THEN 'through the REST API' WHEN 'whatsapp' THEN 'in WhatsApp (marketing messages)'
         ELSE 'set by a teammate' END, NULL
     FROM consent_changes WHERE workspace_id = $1 AND contact_id = $2
     ORDER BY at DESC LIMIT 200`,
    [workspaceId, contactId],
  );
  return rows;
}
