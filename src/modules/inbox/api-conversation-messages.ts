import type { Queryable } from '../../db/db.js';
import { decodeCursor, encodeCursor } from '../../http/page-cursor.js';
import { MESSAGE_ROW_COLUMNS, type MessageRow, messageView } from '../messaging/get-message.js';
import { requireConversation } from './api-conversations.js';

/**
 * A page of a conversation's messages, newest first, after `cursor` (404 for a conversation the
 * workspace does not have). Ordered by (created_at, id): the network dates a customer's message in
 * whole seconds, so messages of one second come in id order, but each comes exactly once.
 */
export async function listApiConversationMessages(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  o: { limit: number; cursor?: string },
) {
  const after = o.cursor ? decodeCursor(o.cursor) : null;
  await requireConversation(db, workspaceId, contactId);
  const { rows } = await db.query<MessageRow & { micros: string }>(
    `SELECT ${MESSAGE_ROW_COLUMNS}, (extract(epoch FROM created_at) * 1000000)::bigint::text AS micros
     FROM messages
     WHERE workspace_id = $1 AND contact_id = $2
       AND ($3::bigint IS NULL OR (created_at, id) < (to_timestamp(0) + $3::bigint * interval '1 microsecond', $4::text))
     ORDER BY created_at DESC, id DESC LIMIT $5`,
    [workspaceId, contactId, after?.micros ?? null, after?.id ?? null, o.limit + 1],
  );
  const page = rows.slice(0, o.limit);
  const last = page.at(-1);
  return {
    messages: page.map(messageView),
    next_cursor: rows.length > o.limit && last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}
