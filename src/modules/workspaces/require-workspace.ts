import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';

/** For operator commands that name a workspace: 404 when there is none with that id. */
export async function requireWorkspace(db: Queryable, id: string): Promise<void> {
  const { rows } = await db.query('SELECT 1 FROM workspaces WHERE id = $1', [id]);
  if (rows.length === 0) throw new ApiError('not_found', `workspace ${id} does not exist`);
}
