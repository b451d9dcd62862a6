import type { Queryable } from '../../db/db.js';
import { displayName } from '../accounts/display-name.js';
import type { AuditedEntity } from './record-audit.js';
import type { AuditEntry } from './schemas.js';

export interface AuditListOptions {
  entity?: AuditedEntity;
  limit: number;
  offset: number;
}

/** One page of the workspace's audit log, newest first, with the acting teammate's or key's name. */
export async function listAudit(db: Queryable, workspaceId: string, o: AuditListOptions) {
  const { rows } = await db.query<AuditEntry>(
    `SELECT a.id::text AS id, a.actor_type, a.actor_id,
       CASE a.actor_type
         WHEN 'user' THEN (SELECT ${displayName('u')} FROM users u WHERE u.id = a.actor_id)
         WHEN 'api_key' THEN (SELECT coalesce(nullif(k.name, ''), k.display_prefix || '…') FROM api_keys k
                              WHERE k.workspace_id = a.workspace_id AND k.id = a.actor_id)
       END AS actor_name,
       a.action, a.entity_type, a.entity_id, a.changes, a.created_at
     FROM audit_log a
     WHERE a.workspace_id = $1 AND ($2::text IS NULL OR a.entity_type = $2)
     ORDER BY a.id DESC LIMIT $3 OFFSET $4`,
    [workspaceId, o.entity ?? null, o.limit + 1, o.offset],
  );
  return { entries: rows.slice(0, o.limit), hasNextPage: rows.length > o.limit };
}
