import type { Static } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import type { Delivery } from './schemas.js';

/** The endpoint's last 50 deliveries, newest first. */
export async function listDeliveries(db: Queryable, workspaceId: string, endpointId: string) {
  const endpoint = await db.query('SELECT 1 FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2', [
    workspaceId,
    endpointId,
  ]);
  if (!endpoint.rows[0]) throw new ApiError('not_found', 'No webhook endpoint with that id');
  const { rows } = await db.query<Static<typeof Delivery>>(
    `SELECT id, event_type, status, attempts, last_status, last_error, created_at, delivered_at
     FROM webhook_deliveries WHERE workspace_id = $1 AND endpoint_id = $2 ORDER BY created_at DESC LIMIT 50`,
    [workspaceId, endpointId],
  );
  return rows;
}
