import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import { type ContactValues, fillQuickReply } from './quick-reply-variables.js';
import type { QuickReply } from './schemas.js';

/** The workspace's quick replies by title; with a contact, each also `filled` for that contact. */
export async function listQuickReplies(
  db: Queryable,
  workspaceId: string,
  contact?: ContactValues,
): Promise<QuickReply[]> {
  const { rows } = await db.query<QuickReply>(
    `SELECT id, title, text, to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
       to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_at FROM quick_replies WHERE workspace_id = $1
     ORDER BY lower(title), id`,
    [workspaceId],
  );
  return contact ? rows.map((r) => ({ ...r, filled: fillQuickReply(r.text, contact) })) : rows;
}
