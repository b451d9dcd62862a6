import type { Queryable } from '../../../db/db.js';

/** Rows of an import refused, each with its spreadsheet row number and why (once per row). */
export async function recordRefusals(
  q: Queryable,
  workspaceId: string,
  importId: string,
  rows: { n: number; reason: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO contact_import_refusals (workspace_id, import_id, row_number, reason)
     SELECT $1, $2, (x->>'n')::int, x->>'reason' FROM jsonb_array_elements($3::jsonb) AS x
     ON CONFLICT DO NOTHING`,
    [workspaceId, importId, JSON.stringify(rows)],
  );
}
