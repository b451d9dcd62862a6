import type { Queryable } from '../../db/db.js';
import { displayName } from '../accounts/display-name.js';
import type { ConversationNote } from './schemas.js';

/**
 * The conversation's latest 200 notes, oldest first, each with its author's name (an API key's: "API
 * key <name>") and the members it mentions (`<@usr_…>` in its text) with their names as they are now.
 */
export async function listNotes(db: Queryable, workspaceId: string, contactId: string) {
  const { rows } = await db.query<ConversationNote>(
    `SELECT * FROM (SELECT n.id, n.text, n.author_id, COALESCE(${displayName('u')},
         'API key ' || COALESCE(NULLIF(k.name, ''), k.display_prefix)) AS author_name, n.created_at,
         COALESCE((SELECT json_agg(json_build_object('user_id', mu.id, 'name', ${displayName('mu')}) ORDER BY mu.id)
           FROM note_mentions nm JOIN users mu ON mu.id = nm.user_id
           WHERE nm.workspace_id = n.workspace_id AND nm.note_id = n.id), '[]') AS mentions
       FROM conversation_notes n LEFT JOIN users u ON u.id = n.author_id
       LEFT JOIN api_keys k ON k.workspace_id = n.workspace_id AND k.id = n.api_key_id
       WHERE n.workspace_id = $1 AND n.contact_id = $2 ORDER BY n.created_at DESC, n.id DESC LIMIT 200) AS recent
     ORDER BY created_at, id`,
    [workspaceId, contactId],
  );
  return rows;
}
