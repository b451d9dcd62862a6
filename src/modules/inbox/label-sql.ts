import { ISO } from '../contacts/list-contacts.js';

/** A conversation's labels (by name) and snooze, over `conversations cv`: SQL columns for a SELECT. */
export const TAGS_OF_ROW = `COALESCE((SELECT jsonb_agg(jsonb_build_object('id', l.id, 'name', l.name, 'colour', l.colour)
      ORDER BY lower(l.name), l.id)
    FROM conversation_labels cl JOIN labels l ON l.workspace_id = cl.workspace_id AND l.id = cl.label_id
    WHERE cl.workspace_id = cv.workspace_id AND cl.contact_id = cv.contact_id), '[]'::jsonb) AS labels,
  CASE WHEN cv.snoozed_until > now() AND cv.snoozed_until <> 'infinity'
    THEN to_char(cv.snoozed_until AT TIME ZONE 'UTC', ${ISO}) END AS snoozed_until,
  COALESCE(cv.snoozed_until = 'infinity', false) AS snoozed_until_reply`;

/** Over `conversations cv`: not snoozed, or its snooze has ended (compared as the lists read). */
export const AWAKE = '(cv.snoozed_until IS NULL OR cv.snoozed_until <= now())';

/** Over `conversations cv`: it carries the label whose id is the parameter `label`. */
export const labelWhere = (label: string) =>
  `EXISTS (SELECT 1 FROM conversation_labels fl
     WHERE fl.workspace_id = cv.workspace_id AND fl.contact_id = cv.contact_id AND fl.label_id = ${label})`;
