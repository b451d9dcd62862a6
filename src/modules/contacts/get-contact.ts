import type { Queryable } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';

export async function getContact(db: Queryable, workspaceId: string, id: string) {
  const { rows } = await db.query(
    `SELECT id, phone, name, email, tags, traits, opted_out, opted_out_at, created_at, updated_at, last_inbound_at FROM contacts
     WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No contact with that id');
  return rows[0];
}
