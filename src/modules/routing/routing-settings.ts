import { ApiError } from '../../api/errors.js';
import type { Db, Queryable } from '../../db/db.js';
import { type Actor, audited, changedFields } from '../audit/record-audit.js';
import { IDLE_MINUTES_DEFAULT, type RoutingSettings } from './schemas.js';

/** The workspace's routing: the auto-assign team (null: off) and the idle limit. */
export async function routingSettings(db: Queryable, workspaceId: string): Promise<RoutingSettings> {
  const { rows } = await db.query<RoutingSettings>(
    'SELECT auto_assign_team_id, idle_minutes FROM routing_settings WHERE workspace_id = $1',
    [workspaceId],
  );
  return rows[0] ?? { auto_assign_team_id: null, idle_minutes: IDLE_MINUTES_DEFAULT };
}

/** Stores the routing settings; 422 for a team that is not the workspace's. */
export async function updateRouting(
  db: Db,
  workspaceId: string,
  settings: RoutingSettings,
  actor: Actor,
): Promise<RoutingSettings> {
  return audited(
    db,
    (tx) => storeRouting(tx, workspaceId, settings),
    () => ({
      workspaceId,
      actor,
      action: 'update',
      entityType: 'routing',
      entityId: workspaceId,
      changes: changedFields(settings),
    }),
  );
}

async function storeRouting(db: Queryable, workspaceId: string, settings: RoutingSettings) {
  const { rows } = await db.query<RoutingSettings>(
    `WITH team AS (SELECT id FROM teams WHERE workspace_id = $1 AND id = $2)
     INSERT INTO routing_settings (workspace_id, auto_assign_team_id, idle_minutes)
     SELECT $1, $2, $3 WHERE $2::text IS NULL OR EXISTS (SELECT 1 FROM team)
     ON CONFLICT (workspace_id) DO UPDATE
       SET auto_assign_team_id = EXCLUDED.auto_assign_team_id, idle_minutes = EXCLUDED.idle_minutes,
           updated_at = now()
     RETURNING auto_assign_team_id, idle_minutes`,
    [workspaceId, settings.auto_assign_team_id, settings.idle_minutes],
  );
  if (!rows[0]) throw ApiError.invalid('auto_assign_team_id', 'Choose one of your teams, or none.');
  return rows[0];
}
