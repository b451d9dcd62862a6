import type { Queryable } from '../../db/db.js';
import { likePattern } from '../../db/like-pattern.js';

// Where a lead came from, by name: the form's or the sequence's.
export const SOURCE_NAME = `CASE l.source
  WHEN 'form' THEN (SELECT f.name FROM forms f WHERE f.workspace_id = l.workspace_id AND f.id = l.source_id)
  ELSE (SELECT a.name FROM automations a WHERE a.workspace_id = l.workspace_id AND a.id = l.source_id) END`;

export interface LeadListOptions {
  limit: number;
  offset: number;
  status?: string;
  source?: 'form' | 'webhook';
  /** Part of the name or e-mail (any case) or of the phone. */
  search?: string;
}

/** One page of the workspace's leads, newest first. */
export async function listLeads(db: Queryable, workspaceId: string, options: LeadListOptions) {
  const { status, source, search, limit, offset } = options;
  const { rows } = await db.query(
    `SELECT l.id, l.name, l.email, l.phone, l.status, l.source, l.source_id, ${SOURCE_NAME} AS source_name,
       l.contact_id, l.created_at FROM leads l
     WHERE l.workspace_id = $1 AND ($2::text IS NULL OR l.status = $2) AND ($3::text IS NULL OR l.source = $3)
       AND ($4::text IS NULL OR l.name ILIKE $4 OR l.email ILIKE $4 OR l.phone LIKE $4)
     ORDER BY l.created_at DESC, l.id DESC LIMIT $5 OFFSET $6`,
    [
      workspaceId,
      status ?? null,
      source ?? null,
      search?.trim() ? likePattern(search.trim()) : null,
      limit + 1,
      offset,
    ],
  );
  return { leads: rows.slice(0, limit), hasNextPage: rows.length > limit };
}
