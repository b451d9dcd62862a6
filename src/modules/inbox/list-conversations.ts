import type { Queryable } from '../../db/db.js';
import { likePattern } from '../../db/like-pattern.js';
import { displayName } from '../accounts/display-name.js';
import { ISO } from '../contacts/list-contacts.js';
import { HOLDING_BOT } from './conversation-bot.js';
import { labelAndSnoozeWhere, TAGS_OF_ROW } from './label-sql.js';
import type { InboxFilter, InboxRow } from './schemas.js';

export interface InboxOptions {
  userId: string;
  filter: InboxFilter;
  search?: string;
  label?: string;
  limit: number;
  offset: number;
}

// A search reads the text of the workspace's newest messages only, so its work is bounded.
const SEARCHED_MESSAGES = 5_000;
// Counted unread messages stop here; the page shows "99+".
const UNREAD_CAP = 100;

/**
 * The inbox: one row per contact with messages, newest first, with its last message, how many
 * customer messages came since the team last read it, its state and assignee. Filters: `mine` and
 * `unassigned` (not resolved), `open` (not resolved), `all`. A search matches the contact's name or
 * phone, or the text of one of the workspace's newest messages.
 */
export async function listConversations(db: Queryable, workspaceId: string, options: InboxOptions) {
  const q = options.search?.trim() || null;
  const digits = q?.replace(/\D/g, '') || null;
  const { rows } = await db.query<InboxRow>(
    `SELECT cv.contact_id, ct.name, ct.phone, cv.state, cv.assignee_id, ${displayName('u')} AS assignee_name,
       cv.team_id, tm.name AS team_name,
       to_char(cv.last_message_at AT TIME ZONE 'UTC', ${ISO}) AS last_message_at,
       to_char(cv.team_read_at AT TIME ZONE 'UTC', ${ISO}) AS team_read_at,
       last.id AS last_id, last.direction AS last_direction, last.type AS last_type,
       -- A question sent with buttons or a list (a bot's ask) has no text of its own: its body reads as one.
       COALESCE(last.text, CASE WHEN last.type = 'interactive' AND last.content_removed_at IS NULL
         THEN last.content #>> '{body,text}' END) AS last_text,
       last.template_name AS last_template_name, last.status AS last_status,
       COALESCE(last.content_removed_at IS NOT NULL, false) AS last_content_removed,
       CASE WHEN cv.last_inbound_at > COALESCE(cv.team_read_at, '-infinity') THEN
         (SELECT count(*)::int FROM (SELECT 1 FROM messages um
            WHERE um.workspace_id = cv.workspace_id AND um.contact_id = cv.contact_id AND um.direction = 'inbound'
              AND um.updated_at > COALESCE(cv.team_read_at, '-infinity') LIMIT ${UNREAD_CAP}) AS unread)
       ELSE 0 END AS unread, hb.name AS bot_name,
       ${TAGS_OF_ROW}
     FROM conversations cv
     JOIN contacts ct ON ct.workspace_id = cv.workspace_id AND ct.id = cv.contact_id
     LEFT JOIN users u ON u.id = cv.assignee_id
     LEFT JOIN teams tm ON tm.workspace_id = cv.workspace_id AND tm.id = cv.team_id
     ${HOLDING_BOT}
     LEFT JOIN LATERAL (SELECT m.id, m.direction, m.type, m.text, m.content, m.template_name, m.status, m.content_removed_at
       FROM messages m
       WHERE m.workspace_id = cv.workspace_id AND m.contact_id = cv.contact_id
       ORDER BY m.created_at DESC, m.updated_at DESC LIMIT 1) AS last ON true
     WHERE cv.workspace_id = $1 AND cv.last_message_at IS NOT NULL
       AND CASE $2::text WHEN 'mine' THEN cv.assignee_id = $3 AND cv.state <> 'resolved'
         WHEN 'unassigned' THEN cv.assignee_id IS NULL AND cv.state <> 'resolved'
         WHEN 'open' THEN cv.state <> 'resolved' ELSE true END
       ${labelAndSnoozeWhere('$2', '$8')}
       AND ($4::text IS NULL OR ct.name ILIKE $4 OR ($5::text IS NOT NULL AND ct.phone LIKE $5)
         OR cv.contact_id IN (SELECT recent.contact_id FROM (SELECT sm.contact_id, sm.text FROM messages sm
              WHERE sm.workspace_id = $1 ORDER BY sm.created_at DESC LIMIT ${SEARCHED_MESSAGES}) AS recent
            WHERE recent.text ILIKE $4))
     ORDER BY cv.last_message_at DESC, cv.contact_id LIMIT $6 OFFSET $7`,
    [
      workspaceId,
      options.filter,
      options.userId,
      q ? likePattern(q) : null,
      digits ? likePattern(digits) : null,
      options.limit + 1,
      options.offset,
      options.label ?? null,
    ],
  );
  return { conversations: rows.slice(0, options.limit), hasNextPage: rows.length > options.limit };
}
