import { ApiError } from '../../api/errors.js';
import type { Db, Queryable } from '../../db/db.js';
import { type Actor, type AuditedEntity, audited } from './record-audit.js';

/** The tables whose rows are archived rather than deleted (migrations/0022_audit_archive.sql). */
type Archivable = 'forms' | 'leads' | 'automations' | 'templates';

export interface ArchiveChange {
  table: Archivable;
  /** The audited kind of thing, or how to tell it from the row (a flow or a sequence). */
  entityType: AuditedEntity | ((row: Record<string, unknown>) => AuditedEntity);
  workspaceId: string;
  id: string;
  archived: boolean;
  actor: Actor;
  /** What a 404 says: "No form with that id". */
  notFound: string;
  /** More to change in the same transaction once the row is found (unpublishing a flow). */
  also?: (tx: Queryable, change: { workspaceId: string; id: string; archived: boolean }) => Promise<void>;
}

/**
 * Archives a row (it leaves the app's lists) or restores it, with its audit entry, in one
 * transaction. Archiving twice keeps the first time.
 */
export async function setArchived(db: Db, c: ArchiveChange): Promise<void> {
  await audited(
    db,
    async (tx) => {
      const { rows } = await tx.query(
        `UPDATE ${c.table} SET archived_at = CASE WHEN $3 THEN coalesce(archived_at, now()) END, updated_at = now()
         WHERE workspace_id = $1 AND id = $2 RETURNING *`,
        [c.workspaceId, c.id, c.archived],
      );
      if (!rows[0]) throw new ApiError('not_found', c.notFound);
      await c.also?.(tx, c);
      return rows[0];
    },
    (row) => ({
      workspaceId: c.workspaceId,
      actor: c.actor,
      action: c.archived ? 'archive' : 'restore',
      entityType: typeof c.entityType === 'function' ? c.entityType(row) : c.entityType,
      entityId: c.id,
    }),
  );
}
