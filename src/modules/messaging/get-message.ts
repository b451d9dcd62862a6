import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import type { MessageStatus } from './status.js';

export interface MessageRow {
  id: string;
  direction: string;
  phone: string;
  type: string;
  wamid: string | null;
  status: MessageStatus;
  callback_data: string | null;
  error_code: number | null;
  error_reason: string | null;
  text: string | null;
  content: Record<string, unknown> | null;
  context_wamid: string | null;
  reply_to: string | null;
  context: Record<string, unknown> | null;
  referral: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns of a MessageRow, of a `messages` row. */
export const MESSAGE_ROW_COLUMNS = `id, direction, phone, type, wamid, status, callback_data, error_code, error_reason,
  text, content, context_wamid, reply_to, context, referral, created_at, updated_at`;

export async function getMessage(db: Queryable, workspaceId: string, id: string): Promise<MessageRow> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_ROW_COLUMNS} FROM messages WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', `No message ${id}`);
  return rows[0];
}

/** An inbound message's `context` as the API shows it: what it replies to, whether it was forwarded. */
export function contextView(m: Pick<MessageRow, 'direction' | 'context_wamid' | 'reply_to' | 'context'>) {
  if (m.direction !== 'inbound' || (m.context_wamid === null && m.context === null)) return null;
  const c = m.context ?? {};
  const product = c.referred_product;
  return {
    wamid: m.context_wamid,
    message_id: m.reply_to,
    forwarded: c.forwarded === true,
    frequently_forwarded: c.frequently_forwarded === true,
    referred_product:
      typeof product === 'object' && product !== null && !Array.isArray(product)
        ? (product as Record<string, unknown>)
        : null,
  };
}

/** A message as REST v1 shows it (GET /messages/{id}, a conversation's messages). */
export function messageView(m: MessageRow) {
  return {
    id: m.id,
    direction: m.direction,
    to: m.phone,
    type: m.type,
    wamid: m.wamid,
    status: m.status,
    callback_data: m.callback_data,
    error: m.error_code === null ? null : { code: m.error_code, reason: m.error_reason ?? '' },
    text: m.text,
    content: m.content,
    context: contextView(m),
    referral: m.direction === 'inbound' ? m.referral : null,
    created_at: m.created_at.toISOString(),
    updated_at: m.updated_at.toISOString(),
  };
}
