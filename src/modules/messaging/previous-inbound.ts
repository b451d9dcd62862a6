import type { Queryable } from '../../db/db.js';

/**
 * When the contact wrote before this message (`messageId`, already stored), or null for their first
 * message ever: bot triggers (first_message, after_silence), the greeting and conversation.created read it.
 */
export async function previousInbound(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  messageId: string,
): Promise<Date | null> {
  const { rows } = await db.query<{ created_at: Date }>(
    `SELECT created_at FROM messages
     WHERE workspace_id = $1 AND contact_id = $2 AND direction = 'inbound' AND id <> $3
     ORDER BY created_at DESC LIMIT 1`,
    [workspaceId, contactId, messageId],
  );
  return rows[0]?.created_at ?? null;
}
