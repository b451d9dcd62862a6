import type { Queryable } from '../../db/db.js';

export const MESSAGE_COLUMNS = `m.id, m.direction, m.contact_id, m.phone, m.type, m.template_name, m.template_language,
  m.template_values, m.text, m.status, m.error_code, m.error_reason, m.created_at, m.updated_at`;

export interface MessageListOptions {
  limit: number;
  offset: number;
  status?: string;
  direction?: 'inbound' | 'outbound';
}

/** The message log, newest first, with each contact's name. */
export async function listMessages(db: Queryable, workspaceId: string, options: MessageListOptions) {
  const { status, direction, limit, offset } = options;
  const { rows } = await db.query(
    `SELECT ${MESSAGE_COLUMNS}, c.name AS contact_name FROM messages m
     LEFT JOIN contacts c ON c.workspace_id = m.workspace_id AND c.id = m.contact_id
     WHERE m.workspace_id = $1 AND ($2::text IS NULL OR m.status = $2) AND ($3::text IS NULL OR m.direction = $3)
     ORDER BY m.created_at DESC, m.id DESC LIMIT $4 OFFSET $5`,
    [workspaceId, status ?? null, direction ?? null, limit + 1, offset],
  );
  return { messages: rows.slice(0, limit), hasNextPage: rows.length > limit };
}
