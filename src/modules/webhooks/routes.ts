import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { answerWriter } from '../idempotency/outcome.js';
import { getApiEndpoint, listApiDeliveries, listApiEndpoints } from './api-lists.js';
import { deleteEndpoint } from './delete-endpoint.js';
import { createEndpoint } from './endpoints.js';
import {
  ApiDeliveryList,
  ApiEndpointList,
  ApiNewEndpoint,
  ApiTestDelivery,
  EndpointBody,
  PageQuery,
} from './schemas.js';
import { sendTestEvent } from './send-test-event.js';

const tags = ['webhooks'];

const NewEndpointExample = {
  ...EndpointBody,
  examples: [{ url: 'https://example.com/hooks/parley', events: ['message.received', 'lead.created'] }],
};

/** REST v1: the workspace's outbound webhook endpoints, as Settings › Developer manages them. */
export function registerWebhookRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints, newest first',
        description:
          'Each with the events it takes, whether it is enabled and its count of failed deliveries; never its ' +
          'signing secret (shown once, when it was added). Pages follow `next_cursor` (null on the last ' +
          'page): send it back as `cursor`.',
        tags,
        querystring: PageQuery,
        response: { 200: ApiEndpointList, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await listApiEndpoints(ctx.db, request.principal().workspaceId, request.query)),
    }),
  );

  app.post(
    '/webhooks',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'createWebhookEndpoint',
        summary: 'Add a webhook endpoint; answers its signing secret, once',
        description:
          'Events are posted to `url` signed by the Standard Webhooks scheme with the `secret` of this answer, ' +
          'which is stored sealed and never shown again (a replay of this request with its Idempotency-Key ' +
          'answers the endpoint without it: delete the endpoint and add it again if the secret was lost). ' +
          'Without `events`, every event. A private or local address is a 422 unless the server allows it.',
        tags,
        body: NewEndpointExample,
        response: { 201: ApiNewEndpoint, ...errorResponses(400, 401, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.principal();
      // What a retry is answered: the endpoint, but not its secret, which is stored sealed only.
      const writer = answerWriter(
        request,
        (endpoint: NonNullable<Awaited<ReturnType<typeof getApiEndpoint>>>) => ({
          status: 201,
          body: { result: true, endpoint },
        }),
      );
      const { id, secret } = await createEndpoint(ctx, workspaceId, request.body.url, request.body.events);
      const endpoint = await getApiEndpoint(ctx.db, workspaceId, id);
      if (!endpoint) throw new ApiError('not_found', 'No webhook endpoint with that id');
      await writer?.(ctx.db, endpoint);
      return reply.code(201).send({ result: true as const, endpoint, secret });
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Remove a webhook endpoint and its delivery history',
        description: 'Nothing more is sent to it; deleting it again is a 404.',
        tags,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await deleteEndpoint(ctx.db, request.principal().workspaceId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        operationId: 'testWebhookEndpoint',
        summary: 'Send a signed webhook.test event to the endpoint now',
        description:
          'Sent once, at once, whatever events the endpoint takes; the answer is the delivery: `delivered` ' +
          "with the endpoint's HTTP status, or `failed` with what went wrong (the endpoint's status, or why " +
          'it could not be reached). It is listed in its deliveries too.',
        tags,
        params: IdParams,
        response: { 200: ApiTestDelivery, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      delivery: await sendTestEvent(ctx, request.principal().workspaceId, request.params.id),
    }),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "List an endpoint's deliveries, newest first",
        description:
          'Each event sent or to be sent to it: `pending` (being retried), `delivered` or `failed`, how many ' +
          "attempts were made, and the endpoint's last answer: `last_status` (its HTTP status) and " +
          '`last_error` (what went wrong, when it did). Pages follow `next_cursor`: send it back as `cursor`.',
        tags,
        params: IdParams,
        querystring: PageQuery,
        response: { 200: ApiDeliveryList, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await listApiDeliveries(ctx.db, request.principal().workspaceId, request.params.id, request.query)),
    }),
  );
}
