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
}

// The lead's times as ISO 8601 text, as the answers carry them.
export const LEAD_TIMES = `to_char(l.archived_at AT TIME ZONE 'UTC', ${ISO}) AS archived_at,
  to_char(l.created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at`;

/** One page of the workspace's leads, newest first. */
export async function listLeads(db: Queryable, workspaceId: string, options: LeadListOptions) {
  const { status, source, formId, owner, search, limit, offset, archived = false } = options;
  const { rows } = await db.query<ListedLead>(
    `SELECT l.id, l.name, l.email, l.phone, l.status, l.source, l.source_id, ${SOURCE_NAME} AS source_name,
       l.contact_id, l.owner_id, ${OWNER_NAME} AS owner_name, ${LEAD_TIMES} FROM leads l
     WHERE l.workspace_id = $1 AND ($2::text IS NULL OR l.status = $2) AND ($3::text IS NULL OR l.source = $3)
       AND ($4::text IS NULL OR l.name ILIKE $4 OR l.email ILIKE $4 OR l.phone LIKE $4
         OR EXISTS (SELECT 1 FROM jsonb_each_text(l.fields) f WHERE f.value ILIKE $4))
       AND ($7::text IS NULL OR (l.source = 'form' AND l.source_id = $7))
       AND ($8::text IS NULL OR ($8 = 'none' AND l.owner_id IS NULL) OR l.owner_id = $8)
       AND (l.archived_at IS NOT NULL) = $9
     ORDER BY l.created_at DESC, l.id DESC LIMIT $5 OFFSET $6`,
    [
      workspaceId,
      status ?? null,
      source ?? null,
      search?.trim() ? likePattern(search.trim()) : null,
      limit + 1,
      offset,
      formId ?? null,
      owner ?? null,
      archived,
    ],
  );
  return { leads: rows.slice(0, limit), hasNextPage: rows.length > limit };
}
