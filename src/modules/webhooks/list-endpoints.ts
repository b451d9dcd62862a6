import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import type { EndpointListResult } from './schemas.js';

/** The workspace's endpoints, oldest first, each with its count of failed deliveries. */
export async function listEndpoints(db: Queryable, workspaceId: string) {
  const { rows } = await db.query<Static<typeof EndpointListResult>['endpoints'][number]>(
    `SELECT e.id, e.url, e.events, e.enabled, e.created_at,
       (SELECT count(*)::int FROM webhook_deliveries d WHERE d.workspace_id = e.workspace_id AND d.endpoint_id = e.id
          AND d.status = 'failed') AS failed
     FROM webhook_endpoints e WHERE e.workspace_id = $1 ORDER BY e.created_at`,
    [workspaceId],
  );
  return rows;
}
