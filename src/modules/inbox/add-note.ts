import type { Queryable } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { ISO } from '../contacts/list-contacts.js';

/** An internal note on a conversation: seen by the team in the thread, never sent to the customer. */
export async function addNote(
  db: Queryable,
  workspaceId: string,
  author: { userId: string },
  contactId: string,
  text: string,
) {
  const { rows } = await db.query<{ id: string; created_at: string }>(
    `INSERT INTO conversation_notes (workspace_id, id, contact_id, author_id, text)
     SELECT $1, $2, id, $4, $5 FROM contacts WHERE workspace_id = $1 AND id = $3
     RETURNING id, to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at`,
    [workspaceId, newId('nt'), contactId, author.userId, text],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No contact with that id');
  return rows[0];
}
