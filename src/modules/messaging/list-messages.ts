import type { PageKey } from '../../api/page-cursor.js';
import type { Queryable } from '../../db/db.js';
import type { MessageRow } from './get-message.js';

export const MESSAGE_COLUMNS = `m.id, m.direction, m.contact_id, m.phone, m.type, m.template_name, m.template_language,
  m.template_values, m.text, m.status, m.error_code, m.error_reason, m.created_at, m.updated_at`;

export interface MessageListOptions {
  limit: number;
  offset?: number;
  /** REST v1's cursor: the page after the row with this key (created_at in microseconds, id). */
  after?: PageKey;
  status?: string;
  direction?: 'inbound' | 'outbound';
}

type ListedMessage = MessageRow & { contact_id: string | null; contact_name: string | null };

/**
 * The message log, newest first, with each contact's name (the app's Messages list and REST v1's
 * GET /messages). `next` is the last row's key when there is a page after this one.
 */
export async function listMessages(db: Queryable, workspaceId: string, options: MessageListOptions) {
  const { status, direction, limit, offset = 0, after } = options;
  const { rows } = await db.query<ListedMessage & { micros: string }>(
    `SELECT ${MESSAGE_COLUMNS}, c.name AS contact_name, m.wamid, m.callback_data, m.content, m.context_wamid,
       m.reply_to, m.context, m.referral, (extract(epoch FROM m.created_at) * 1000000)::bigint::text AS micros
     FROM messages m
     LEFT JOIN contacts c ON c.workspace_id = m.workspace_id AND c.id = m.contact_id
     WHERE m.workspace_id = $1 AND ($2::text IS NULL OR m.status = $2) AND ($3::text IS NULL OR m.direction = $3)
       AND ($6::bigint IS NULL
         OR (m.created_at, m.id) < (to_timestamp(0) + $6::bigint * interval '1 microsecond', $7::text))
     ORDER BY m.created_at DESC, m.id DESC LIMIT $4 OFFSET $5`,
    [
      workspaceId,
      status ?? null,
      direction ?? null,
      limit + 1,
      offset,
      after?.micros ?? null,
      after?.id ?? null,
    ],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    messages: page.map(({ micros: _micros, ...row }): ListedMessage => row),
    hasNextPage: rows.length > limit,
    next: rows.length > limit && last ? { micros: last.micros, id: last.id } : null,
  };
}
