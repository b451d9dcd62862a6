import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { displayName } from '../accounts/display-name.js';
import { ISO } from '../contacts/list-contacts.js';
import type { LeadNote } from './schemas.js';

const COLUMNS = `n.id, n.body, n.author_id, to_char(n.created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
  (SELECT ${displayName('u')} FROM users u WHERE u.id = n.author_id) AS author_name`;

/** The lead's notes, oldest first (at most the newest 200). */
export async function listLeadNotes(db: Queryable, workspaceId: string, leadId: string): Promise<LeadNote[]> {
  const { rows } = await db.query<LeadNote>(
    `SELECT * FROM (SELECT ${COLUMNS} FROM lead_notes n WHERE n.workspace_id = $1 AND n.lead_id = $2
       ORDER BY n.created_at DESC, n.id DESC LIMIT 200) AS newest ORDER BY created_at, id`,
    [workspaceId, leadId],
  );
  return rows;
}

/** A teammate's note on a lead: who wrote it and when are kept with it. */
export async function addLeadNote(
  db: Queryable,
  workspaceId: string,
  leadId: string,
  authorId: string,
  body: string,
): Promise<LeadNote> {
  const { rows } = await db.query<LeadNote>(
    `WITH note AS (
       INSERT INTO lead_notes (workspace_id, id, lead_id, author_id, body)
       SELECT $1, $3, l.id, $4, $5 FROM leads l WHERE l.workspace_id = $1 AND l.id = $2
       RETURNING *)
     SELECT ${COLUMNS} FROM note n`,
    [workspaceId, leadId, newId('ln'), authorId, body],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No lead with that id');
  return rows[0];
}
