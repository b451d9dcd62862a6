import type { RestApp } from '../../api/rest-app.js';
import { requireManager } from '../accounts/roles.js';
import { IdParams } from '../accounts/schemas.js';
import { deleteEndpoint } from './delete-endpoint.js';
import { createEndpoint, WEBHOOK_EVENTS } from './endpoints.js';
import { listDeliveries } from './list-deliveries.js';
import { listEndpoints } from './list-endpoints.js';
import {
  DeliveryListResult,
  EndpointBody,
  EndpointListResult,
  NewEndpointResult,
  TestDeliveryResult,
} from './schemas.js';
import { sendTestEvent } from './send-test-event.js';

/** Settings › Developer: outbound webhook endpoints. */
export function registerAppWebhookRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/webhooks', { schema: { response: { 200: EndpointListResult } } }, async (request) => ({
    result: true as const,
    endpoints: await listEndpoints(ctx.db, request.session().workspaceId),
    events: [...WEBHOOK_EVENTS],
  }));

  app.post(
    '/webhooks',
    { schema: { body: EndpointBody, response: { 201: NewEndpointResult } } },
    async (request, reply) => {
      const s = request.session();
      requireManager(s.role);
      const created = await createEndpoint(ctx, s.workspaceId, request.body.url, request.body.events);
      return reply.code(201).send({ result: true as const, ...created });
    },
  );

  app.delete('/webhooks/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    await deleteEndpoint(ctx.db, s.workspaceId, request.params.id);
    return { result: true };
  });

  /** Sends a signed `webhook.test` event now, once, and answers with the outcome. */
  app.post(
    '/webhooks/:id/test',
    { schema: { params: IdParams, response: { 200: TestDeliveryResult } } },
    async (request) => {
      const s = request.session();
      requireManager(s.role);
      return { result: true as const, delivery: await sendTestEvent(ctx, s.workspaceId, request.params.id) };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    { schema: { params: IdParams, response: { 200: DeliveryListResult } } },
    async (request) => ({
      result: true as const,
      deliveries: await listDeliveries(ctx.db, request.session().workspaceId, request.params.id),
    }),
  );
}
