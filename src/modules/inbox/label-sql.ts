import { ISO } from '../contacts/list-contacts.js';

/** A conversation's labels (by name) and snooze, over `conversations cv`: SQL columns for a SELECT. */
export const TAGS_OF_ROW = `COALESCE((SELECT jsonb_agg(jsonb_build_object('id', l.id, 'name', l.name, 'colour', l.colour)
      ORDER BY lower(l.name), l.id)
    FROM conversation_labels cl JOIN labels l ON l.workspace_id = cl.workspace_id AND l.id = cl.label_id
    WHERE cl.workspace_id = cv.workspace_id AND cl.contact_id = cv.contact_id), '[]'::jsonb) AS labels,
  CASE WHEN cv.snoozed_until > now() AND cv.snoozed_until <> 'infinity'
    THEN to_char(cv.snoozed_until AT TIME ZONE 'UTC', ${ISO}) END AS snoozed_until,
  COALESCE(cv.snoozed_until = 'infinity', false) AS snoozed_until_reply`;

/**
 * The inbox's WHERE for labels and snooze, given the SQL parameters holding the filter and the label
 * id: a snoozed conversation leaves the open lists for `snoozed`, where alone it shows.
 */
export const labelAndSnoozeWhere = (filter: string, label: string) =>
  `AND CASE ${filter}::text WHEN 'snoozed' THEN cv.snoozed_until > now() AND cv.state <> 'resolved'
     WHEN 'all' THEN true ELSE cv.snoozed_until IS NULL OR cv.snoozed_until <= now() END
   AND (${label}::text IS NULL OR EXISTS (SELECT 1 FROM conversation_labels fl
     WHERE fl.workspace_id = cv.workspace_id AND fl.contact_id = cv.contact_id AND fl.label_id = ${label}))`;
