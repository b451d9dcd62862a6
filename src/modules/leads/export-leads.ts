import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import { type LeadFilters, leadFilters, SOURCE_NAME } from './list-leads.js';

const PAGE = 1000;

export const LEAD_COLUMNS = [
  'id',
  'name',
  'email',
  'phone',
  'status',
  'source',
  'source_name',
  'contact_id',
  'created_at',
  'fields',
];

/**
 * The workspace's leads, a page at a time in id order; the submitted fields as one JSON cell. Without
 * `filters`, every lead, archived ones too (the app's export); with them, GET /leads's (not archived).
 */
export async function* leadRecords(
  db: Queryable,
  workspaceId: string,
  filters?: LeadFilters,
): AsyncGenerator<unknown[]> {
  const where = leadFilters(3, filters ?? {});
  let after = '';
  for (;;) {
    const { rows } = await db.query<Record<string, unknown> & { id: string }>(
      `SELECT l.id, l.name, l.email, l.phone, l.status, l.source, ${SOURCE_NAME} AS source_name, l.contact_id,
         to_char(l.created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at, l.fields::text AS fields
       FROM leads l WHERE l.workspace_id = $1 AND l.id > $2 AND ${where.sql}
         AND ($8::boolean OR l.archived_at IS NULL)
       ORDER BY l.id LIMIT ${PAGE}`,
      [workspaceId, after, ...where.values, filters === undefined],
    );
    for (const l of rows) yield LEAD_COLUMNS.map((c) => l[c]);
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.id;
  }
}
