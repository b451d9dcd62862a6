import type { Queryable } from '../../db/db.js';
import type { StoredTemplate } from './components.js';

/** The workspace's approved, not archived template of that name and language: what may be sent. */
export async function findApprovedTemplate(
  db: Queryable,
  workspaceId: string,
  ref: { name: string; language: string },
): Promise<StoredTemplate | null> {
  const { rows } = await db.query<StoredTemplate>(
    `SELECT category, body, parameter_format, components FROM templates
     WHERE workspace_id = $1 AND name = $2 AND language = $3 AND status = 'APPROVED' AND archived_at IS NULL`,
    [workspaceId, ref.name, ref.language],
  );
  return rows[0] ?? null;
}
