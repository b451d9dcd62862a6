import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import type { WorkspaceSettings } from './schemas.js';

export async function getWorkspace(db: Queryable, workspaceId: string) {
  const { rows } = await db.query<Static<typeof WorkspaceSettings>>(
    `SELECT id, name, default_country_code, plan, mark_read, created_at, opt_out_keywords, opt_in_keywords,
       opt_out_confirmation, opt_in_confirmation, time_zone
     FROM workspaces WHERE id = $1`,
    [workspaceId],
  );
  return rows[0]!;
}
