import { ApiError } from '../../api/errors.js';
import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
import type { Queryable } from '../../db/db.js';
import { displayName } from '../accounts/display-name.js';
import type { AuditedEntity } from './record-audit.js';
import type { AuditEntry } from './schemas.js';

export interface AuditListOptions {
  entity?: AuditedEntity;
  limit: number;
  offset: number;
}

const COLUMNS = `a.id::text AS id, a.actor_type, a.actor_id,
  CASE a.actor_type
    WHEN 'user' THEN (SELECT ${displayName('u')} FROM users u WHERE u.id = a.actor_id)
    WHEN 'api_key' THEN (SELECT coalesce(nullif(k.name, ''), k.display_prefix || '…') FROM api_keys k
                         WHERE k.workspace_id = a.workspace_id AND k.id = a.actor_id)
  END AS actor_name,
  a.action, a.entity_type, a.entity_id, a.changes, a.created_at`;

/** One page of the workspace's audit log, newest first, with the acting teammate's or key's name. */
export async function listAudit(db: Queryable, workspaceId: string, o: AuditListOptions) {
  const { rows } = await db.query<AuditEntry>(
    `SELECT ${COLUMNS} FROM audit_log a
     WHERE a.workspace_id = $1 AND ($2::text IS NULL OR a.entity_type = $2)
     ORDER BY a.id DESC LIMIT $3 OFFSET $4`,
    [workspaceId, o.entity ?? null, o.limit + 1, o.offset],
  );
  return { entries: rows.slice(0, o.limit), hasNextPage: rows.length > o.limit };
}

/**
 * The page of listAudit's order after `cursor` (the `next_cursor` of the page before). The key is the
 * entry's moment and its id, the id alone ordering: entries recorded meanwhile come before the first page.
 */
export async function listAuditPage(
  db: Queryable,
  workspaceId: string,
  o: { entity?: AuditedEntity; limit: number; cursor?: string },
): Promise<{ entries: AuditEntry[]; next_cursor: string | null }> {
  const after = o.cursor ? decodeCursor(o.cursor) : null;
  // An audit entry's id is a number; a cursor holding any other id is not one of this list's.
  if (after && !/^[0-9]{1,18}$/.test(after.id))
    throw ApiError.invalid(
      'cursor',
      'This is not a cursor of this list: send the next_cursor of the page before.',
    );
  const { rows } = await db.query<AuditEntry & { micros: string }>(
    `SELECT ${COLUMNS}, (extract(epoch FROM a.created_at) * 1000000)::bigint::text AS micros
     FROM audit_log a
     WHERE a.workspace_id = $1 AND ($2::text IS NULL OR a.entity_type = $2)
       AND ($3::bigint IS NULL OR a.id < $3::bigint)
     ORDER BY a.id DESC LIMIT $4`,
    [workspaceId, o.entity ?? null, after?.id ?? null, o.limit + 1],
  );
  const entries = rows.slice(0, o.limit).map(({ micros: _micros, ...entry }) => entry);
  const last = rows[o.limit - 1];
  return {
    entries,
    next_cursor: rows.length > o.limit && last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}
