import type { Queryable } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';
import { SOURCE_NAME } from './list-leads.js';

/** One lead with all its submitted fields. */
export async function getLead(db: Queryable, workspaceId: string, id: string) {
  const { rows } = await db.query(
    `SELECT l.id, l.name, l.email, l.phone, l.status, l.source, l.source_id, ${SOURCE_NAME} AS source_name,
       l.contact_id, l.fields, l.created_at, l.updated_at FROM leads l WHERE l.workspace_id = $1 AND l.id = $2`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No lead with that id');
  return rows[0];
}
