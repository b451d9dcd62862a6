import { Type } from 'typebox';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { requireManager } from '../accounts/roles.js';
import { IdParams } from '../accounts/schemas.js';
import { deleteEndpoint } from './delete-endpoint.js';
import { createEndpoint, WEBHOOK_EVENTS } from './endpoints.js';
import { listDeliveries } from './list-deliveries.js';
import { listEndpoints } from './list-endpoints.js';
import { sendTestEvent } from './send-test-event.js';

const EndpointBody = Type.Object(
  {
    url: Text({ minLength: 1, maxLength: FIELD_LIMITS.webhookUrl }),
    events: Type.Optional(Type.Array(Text({ maxLength: 64 }), { minItems: 1, maxItems: 20 })),
  },
  { additionalProperties: false },
);

/** Settings › Developer: outbound webhook endpoints. */
export function registerAppWebhookRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/webhooks', async (request) => ({
    result: true,
    endpoints: await listEndpoints(ctx.db, request.session().workspaceId),
    events: WEBHOOK_EVENTS,
  }));

  app.post('/webhooks', { schema: { body: EndpointBody } }, async (request, reply) => {
    const s = request.session();
    requireManager(s.role);
    const created = await createEndpoint(ctx, s.workspaceId, request.body.url, request.body.events);
    return reply.code(201).send({ result: true, ...created });
  });

  app.delete('/webhooks/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    await deleteEndpoint(ctx.db, s.workspaceId, request.params.id);
    return { result: true };
  });

  /** Sends a signed `webhook.test` event now, once, and answers with the outcome. */
  app.post('/webhooks/:id/test', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    return { result: true, delivery: await sendTestEvent(ctx, s.workspaceId, request.params.id) };
  });

  app.get('/webhooks/:id/deliveries', { schema: { params: IdParams } }, async (request) => ({
    result: true,
    deliveries: await listDeliveries(ctx.db, request.session().workspaceId, request.params.id),
  }));
}
