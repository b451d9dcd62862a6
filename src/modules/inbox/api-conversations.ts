import { ApiError } from '../../api/errors.js';
import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
import type { Queryable } from '../../db/db.js';
import { displayName } from '../accounts/display-name.js';
import { ISO } from '../contacts/list-contacts.js';
import { HOLDING_BOT, WAITING_BOT } from './conversation-bot.js';
import { TAGS_OF_ROW } from './label-sql.js';
import type { ApiConversation } from './schemas.js';

// Counted unread messages stop here, as in the inbox.
const UNREAD_CAP = 100;

/** A conversation as REST v1 and its webhook events show it, over `conversations cv`. */
const VIEW = `SELECT cv.contact_id AS id,
    jsonb_build_object('id', ct.id, 'phone', ct.phone, 'name', ct.name) AS contact,
    cv.state AS status,
    CASE WHEN cv.assignee_id IS NOT NULL THEN jsonb_build_object('id', cv.assignee_id, 'name', ${displayName('u')}) END AS assignee,
    CASE WHEN tm.id IS NOT NULL THEN jsonb_build_object('id', tm.id, 'name', tm.name) END AS team,
    CASE WHEN cv.last_inbound_at > COALESCE(cv.team_read_at, '-infinity') THEN
      (SELECT count(*)::int FROM (SELECT 1 FROM messages um
         WHERE um.workspace_id = cv.workspace_id AND um.contact_id = cv.contact_id AND um.direction = 'inbound'
           AND um.updated_at > COALESCE(cv.team_read_at, '-infinity') LIMIT ${UNREAD_CAP}) AS unread)
    ELSE 0 END AS unread_count,
    jsonb_build_object('open', COALESCE(ct.last_inbound_at > now() - interval '24 hours', false),
      'closes_at', to_char((ct.last_inbound_at + interval '24 hours') AT TIME ZONE 'UTC', ${ISO})) AS "window",
    to_char(cv.last_message_at AT TIME ZONE 'UTC', ${ISO}) AS last_message_at,
    to_char(cv.created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
    CASE WHEN hb.run_id IS NOT NULL THEN jsonb_build_object('automation_id', hb.automation_id, 'name', hb.name) END AS bot,
    CASE WHEN wb.run_id IS NOT NULL THEN jsonb_build_object('automation_id', wb.automation_id, 'name', wb.name) END AS bot_waiting,
    ${TAGS_OF_ROW},
    (extract(epoch FROM cv.created_at) * 1000000)::bigint::text AS micros
  FROM conversations cv
  JOIN contacts ct ON ct.workspace_id = cv.workspace_id AND ct.id = cv.contact_id
  LEFT JOIN users u ON u.id = cv.assignee_id
  LEFT JOIN teams tm ON tm.workspace_id = cv.workspace_id AND tm.id = cv.team_id
  ${HOLDING_BOT} ${WAITING_BOT}`;

type Row = ApiConversation & { micros: string };
const view = ({ micros: _micros, ...row }: Row): ApiConversation => row;

/** One conversation (its contact's id), or null when the workspace has none by that id. */
export async function getApiConversation(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<ApiConversation | null> {
  const { rows } = await db.query<Row>(`${VIEW} WHERE cv.workspace_id = $1 AND cv.contact_id = $2`, [
    workspaceId,
    id,
  ]);
  return rows[0] ? view(rows[0]) : null;
}

const NOT_FOUND = 'No conversation with that id';

/** 404 unless the workspace has a conversation by that id (a contact with no message yet has none). */
export async function requireConversation(db: Queryable, workspaceId: string, id: string): Promise<void> {
  const { rows } = await db.query('SELECT 1 FROM conversations WHERE workspace_id = $1 AND contact_id = $2', [
    workspaceId,
    id,
  ]);
  if (!rows[0]) throw new ApiError('not_found', NOT_FOUND);
}

/** getApiConversation, or 404. */
export async function apiConversation(db: Queryable, workspaceId: string, id: string) {
  const found = await getApiConversation(db, workspaceId, id);
  if (!found) throw new ApiError('not_found', NOT_FOUND);
  return found;
}

export interface ApiConversationOptions {
  status?: 'open' | 'resolved' | 'all';
  assignee?: string;
  label?: string;
  limit: number;
  cursor?: string;
}

/**
 * A page of the workspace's conversations, newest begun first, after `cursor`. The order is by
 * (created_at, id), which never changes for a conversation, so following next_cursor visits each
 * conversation that existed when the walk began exactly once, whatever arrives or changes meanwhile
 * (those begun since come before the first page: a new walk finds them).
 */
export async function listApiConversations(db: Queryable, workspaceId: string, o: ApiConversationOptions) {
  const after = o.cursor ? decodeCursor(o.cursor) : null;
  const assignee = o.assignee === 'unassigned' ? null : (o.assignee ?? null);
  if (assignee !== null) {
    const { rows } = await db.query('SELECT 1 FROM memberships WHERE workspace_id = $1 AND user_id = $2', [
      workspaceId,
      assignee,
    ]);
    if (!rows[0])
      throw ApiError.invalid('assignee', "Give a member's user id of this workspace, or unassigned.");
  }
  const { rows } = await db.query<Row>(
    `${VIEW}
     WHERE cv.workspace_id = $1
       AND CASE $2::text WHEN 'open' THEN cv.state <> 'resolved' WHEN 'resolved' THEN cv.state = 'resolved' ELSE true END
       AND CASE WHEN $3::boolean THEN cv.assignee_id IS NULL WHEN $4::text IS NOT NULL THEN cv.assignee_id = $4 ELSE true END
       AND ($5::bigint IS NULL
         OR (cv.created_at, cv.contact_id) < (to_timestamp(0) + $5::bigint * interval '1 microsecond', $6::text))
       AND ($8::text IS NULL OR EXISTS (SELECT 1 FROM conversation_labels fl
         WHERE fl.workspace_id = cv.workspace_id AND fl.contact_id = cv.contact_id AND fl.label_id = $8))
     ORDER BY cv.created_at DESC, cv.contact_id DESC LIMIT $7`,
    [
      workspaceId,
      o.status ?? 'all',
      o.assignee === 'unassigned',
      assignee,
      after?.micros ?? null,
      after?.id ?? null,
      o.limit + 1,
      o.label ?? null,
    ],
  );
  const page = rows.slice(0, o.limit);
  const last = page.at(-1);
  return {
    conversations: page.map(view),
    next_cursor: rows.length > o.limit && last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}
