import type { Queryable } from '../../db/db.js';
import { type ContactValues, fillQuickReply } from './quick-reply-variables.js';

/** The workspace's quick replies by title; with a contact, each also `filled` for that contact. */
export async function listQuickReplies(db: Queryable, workspaceId: string, contact?: ContactValues) {
  const { rows } = await db.query<{ id: string; title: string; text: string }>(
    `SELECT id, title, text, created_at, updated_at FROM quick_replies WHERE workspace_id = $1
     ORDER BY lower(title), id`,
    [workspaceId],
  );
  return contact ? rows.map((r) => ({ ...r, filled: fillQuickReply(r.text, contact) })) : rows;
}
