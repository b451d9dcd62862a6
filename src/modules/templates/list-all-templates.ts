import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import type { StoredTemplate } from './components.js';
import type { AppTemplate } from './schemas.js';
import { sendNeeds } from './send-needs.js';

type Row = StoredTemplate &
  Pick<
    Static<typeof AppTemplate>,
    | 'id'
    | 'name'
    | 'language'
    | 'status'
    | 'quality_score'
    | 'rejected_reason'
    | 'status_reason'
    | 'updated_at'
  >;

/**
 * Every template of the workspace whatever its status (REST v1 lists approved ones), archived ones or the others, with its
 * components for the web app's preview and what a send of it must give, for its values form.
 */
export async function listAllTemplates(db: Queryable, workspaceId: string, archived = false) {
  const { rows } = await db.query<Row>(
    `SELECT id, name, language, category, body, status, parameter_format, components,
       quality_score, rejected_reason, status_reason, archived_at, updated_at FROM templates
     WHERE workspace_id = $1 AND (archived_at IS NOT NULL) = $2 ORDER BY name, language`,
    [workspaceId, archived],
  );
  return rows.map((row) => ({ ...row, ...sendNeeds(row) }));
}
