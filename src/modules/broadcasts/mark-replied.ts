import type { Queryable } from '../../db/db.js';

/**
 * An inbound message from a contact counts as a reply to each broadcast sent to them within its
 * reply window before it. Runs in the transaction storing the inbound message, whose time the
 * network gives in whole seconds: a reply in the second of the send counts.
 */
export async function markReplied(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE broadcast_recipients r SET replied_at = $3 FROM broadcasts b
     WHERE r.workspace_id = $1 AND r.contact_id = $2 AND r.sent_at IS NOT NULL AND r.replied_at IS NULL
       AND date_trunc('second', r.sent_at) <= $3 AND b.workspace_id = r.workspace_id AND b.id = r.broadcast_id
       AND $3 <= r.sent_at + make_interval(hours => b.reply_window_hours)`,
    [workspaceId, contactId, at],
  );
}
