import { decodeCursor, encodeCursor, type PageKey } from '../../api/page-cursor.js';
import type { Queryable } from '../../db/db.js';
import { likePattern } from '../../db/like-pattern.js';
import { displayName } from '../accounts/display-name.js';
import { ISO } from '../contacts/list-contacts.js';
import type { ListedLead } from './schemas.js';

// Where a lead came from, by name: the form's or the sequence's.
export const SOURCE_NAME = `CASE l.source
  WHEN 'form' THEN (SELECT f.name FROM forms f WHERE f.workspace_id = l.workspace_id AND f.id = l.source_id)
  ELSE (SELECT a.name FROM automations a WHERE a.workspace_id = l.workspace_id AND a.id = l.source_id) END`;
// The teammate who looks after the lead, by name (their e-mail when they gave none).
export const OWNER_NAME = `(SELECT ${displayName('u')} FROM users u WHERE u.id = l.owner_id)`;

export interface LeadListOptions {
  limit: number;
  offset: number;
  status?: string;
  source?: 'form' | 'webhook';
  formId?: string;
  /** A member's user id, or `none` for leads nobody looks after. */
  owner?: string;
  /** Part of the name, e-mail, phone or of any submitted field's value (any case). */
  search?: string;
  /** Archived leads instead of the others. */
  archived?: boolean;
  /** Leads that came in through this sequence's webhook or that it ran for. */
  automationId?: string;
  /** Leads created at or after this moment (ISO 8601). */
  since?: string;
  /** Leads created before this moment (ISO 8601). */
  until?: string;
  /** Only leads after this one in the order (a cursor's key). */
  after?: PageKey | null;
}

// The lead's times as ISO 8601 text, as the answers carry them.
export const LEAD_TIMES = `to_char(l.archived_at AT TIME ZONE 'UTC', ${ISO}) AS archived_at,
  to_char(l.created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at`;

// A lead's created_at in microseconds since 1970: the cursor's moment (src/api/page-cursor.ts).
const MICROS = '(extract(epoch FROM l.created_at) * 1000000)::bigint';

/** The filters GET /leads and its CSV export share. */
export type LeadFilters = Pick<LeadListOptions, 'status' | 'formId' | 'automationId' | 'since' | 'until'>;

/** `filters` as SQL conditions on the lead `l`, their parameters numbered from `$from`. */
export function leadFilters(from: number, filters: LeadFilters) {
  const [status, form, automation, since, until] = [0, 1, 2, 3, 4].map((i) => `$${from + i}`);
  return {
    sql: `(${status}::text IS NULL OR l.status = ${status})
       AND (${form}::text IS NULL OR (l.source = 'form' AND l.source_id = ${form}))
       AND (${automation}::text IS NULL OR (l.source = 'webhook' AND l.source_id = ${automation})
         OR EXISTS (SELECT 1 FROM runs r
           WHERE r.workspace_id = l.workspace_id AND r.lead_id = l.id AND r.automation_id = ${automation}))
       AND (${since}::timestamptz IS NULL OR l.created_at >= ${since})
       AND (${until}::timestamptz IS NULL OR l.created_at < ${until})`,
    values: [
      filters.status ?? null,
      filters.formId ?? null,
      filters.automationId ?? null,
      filters.since ?? null,
      filters.until ?? null,
    ],
  };
}

/** One page of the workspace's leads, newest first, and the key of its last one. */
export async function listLeads(db: Queryable, workspaceId: string, options: LeadListOptions) {
  const { source, owner, search, limit, offset, archived = false } = options;
  const filters = leadFilters(10, options);
  const { rows } = await db.query<ListedLead & { micros: string }>(
    `SELECT l.id, l.name, l.email, l.phone, l.status, l.source, l.source_id, ${SOURCE_NAME} AS source_name,
       l.contact_id, l.owner_id, ${OWNER_NAME} AS owner_name, ${LEAD_TIMES},
       ${MICROS}::text AS micros FROM leads l
     WHERE l.workspace_id = $1 AND ($2::text IS NULL OR l.source = $2)
       AND ($3::text IS NULL OR l.name ILIKE $3 OR l.email ILIKE $3 OR l.phone LIKE $3
         OR EXISTS (SELECT 1 FROM jsonb_each_text(l.fields) f WHERE f.value ILIKE $3))
       AND ($6::text IS NULL OR ($6 = 'none' AND l.owner_id IS NULL) OR l.owner_id = $6)
       AND (l.archived_at IS NOT NULL) = $7
       AND ($8::bigint IS NULL OR (${MICROS}, l.id) < ($8::bigint, $9::text))
       AND ${filters.sql}
     ORDER BY l.created_at DESC, l.id DESC LIMIT $4 OFFSET $5`,
    [
      workspaceId,
      source ?? null,
      search?.trim() ? likePattern(search.trim()) : null,
      limit + 1,
      offset,
      owner ?? null,
      archived,
      options.after?.micros ?? null,
      options.after?.id ?? null,
      ...filters.values,
    ],
  );
  const leads = rows.slice(0, limit).map(({ micros: _micros, ...lead }) => lead);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    leads,
    hasNextPage: rows.length > limit,
    lastKey: last ? { micros: last.micros, id: last.id } : null,
  };
}

/** REST v1's page of leads: after `cursor`, with the cursor of the next page (null on the last). */
export async function listLeadPage(
  db: Queryable,
  workspaceId: string,
  options: Omit<LeadListOptions, 'offset' | 'after' | 'archived'> & { cursor?: string | undefined },
) {
  const { cursor, ...filters } = options;
  const after = cursor === undefined ? null : decodeCursor(cursor);
  const page = await listLeads(db, workspaceId, { ...filters, offset: 0, after });
  return { leads: page.leads, next_cursor: page.lastKey ? encodeCursor(page.lastKey) : null };
}
