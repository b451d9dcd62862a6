import { ApiError } from '../../api/errors.js';
import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
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

const MICROS = '(extract(epoch FROM n.created_at) * 1000000)::bigint';

/** REST v1's page of a lead's notes, newest first, after `cursor`; a lead not of the workspace is a 404. */
export async function listLeadNotePage(
  db: Queryable,
  workspaceId: string,
  leadId: string,
  options: { limit: number; cursor?: string | undefined },
) {
  const after = options.cursor === undefined ? null : decodeCursor(options.cursor);
  const lead = await db.query('SELECT 1 FROM leads WHERE workspace_id = $1 AND id = $2', [
    workspaceId,
    leadId,
  ]);
  if (!lead.rows[0]) throw new ApiError('not_found', 'No lead with that id');
  const { rows } = await db.query<LeadNote & { micros: string }>(
    `SELECT ${COLUMNS}, ${MICROS}::text AS micros FROM lead_notes n WHERE n.workspace_id = $1 AND n.lead_id = $2
       AND ($3::bigint IS NULL OR (${MICROS}, n.id) < ($3::bigint, $4::text))
     ORDER BY n.created_at DESC, n.id DESC LIMIT $5`,
    [workspaceId, leadId, after?.micros ?? null, after?.id ?? null, options.limit + 1],
  );
  const last = rows.length > options.limit ? rows[options.limit - 1] : undefined;
  return {
    notes: rows.slice(0, options.limit).map(({ micros: _micros, ...note }) => note),
    next_cursor: last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}

/** A note on a lead: who wrote it (a teammate; null through an API key) and when are kept with it. */
export async function addLeadNote(
  db: Queryable,
  workspaceId: string,
  leadId: string,
  authorId: string | null,
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
