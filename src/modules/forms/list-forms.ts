import type { Static } from 'typebox';
import { decodeCursor, encodeCursor, type PageKey } from '../../api/page-cursor.js';
import type { Queryable } from '../../db/db.js';
import type { AppForm } from './schemas.js';

export type FormRow = Static<typeof AppForm>;

export const FORM_COLUMNS = `f.id, f.name, f.token, f.active, f.fields, f.thank_you_message, f.redirect_url, f.archived_at, f.created_at, f.updated_at,
  (SELECT count(*)::int FROM leads l WHERE l.workspace_id = f.workspace_id AND l.source = 'form' AND l.source_id = f.id) AS leads`;

// A form's created_at in microseconds since 1970: the cursor's moment (src/api/page-cursor.ts).
const MICROS = '(extract(epoch FROM f.created_at) * 1000000)::bigint';

/** The workspace's forms (archived ones, or the others), newest first; `limit` of them after `after`. */
async function queryForms(
  db: Queryable,
  workspaceId: string,
  archived: boolean,
  page: { limit: number; after: PageKey | null } | null,
) {
  const { rows } = await db.query<FormRow & { micros: string }>(
    `SELECT ${FORM_COLUMNS}, ${MICROS}::text AS micros FROM forms f
     WHERE f.workspace_id = $1 AND (f.archived_at IS NOT NULL) = $2
       AND ($3::bigint IS NULL OR (${MICROS}, f.id) < ($3::bigint, $4::text))
     ORDER BY f.created_at DESC, f.id DESC LIMIT $5`,
    [
      workspaceId,
      archived,
      page?.after?.micros ?? null,
      page?.after?.id ?? null,
      page ? page.limit + 1 : null,
    ],
  );
  return rows;
}

const withoutKey = ({ micros: _micros, ...form }: FormRow & { micros: string }): FormRow => form;

/** The workspace's forms (archived ones, or the others), newest first, each with its count of leads. */
export async function listForms(db: Queryable, workspaceId: string, archived = false) {
  return (await queryForms(db, workspaceId, archived, null)).map(withoutKey);
}

/** REST v1's page of the forms not archived, after `cursor`, with the next page's cursor (null on the last). */
export async function listFormPage(
  db: Queryable,
  workspaceId: string,
  options: { limit: number; cursor?: string | undefined },
) {
  const after = options.cursor === undefined ? null : decodeCursor(options.cursor);
  const rows = await queryForms(db, workspaceId, false, { limit: options.limit, after });
  const last = rows.length > options.limit ? rows[options.limit - 1] : undefined;
  return {
    forms: rows.slice(0, options.limit).map(withoutKey),
    next_cursor: last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}
