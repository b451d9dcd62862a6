import type { Queryable } from '../../db/db.js';

export async function getWorkspace(db: Queryable, workspaceId: string) {
  const { rows } = await db.query(
    'SELECT id, name, default_country_code, plan, mark_read, created_at FROM workspaces WHERE id = $1',
    [workspaceId],
  );
  return rows[0];
}
