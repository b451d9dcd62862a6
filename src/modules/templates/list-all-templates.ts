import type { Queryable } from '../../db/db.js';

/** Every template of the workspace whatever its status (REST v1 lists approved ones: list-templates.ts). */
export async function listAllTemplates(db: Queryable, workspaceId: string) {
  const { rows } = await db.query(
    `SELECT id, name, language, category, body, status, variable_count, parameter_format, components,
       quality_score, rejected_reason, updated_at FROM templates
     WHERE workspace_id = $1 ORDER BY name, language`,
    [workspaceId],
  );
  return rows;
}
