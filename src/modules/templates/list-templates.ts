import type { Static } from 'typebox';
import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import type { StoredTemplate } from './components.js';
import type { ApiTemplate } from './schemas.js';
import { sendNeeds } from './send-needs.js';

type Row = StoredTemplate &
  Pick<
    Static<typeof ApiTemplate>,
    | 'id'
    | 'name'
    | 'language'
    | 'status'
    | 'rejected_reason'
    | 'status_reason'
    | 'quality_score'
    | 'created_at'
    | 'updated_at'
  > & { micros: string };

export type TemplateStatusFilter = 'approved' | 'pending' | 'rejected' | 'all';

// The spec's GET /templates answers the approved templates, all of them: a client that asks for no page
// still gets them in one (a WhatsApp Business account holds at most 6,000).
const UNPAGED = 6_000;
const PAGE = 50;

const COLUMNS = `id, name, language, category, body, parameter_format, components, status, rejected_reason,
  status_reason, quality_score, to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_at,
  (extract(epoch FROM created_at) * 1000000)::bigint::text AS micros`;

function shown(row: Row): Static<typeof ApiTemplate> {
  const { components: _c, micros: _m, ...template } = row;
  return { ...template, ...sendNeeds(row) };
}

/**
 * A page of the workspace's templates not archived here, newest first, after `cursor`: the approved
 * ones (what a send can use), those of one review state, or all. Each with what a send of it must give.
 */
export async function listApiTemplates(
  db: Queryable,
  workspaceId: string,
  options: { status: TemplateStatusFilter; limit?: number; cursor?: string },
) {
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const limit = options.limit ?? (after ? PAGE : UNPAGED);
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM templates
     WHERE workspace_id = $1 AND archived_at IS NULL AND ($2::text IS NULL OR status = $2)
       AND ($3::bigint IS NULL OR ((extract(epoch FROM created_at) * 1000000)::bigint, id) < ($3::bigint, $4::text))
     ORDER BY templates.created_at DESC, templates.id DESC LIMIT $5`,
    [
      workspaceId,
      options.status === 'all' ? null : options.status.toUpperCase(),
      after?.micros ?? null,
      after?.id ?? null,
      limit + 1,
    ],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    templates: page.map(shown),
    next_cursor: rows.length > limit && last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}

/** One template not archived here, whatever its review state; null if it is not the workspace's. */
export async function getApiTemplate(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<Static<typeof ApiTemplate> | null> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM templates WHERE workspace_id = $1 AND id = $2 AND archived_at IS NULL`,
    [workspaceId, id],
  );
  return rows[0] ? shown(rows[0]) : null;
}

/** One template of the workspace, archived or not, with when it was archived; null if it is not the workspace's. */
export async function getTemplateAndArchive(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<(Static<typeof ApiTemplate> & { archived_at: string | null }) | null> {
  const { rows } = await db.query<Row & { archived_at: string | null }>(
    `SELECT ${COLUMNS}, to_char(archived_at AT TIME ZONE 'UTC', ${ISO}) AS archived_at
     FROM templates WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, id],
  );
  const row = rows[0];
  if (!row) return null;
  const { archived_at, ...template } = row;
  return { ...shown(template), archived_at };
}
