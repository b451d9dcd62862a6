import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
import type { Queryable } from '../../db/db.js';
import { ISO } from './list-contacts.js';

export interface TimelineItem {
  kind: 'message' | 'event' | 'flow_run' | 'lead' | 'consent';
  id: string;
  at: string;
  title: string;
  detail: string | null;
  status: string | null;
}

/** Most items the web app's contact page shows. */
const APP_MOST = 200;

// Each of the contact's messages, events, runs, leads and consent changes, at the moment it happened.
const HISTORY = `
  SELECT 'message' AS kind, id, created_at AS moment,
    CASE WHEN direction = 'inbound' THEN 'Received a message'
         WHEN type = 'template' THEN 'Sent template ' || template_name ELSE 'Sent a message' END AS title,
    -- A customer's message is stored "read" (by the network's ranking); a badge would say a teammate read it.
    CASE WHEN content_removed_at IS NOT NULL THEN 'Content removed (data retention)' ELSE text END AS detail,
    CASE WHEN direction = 'outbound' THEN status END AS status
  FROM messages WHERE workspace_id = $1 AND contact_id = $2
  UNION ALL
  SELECT 'event', id, created_at,
    'Event ' || name, CASE WHEN properties = '{}'::jsonb THEN NULL ELSE properties::text END, NULL
  FROM events WHERE workspace_id = $1 AND contact_id = $2
  UNION ALL
  SELECT 'flow_run', r.id, r.started_at, 'Ran ' || a.kind || ' ' || a.name, r.error, r.status
  FROM runs r JOIN automations a ON a.workspace_id = r.workspace_id AND a.id = r.automation_id
  WHERE r.workspace_id = $1 AND r.contact_id = $2
  UNION ALL
  SELECT 'lead', id, created_at, 'Became a lead (' || source || ')', COALESCE(email, phone), status
  FROM leads WHERE workspace_id = $1 AND contact_id = $2
  UNION ALL
  SELECT 'consent', id, created_at,
    CASE WHEN opted_out THEN 'Opted out' ELSE 'Opted back in' END,
    CASE source WHEN 'keyword' THEN 'wrote ' || keyword WHEN 'payload' THEN 'tapped ' || keyword
      WHEN 'api' THEN 'through the REST API' WHEN 'whatsapp' THEN 'in WhatsApp (marketing messages)'
      ELSE 'set by a teammate' END, NULL
  FROM consent_changes WHERE workspace_id = $1 AND contact_id = $2`;

/**
 * A page of a contact's history, newest first, after `cursor`: messages, events, leads, consent
 * changes, and the flows and sequences run for them. The order is by (moment, id), which never
 * changes for an item, so following next_cursor visits each once while new ones arrive.
 */
export async function timelinePage(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  options: { limit: number; cursor?: string },
): Promise<{ timeline: TimelineItem[]; next_cursor: string | null }> {
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const { rows } = await db.query<TimelineItem & { micros: string }>(
    `SELECT kind, id, to_char(moment AT TIME ZONE 'UTC', ${ISO}) AS at, title, detail, status,
       (extract(epoch FROM moment) * 1000000)::bigint::text AS micros
     FROM (${HISTORY}) history
     WHERE $3::bigint IS NULL OR (moment, id) < (timestamptz 'epoch' + $3::bigint * interval '1 microsecond', $4::text)
     ORDER BY moment DESC, id DESC LIMIT $5`,
    [workspaceId, contactId, after?.micros ?? null, after?.id ?? null, options.limit + 1],
  );
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    timeline: page.map(({ micros: _, ...item }) => item),
    next_cursor:
      rows.length > options.limit && last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}

/** A contact's latest history, newest first, as the web app's contact page shows it. */
export async function timelineOf(
  db: Queryable,
  workspaceId: string,
  contactId: string,
): Promise<TimelineItem[]> {
  return (await timelinePage(db, workspaceId, contactId, { limit: APP_MOST })).timeline;
}
