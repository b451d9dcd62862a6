import { ApiError } from '../../api/errors.js';
import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
import type { Queryable } from '../../db/db.js';
import { MESSAGE_ROW_COLUMNS, type MessageRow, messageView } from '../messaging/get-message.js';
import { requireConversation } from './api-conversations.js';

const MICROS = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;
const AT = (n: number) => `to_timestamp(0) + $${n}::bigint * interval '1 microsecond'`;

/**
 * A page of a conversation's messages, newest first, after `cursor` (404 for a conversation the
 * workspace does not have). The network dates a customer's message in whole seconds, so messages
 * of one second come in the order they were stored (updated_at: an inbound message is never
 * updated), as the app's thread shows them; the cursor holds all three of (created_at, updated_at, id).
 */
export async function listApiConversationMessages(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  o: { limit: number; cursor?: string },
) {
  const after = o.cursor ? afterKey(o.cursor) : null;
  await requireConversation(db, workspaceId, contactId);
  const { rows } = await db.query<MessageRow & { micros: string; stored: string }>(
    `SELECT ${MESSAGE_ROW_COLUMNS}, ${MICROS('created_at')} AS micros, ${MICROS('updated_at')} AS stored
     FROM messages
     WHERE workspace_id = $1 AND contact_id = $2
       AND ($3::bigint IS NULL OR (created_at, updated_at, id) < (${AT(3)}, ${AT(4)}, $5::text))
     ORDER BY created_at DESC, updated_at DESC, id DESC LIMIT $6`,
    [workspaceId, contactId, after?.micros ?? null, after?.stored ?? null, after?.id ?? null, o.limit + 1],
  );
  const page = rows.slice(0, o.limit);
  const last = page.at(-1);
  return {
    messages: page.map(messageView),
    next_cursor:
      rows.length > o.limit && last
        ? encodeCursor({ micros: last.micros, id: `${last.stored}-${last.id}` })
        : null,
  };
}

function afterKey(cursor: string) {
  const { micros, id } = decodeCursor(cursor);
  const match = /^([0-9]{1,17})-(.+)$/.exec(id);
  if (!match)
    throw ApiError.invalid(
      'cursor',
      'This is not a cursor of this list: send the next_cursor of the page before.',
    );
  return { micros, stored: match[1]!, id: match[2]! };
}
