import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { APP_CONTACT_COLUMNS } from './list-contacts.js';
import type { AppContact } from './schemas.js';

export async function getContact(db: Queryable, workspaceId: string, id: string): Promise<AppContact> {
  const { rows } = await db.query<AppContact>(
    `SELECT ${APP_CONTACT_COLUMNS} FROM contacts WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No contact with that id');
  return rows[0];
}
