import type { Static } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { newId } from '../../lib/ids.js';
import { deliverWebhook } from './deliver.js';
import type { Delivery } from './schemas.js';

/** Sends a signed `webhook.test` event to the endpoint now, once, and returns the delivery's outcome. */
export async function sendTestEvent(ctx: AppContext, workspaceId: string, endpointId: string) {
  const deliveryId = `${newId('evt')}_${endpointId}`;
  const payload = {
    type: 'webhook.test',
    timestamp: new Date().toISOString(),
    data: { workspace_id: workspaceId },
  };
  const { rows } = await ctx.db.query(
    `INSERT INTO webhook_deliveries (workspace_id, id, endpoint_id, event_type, event_key, payload)
     SELECT workspace_id, $3, id, 'webhook.test', $3, $4::jsonb FROM webhook_endpoints
     WHERE workspace_id = $1 AND id = $2 RETURNING id`,
    [workspaceId, endpointId, deliveryId, JSON.stringify(payload)],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No webhook endpoint with that id');
  await deliverWebhook(ctx, { workspaceId, deliveryId }, true);
  const delivery = await ctx.db.query<
    Pick<Static<typeof Delivery>, 'id' | 'status' | 'last_status' | 'last_error'>
  >(
    'SELECT id, status, last_status, last_error FROM webhook_deliveries WHERE workspace_id = $1 AND id = $2',
    [workspaceId, deliveryId],
  );
  return delivery.rows[0]!;
}
