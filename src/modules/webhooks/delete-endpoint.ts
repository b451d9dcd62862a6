import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';

/** Removes an endpoint and its delivery history. */
export async function deleteEndpoint(db: Queryable, workspaceId: string, id: string): Promise<void> {
  const { rows } = await db.query(
    'DELETE FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2 RETURNING id',
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No webhook endpoint with that id');
  await db.query('DELETE FROM webhook_deliveries WHERE workspace_id = $1 AND endpoint_id = $2', [
    workspaceId,
    id,
  ]);
}
