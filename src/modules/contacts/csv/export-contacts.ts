import type { Queryable } from '../../../db/db.js';
import { ISO } from '../list-contacts.js';

const PAGE = 1000;
const MAX_TRAIT_COLUMNS = 200;

/** The export's columns: the contact's fields, then one `trait:<key>` column per trait key in use (what an import reads back). */
export async function contactColumns(db: Queryable, workspaceId: string) {
  const { rows } = await db.query<{ k: string }>(
    `SELECT DISTINCT k FROM contacts, jsonb_object_keys(traits) AS k WHERE workspace_id = $1 ORDER BY k LIMIT ${MAX_TRAIT_COLUMNS}`,
    [workspaceId],
  );
  const traits = rows.map((r) => r.k);
  return {
    traits,
    columns: [
      'id',
      'phone',
      'name',
      'email',
      'tags',
      'opted_out',
      'opted_out_at',
      'created_at',
      'updated_at',
      ...traits.map((k) => `trait:${k}`),
    ],
  };
}

/** Every contact of the workspace, a page at a time in id order, as rows of the export's columns. */
export async function* contactRecords(
  db: Queryable,
  workspaceId: string,
  traits: string[],
): AsyncGenerator<unknown[]> {
  let after = '';
  for (;;) {
    const { rows } = await db.query<
      Record<string, unknown> & { id: string; tags: string[]; traits: Record<string, unknown> }
    >(
      `SELECT id, phone, name, email, tags, traits, opted_out,
         to_char(opted_out_at AT TIME ZONE 'UTC', ${ISO}) AS opted_out_at,
         to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
         to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_at
       FROM contacts WHERE workspace_id = $1 AND id > $2 ORDER BY id LIMIT ${PAGE}`,
      [workspaceId, after],
    );
    for (const c of rows) {
      yield [
        c.id,
        c.phone,
        c.name,
        c.email,
        c.tags.join(', '),
        c.opted_out,
        c.opted_out_at,
        c.created_at,
        c.updated_at,
        ...traits.map((k) => {
          const v = c.traits[k];
          return v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
        }),
      ];
    }
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.id;
  }
}
