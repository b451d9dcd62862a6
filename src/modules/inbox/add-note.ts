import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { ISO } from '../contacts/list-contacts.js';

/** Who wrote a note: a teammate in the app, or an API key (REST v1: an outside bot or agent). */
export type NoteAuthor = { userId: string } | { apiKeyId: string };

/** An internal note on a conversation: seen by the team in the thread, never sent to the customer. */
export async function addNote(
  db: Queryable,
  workspaceId: string,
  author: NoteAuthor,
  contactId: string,
  text: string,
) {
  const { rows } = await db.query<{ id: string; created_at: string }>(
    `INSERT INTO conversation_notes (workspace_id, id, contact_id, author_id, api_key_id, text)
     SELECT $1, $2, id, $4, $5, $6 FROM contacts WHERE workspace_id = $1 AND id = $3
     RETURNING id, to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at`,
    [
      workspaceId,
      newId('nt'),
      contactId,
      'userId' in author ? author.userId : null,
      'apiKeyId' in author ? author.apiKeyId : null,
      text,
    ],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No contact with that id');
  return rows[0];
}
