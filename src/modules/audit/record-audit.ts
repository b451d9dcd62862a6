import type { Principal } from '../../api/principal.js';
import type { Db, Queryable } from '../../db/db.js';

/** Who made a change: a teammate, an API key, or Parley itself. */
export type Actor = { type: 'user'; id: string } | { type: 'api_key'; id: string } | { type: 'system' };

/** A REST v1 call's actor: the key it came with. */
export const keyActor = (p: Principal): Actor => ({ type: 'api_key', id: p.keyId });

export const AUDITED_ENTITIES = [
  'contact',
  'lead',
  'form',
  'flow',
  'sequence',
  'template',
  'member',
  'invitation',
  'api_key',
  'team',
  'routing',
  'business_hours',
  'satisfaction_survey',
  'quick_reply',
] as const;
export type AuditedEntity = (typeof AUDITED_ENTITIES)[number];

export interface AuditEntry {
  workspaceId: string;
  actor: Actor;
  action: 'create' | 'update' | 'delete' | 'archive' | 'restore' | 'publish' | 'unpublish' | 'revoke';
  entityType: AuditedEntity;
  entityId: string;
  /** Names of the fields changed and small values (a role, a status): never secrets or personal data. */
  changes?: Record<string, unknown>;
}

/** The actor of a signed-in session. */
export const userActor = (s: { userId: string }): Actor => ({ type: 'user', id: s.userId });

/** Writes one audit row; call it with the transaction that makes the change, so both commit or neither. */
export async function recordAudit(q: Queryable, e: AuditEntry): Promise<void> {
  await q.query(
    `INSERT INTO audit_log (workspace_id, actor_type, actor_id, action, entity_type, entity_id, changes)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
    [
      e.workspaceId,
      e.actor.type,
      e.actor.type === 'system' ? null : e.actor.id,
      e.action,
      e.entityType,
      e.entityId,
      JSON.stringify(e.changes ?? {}),
    ],
  );
}

/** Runs `write` and records its audit entry in one transaction; `entry` may read what `write` answered. */
export async function audited<T>(
  db: Db,
  write: (tx: Queryable) => Promise<T>,
  entry: (result: T) => AuditEntry,
): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await write(tx);
    await recordAudit(tx, entry(result));
    return result;
  });
}

/** The field names of a change given as an object, for `changes`. */
export const changedFields = (input: object): { fields: string[] } => ({
  fields: Object.entries(input)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k),
});
