import { Type } from 'typebox';
import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { newId } from '../../lib/ids.js';
import { requireManager } from '../accounts/roles.js';
import { IdParams } from '../accounts/schemas.js';
import { deliverWebhook } from './deliver.js';
import { createEndpoint, WEBHOOK_EVENTS } from './endpoints.js';

const EndpointBody = Type.Object(
  {
    url: Text({ minLength: 1, maxLength: 2000 }),
    events: Type.Optional(Type.Array(Text({ maxLength: 64 }), { minItems: 1, maxItems: 20 })),
  },
  { additionalProperties: false },
);

/** Settings › Developer: outbound webhook endpoints. */
export function registerAppWebhookRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/webhooks', async (request) => {
    const { rows } = await ctx.db.query(
      `SELECT e.id, e.url, e.events, e.enabled, e.created_at,
         (SELECT count(*)::int FROM webhook_deliveries d WHERE d.workspace_id = e.workspace_id AND d.endpoint_id = e.id
            AND d.status = 'failed') AS failed
       FROM webhook_endpoints e WHERE e.workspace_id = $1 ORDER BY e.created_at`,
      [request.session().workspaceId],
    );
    return { result: true, endpoints: rows, events: WEBHOOK_EVENTS };
  });

  app.post('/webhooks', { schema: { body: EndpointBody } }, async (request, reply) => {
    const s = request.session();
    requireManager(s.role);
    const created = await createEndpoint(ctx, s.workspaceId, request.body.url, request.body.events);
    return reply.code(201).send({ result: true, ...created });
  });

  app.delete('/webhooks/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    const { rows } = await ctx.db.query(
      'DELETE FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2 RETURNING id',
      [s.workspaceId, request.params.id],
    );
    if (!rows[0]) throw new ApiError('not_found', 'No webhook endpoint with that id');
    await ctx.db.query('DELETE FROM webhook_deliveries WHERE workspace_id = $1 AND endpoint_id = $2', [
      s.workspaceId,
      request.params.id,
    ]);
    return { result: true };
  });

  /** Sends a signed `webhook.test` event now, once, and answers with the outcome. */
  app.post('/webhooks/:id/test', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    const deliveryId = `${newId('evt')}_${request.params.id}`;
    const payload = {
      type: 'webhook.test',
      timestamp: new Date().toISOString(),
      data: { workspace_id: s.workspaceId },
    };
    const { rows } = await ctx.db.query(
      `INSERT INTO webhook_deliveries (workspace_id, id, endpoint_id, event_type, event_key, payload)
       SELECT workspace_id, $3, id, 'webhook.test', $3, $4::jsonb FROM webhook_endpoints
       WHERE workspace_id = $1 AND id = $2 RETURNING id`,
      [s.workspaceId, request.params.id, deliveryId, JSON.stringify(payload)],
    );
    if (!rows[0]) throw new ApiError('not_found', 'No webhook endpoint with that id');
    await deliverWebhook(ctx, { workspaceId: s.workspaceId, deliveryId }, true);
    const delivery = await ctx.db.query(
      'SELECT id, status, last_status, last_error FROM webhook_deliveries WHERE workspace_id = $1 AND id = $2',
      [s.workspaceId, deliveryId],
    );
    return { result: true, delivery: delivery.rows[0] };
  });

  app.get('/webhooks/:id/deliveries', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    const endpoint = await ctx.db.query(
      'SELECT 1 FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2',
      [s.workspaceId, request.params.id],
    );
    if (!endpoint.rows[0]) throw new ApiError('not_found', 'No webhook endpoint with that id');
    const { rows } = await ctx.db.query(
      `SELECT id, event_type, status, attempts, last_status, last_error, created_at, delivered_at
       FROM webhook_deliveries WHERE workspace_id = $1 AND endpoint_id = $2 ORDER BY created_at DESC LIMIT 50`,
      [s.workspaceId, request.params.id],
    );
    return { result: true, deliveries: rows };
  });
}
