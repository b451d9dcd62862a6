import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import { SOURCE_NAME } from './list-leads.js';

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

/** Every lead of the workspace, a page at a time in id order; the submitted fields as one JSON cell. */
export async function* leadRecords(db: Queryable, workspaceId: string): AsyncGenerator<unknown[]> {
  let after = '';
  for (;;) {
    const { rows } = await db.query<Record<string, unknown> & { id: string }>(
      `SELECT l.id, l.name, l.email, l.phone, l.status, l.source, ${SOURCE_NAME} AS source_name, l.contact_id,
         to_char(l.created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at, l.fields::text AS fields
       FROM leads l WHERE l.workspace_id = $1 AND l.id > $2 ORDER BY l.id LIMIT ${PAGE}`,
      [workspaceId, after],
    );
    for (const l of rows) yield LEAD_COLUMNS.map((c) => l[c]);
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.id;
  }
}
