import type { Queryable } from '../../../db/db.js';

/**
 * Imports still `receiving` an hour on were cut off with their process (a failed upload clears its
 * own): their staged rows and refusals go, and the import with them. Answers how many.
 */
export async function forgetAbandonedUploads(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM contact_imports WHERE status = 'receiving' AND created_at < now() - interval '1 hour'
       RETURNING workspace_id, id),
     staged AS (
       DELETE FROM contact_import_rows r USING gone WHERE r.workspace_id = gone.workspace_id AND r.import_id = gone.id),
     refused AS (
       DELETE FROM contact_import_refusals r USING gone WHERE r.workspace_id = gone.workspace_id AND r.import_id = gone.id)
     SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0]?.n ?? 0;
}
