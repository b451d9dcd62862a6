import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { FORM_COLUMNS, type FormRow } from './list-forms.js';

/** One form as listForms shows it. */
export async function getForm(db: Queryable, workspaceId: string, id: string) {
  const { rows } = await db.query<FormRow>(
    `SELECT ${FORM_COLUMNS} FROM forms f WHERE f.workspace_id = $1 AND f.id = $2`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No form with that id');
  return rows[0];
}
