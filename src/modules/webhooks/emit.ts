import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import type { WebhookEvent } from './endpoints.js';

/**
 * Records an event for every enabled endpoint that subscribes to it; returns the deliveries to
 * queue. Inside a transaction, queue them after it commits (a worker must find the row; and PGlite,
 * one connection, cannot serve the queue while the transaction holds it). `key` names the event
 * itself (a message's status, say): recording it again adds nothing.
 */
export async function recordEvent(
  db: Queryable,
  workspaceId: string,
  type: WebhookEvent,
  key: string,
  data: Record<string, unknown>,
): Promise<string[]> {
  const payload = { type, timestamp: new Date().toISOString(), data };
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (workspace_id, id, endpoint_id, event_type, event_key, payload)
     SELECT $1, $2 || '_' || e.id, e.id, $3, $4, $5::jsonb FROM webhook_endpoints e
     WHERE e.workspace_id = $1 AND e.enabled AND $3 = ANY (e.events)
     ON CONFLICT (workspace_id, endpoint_id, event_key) DO NOTHING
     RETURNING id`,
    [workspaceId, newId('evt'), type, key, JSON.stringify(payload)],
  );
  return rows.map((r) => r.id);
}

export async function queueDeliveries(
  ctx: AppContext,
  workspaceId: string,
  deliveryIds: string[],
): Promise<void> {
  for (const deliveryId of deliveryIds)
    await ctx.queue?.send('webhooks.deliver', { workspaceId, deliveryId });
}

export async function emitEvent(
  ctx: AppContext,
  workspaceId: string,
  type: WebhookEvent,
  key: string,
  data: Record<string, unknown>,
): Promise<void> {
  await queueDeliveries(ctx, workspaceId, await recordEvent(ctx.db, workspaceId, type, key, data));
}
