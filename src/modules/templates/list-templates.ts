import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import type { StoredTemplate } from './components.js';
import type { ListedTemplate } from './schemas.js';
import { sendNeeds } from './send-needs.js';

type Row = StoredTemplate & Pick<Static<typeof ListedTemplate>, 'id' | 'name' | 'language'>;

/** Approved templates not archived here, each with what a send of it must give. */
export async function listApprovedTemplates(
  db: Queryable,
  workspaceId: string,
): Promise<Static<typeof ListedTemplate>[]> {
  const { rows } = await db.query<Row>(
    `SELECT id, name, language, category, body, parameter_format, components FROM templates
     WHERE workspace_id = $1 AND status = 'APPROVED' AND archived_at IS NULL ORDER BY name, language`,
    [workspaceId],
  );
  return rows.map((row) => {
    const { components: _, ...listed } = row;
    return { ...listed, ...sendNeeds(row) };
  });
}
