import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
import type { Queryable } from '../../db/db.js';
import { likePattern } from '../../db/like-pattern.js';
import { displayName } from '../accounts/display-name.js';
import { ISO } from '../contacts/list-contacts.js';
import { HOLDING_BOT } from './conversation-bot.js';
import { AWAKE, labelWhere, TAGS_OF_ROW } from './label-sql.js';
import type { InboxFilter, InboxRow } from './schemas.js';

export interface InboxOptions {
  userId: string;
  filter: InboxFilter;
  search?: string;
  label?: string;
  limit: number;
  cursor?: string;
}

// Counted unread messages stop here; the page shows "99+".
const UNREAD_CAP = 100;
const PHONE_LIKE = /^[\d\s()+.-]+$/;
// A trigram index serves ILIKE '%…%' only for a pattern of three characters or more.
export const MESSAGE_SEARCH_MIN = 3;

/**
 * A filter's condition over `conversations cv`; `user` is the parameter holding the teammate's id.
 * A snoozed conversation leaves the open lists for `snoozed`, where alone it shows (and in `all`).
 */
export function filterSql(filter: InboxFilter, user: string): string {
  switch (filter) {
    case 'mine':
      return `cv.assignee_id = ${user} AND cv.state <> 'resolved' AND ${AWAKE}`;
    case 'unassigned':
      return `cv.assignee_id IS NULL AND cv.state <> 'resolved' AND ${AWAKE}`;
    case 'open':
      return `cv.state <> 'resolved' AND ${AWAKE}`;
    case 'snoozed':
      return `cv.state <> 'resolved' AND NOT ${AWAKE}`;
    case 'all':
      return 'true';
  }
}

// More matching rows than this (contacts and messages), and the search walks the conversations instead.
const MANY = 2_000;

/** Whether the search matches more than MANY contacts or messages: each side reads at most MANY rows. */
async function manyMatch(db: Queryable, workspaceId: string, search: Search) {
  const params: unknown[] = [workspaceId];
  const on = searchSql(search, (value) => `$${params.push(value)}`);
  const bounded = (from: string) => `(SELECT count(*) FROM (${from} LIMIT ${MANY}) AS f)`;
  const sides = [bounded(`SELECT 1 FROM contacts ct WHERE ct.workspace_id = $1 AND (${on.contact})`)];
  if (on.texts) sides.push(bounded(on.texts('')));
  const { rows } = await db.query<{ many: boolean }>(
    `SELECT ${sides.join(' + ')} >= ${MANY} AS many`,
    params,
  );
  return rows[0]!.many;
}

interface Search {
  pattern: string;
  digits: string | null;
  byText: boolean;
}

/** A search's conditions: on `contacts ct`, and (from three characters) the messages whose text matches. */
function searchSql(search: Search, param: (value: unknown) => string) {
  const pattern = param(search.pattern);
  const contact = [`ct.name ILIKE ${pattern}`];
  if (search.digits) contact.push(`ct.phone LIKE ${param(search.digits)}`);
  return {
    pattern,
    contact: contact.join(' OR '),
    texts: search.byText
      ? (and: string) =>
          `SELECT sm.contact_id FROM messages sm WHERE sm.workspace_id = $1${and} AND sm.text ILIKE ${pattern}`
      : null,
  };
}

/**
 * The inbox: one row per contact with messages, newest first, with its last message, how many
 * customer messages came since the team last read it, its state and assignee, a page of `limit`
 * after `cursor`. A search matches the contact's name or phone, or (from three characters) the
 * text of any of its messages, through the trigram indexes (0042); `match` is the newest matching
 * message text. Paged by (last_message_at, contact_id): following next_cursor visits each
 * conversation at most once while others arrive (they come before the first page); one that moves
 * up meanwhile is on the first page again, not later in the walk.
 */
export async function listConversations(db: Queryable, workspaceId: string, options: InboxOptions) {
  const q = options.search?.trim() || null;
  // A phone is searched by a query of digits (and phone punctuation) only: "ref 42" is not a phone.
  const digits = q && PHONE_LIKE.test(q) ? q.replace(/\D/g, '') || null : null;
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const params: unknown[] = [workspaceId, options.limit + 1];
  const param = (value: unknown) => `$${params.push(value)}`;
  const where = [
    `cv.workspace_id = $1`,
    `cv.last_message_at IS NOT NULL`,
    filterSql(options.filter, options.filter === 'mine' ? param(options.userId) : ''),
  ];
  if (options.label) where.push(labelWhere(param(options.label)));
  if (after)
    where.push(
      `(cv.last_message_at, cv.contact_id) < (to_timestamp(0) + ${param(after.micros)}::bigint * interval '1 microsecond', ${param(after.id)}::text)`,
    );
  let match = 'NULL::text';
  if (q) {
    const search = {
      pattern: likePattern(q),
      digits: digits ? likePattern(digits) : null,
      byText: q.length >= MESSAGE_SEARCH_MIN,
    };
    const on = searchSql(search, param);
    if (await manyMatch(db, workspaceId, search))
      // Found often: walking the newest conversations meets a page of matches soon.
      where.push(
        `(${on.contact}${on.texts ? ` OR EXISTS (${on.texts(' AND sm.contact_id = cv.contact_id')})` : ''})`,
      );
    // Found rarely: the trigram indexes give the few conversations at once.
    else
      where.push(
        `cv.contact_id IN (SELECT ct.id FROM contacts ct WHERE ct.workspace_id = $1 AND (${on.contact})${on.texts ? ` UNION ${on.texts('')}` : ''})`,
      );
    if (on.texts)
      match = `(SELECT mm.text FROM messages mm WHERE mm.workspace_id = cv.workspace_id AND mm.contact_id = cv.contact_id
        AND mm.text ILIKE ${on.pattern} ORDER BY mm.created_at DESC LIMIT 1)`;
  }
  const { rows } = await db.query<InboxRow & { micros: string }>(
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
       ELSE 0 END AS unread, hb.name AS bot_name, ${match} AS match,
       (extract(epoch FROM cv.last_message_at) * 1000000)::bigint::text AS micros,
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
     WHERE ${where.join('\n       AND ')}
     ORDER BY cv.last_message_at DESC, cv.contact_id DESC LIMIT $2`,
    params,
  );
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    conversations: page.map(({ micros: _micros, ...row }) => row),
    next_cursor:
      rows.length > options.limit && last ? encodeCursor({ micros: last.micros, id: last.contact_id }) : null,
  };
}
