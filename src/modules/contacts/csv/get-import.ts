import { ApiError } from '../../../api/errors.js';
import type { Queryable } from '../../../db/db.js';
import { ISO } from '../list-contacts.js';
import type { ImportView } from './schemas.js';

/** An import's progress and a page of its refused rows (row number as a spreadsheet shows it, and why). */
export async function getImport(
  db: Queryable,
  workspaceId: string,
  id: string,
  page: { limit: number; offset: number },
) {
  const { rows } = await db.query<ImportView>(
    `SELECT id, status, file_name, total_rows, processed_rows, created, updated, refused, stopped_reason,
       to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
       to_char(finished_at AT TIME ZONE 'UTC', ${ISO}) AS finished_at
     FROM contact_imports WHERE workspace_id = $1 AND id = $2 AND status <> 'receiving'`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No import with that id');
  const refusals = page.limit
    ? (
        await db.query<{ row: number; reason: string }>(
          `SELECT row_number AS row, reason FROM contact_import_refusals
           WHERE workspace_id = $1 AND import_id = $2 ORDER BY row_number LIMIT $3 OFFSET $4`,
          [workspaceId, id, page.limit, page.offset],
        )
      ).rows
    : [];
  return { import: rows[0], refusals };
}
