import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import type { ListedTemplate } from './schemas.js';

export async function listApprovedTemplates(
  db: Queryable,
  workspaceId: string,
): Promise<Static<typeof ListedTemplate>[]> {
  const { rows } = await db.query<Static<typeof ListedTemplate>>(
    `SELECT id, name, language, category, body, variable_count FROM templates
     WHERE workspace_id = $1 AND status = 'APPROVED' ORDER BY name, language`,
    [workspaceId],
  );
  return rows;
}
