import type { Queryable } from '../../db/db.js';
import type { StoredTemplate } from './components.js';
import { sendNeeds } from './send-needs.js';

/**
 * Every template of the workspace whatever its status (REST v1 lists approved ones), with its
 * components for the web app's preview and what a send of it must give, for its values form.
 */
export async function listAllTemplates(db: Queryable, workspaceId: string) {
  const { rows } = await db.query<StoredTemplate & Record<string, unknown>>(
    `SELECT id, name, language, category, body, status, parameter_format, components,
       quality_score, rejected_reason, updated_at FROM templates
     WHERE workspace_id = $1 ORDER BY name, language`,
    [workspaceId],
  );
  return rows.map((row) => ({ ...row, ...sendNeeds(row) }));
}
