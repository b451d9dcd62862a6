import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import type { AppForm } from './schemas.js';

export type FormRow = Static<typeof AppForm>;

export const FORM_COLUMNS = `f.id, f.name, f.token, f.active, f.fields, f.thank_you_message, f.redirect_url, f.archived_at, f.created_at, f.updated_at,
  (SELECT count(*)::int FROM leads l WHERE l.workspace_id = f.workspace_id AND l.source = 'form' AND l.source_id = f.id) AS leads`;

/** The workspace's forms (archived ones, or the others), newest first, each with its count of leads. */
export async function listForms(db: Queryable, workspaceId: string, archived = false) {
  const { rows } = await db.query<FormRow>(
    `SELECT ${FORM_COLUMNS} FROM forms f WHERE f.workspace_id = $1 AND (f.archived_at IS NOT NULL) = $2
     ORDER BY f.created_at DESC, f.id`,
    [workspaceId, archived],
  );
  return rows;
}
