import { Type } from 'typebox';
import { MaybeTimestamp, PageCursor, PageLimit, Text, Timestamp } from '../../api/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { WEBHOOK_EVENTS } from './endpoints.js';

/** Settings › Developer › Webhooks: the endpoints with their failed deliveries, and the events to choose from. */
export const EndpointListResult = Type.Object({
  result: Type.Literal(true),
  endpoints: Type.Array(
    Type.Object({
      id: Type.String(),
      url: Type.String(),
      events: Type.Array(Type.String()),
      enabled: Type.Boolean(),
      created_at: Timestamp,
      failed: Type.Integer({ minimum: 0 }),
    }),
  ),
  events: Type.Array(Type.String()),
});

export const Delivery = Type.Object({
  id: Type.String(),
  event_type: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer({ minimum: 0 }),
  last_status: Type.Union([Type.Integer(), Type.Null()], { description: "The endpoint's HTTP status" }),
  last_error: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  delivered_at: MaybeTimestamp,
});

export const DeliveryListResult = Type.Object({
  result: Type.Literal(true),
  deliveries: Type.Array(Delivery),
});

/** Answered once, when the endpoint is added: the signing secret is not shown again. */
export const NewEndpointResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String(),
  secret: Type.String({ description: 'Standard Webhooks signing secret (whsec_...)' }),
});

/** The outcome of one test delivery, sent at once. */
export const TestDeliveryResult = Type.Object({
  result: Type.Literal(true),
  delivery: Type.Pick(Delivery, ['id', 'status', 'last_status', 'last_error']),
});

/** A new endpoint (the web app's and REST v1's): its address and the events it takes (all when absent). */
export const EndpointBody = Type.Object(
  {
    url: Text({
      minLength: 1,
      maxLength: FIELD_LIMITS.webhookUrl,
      description: 'Where events are posted: https:// (or http://), not a private or local address',
    }),
    events: Type.Optional(
      Type.Array(Text({ maxLength: 64 }), {
        minItems: 1,
        maxItems: 20,
        description: `Which events it takes; every one when absent: ${WEBHOOK_EVENTS.join(', ')}`,
      }),
    ),
  },
  { additionalProperties: false },
);

const ENDPOINT_EXAMPLE = {
  id: 'we_7Hc2Lm9QwX4tRb1ZkP0s',
  url: 'https://example.com/hooks/parley',
  events: ['message.received', 'lead.created'],
  enabled: true,
  created_at: '2026-11-02T09:15:00.000Z',
  failed: 0,
};
const DELIVERY_EXAMPLE = {
  id: 'evt_3Nf8Yq1VbK6pWc2Jd9Ta_we_7Hc2Lm9QwX4tRb1ZkP0s',
  event_type: 'message.received',
  status: 'delivered',
  attempts: 1,
  last_status: 200,
  last_error: null,
  created_at: '2026-11-02T09:20:31.000Z',
  delivered_at: '2026-11-02T09:20:31.000Z',
};
const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'Send it back as `cursor` for the next page; null on the last page',
});

/** REST v1: a page of endpoints (never their secrets). */
export const ApiEndpointList = Type.Object(
  {
    result: Type.Literal(true),
    endpoints: EndpointListResult.properties.endpoints,
    next_cursor: NextCursor,
  },
  { examples: [{ result: true, endpoints: [ENDPOINT_EXAMPLE], next_cursor: null }] },
);

/** REST v1: a new endpoint, with its signing secret in the first answer only. */
export const ApiNewEndpoint = Type.Object(
  {
    result: Type.Literal(true),
    endpoint: EndpointListResult.properties.endpoints.items,
    secret: Type.Optional(
      Type.String({
        description:
          'Standard Webhooks signing secret (whsec_...), shown in this answer only; a replay of the request ' +
          '(Idempotent-Replayed: true) leaves it out',
      }),
    ),
  },
  {
    examples: [
      { result: true, endpoint: ENDPOINT_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    ],
  },
);

export const ApiDeliveryList = Type.Object(
  { result: Type.Literal(true), deliveries: Type.Array(Delivery), next_cursor: NextCursor },
  { examples: [{ result: true, deliveries: [DELIVERY_EXAMPLE], next_cursor: null }] },
);

export const ApiTestDelivery = Type.Object(
  { ...TestDeliveryResult.properties },
  {
    examples: [
      {
        result: true,
        delivery: { id: DELIVERY_EXAMPLE.id, status: 'delivered', last_status: 200, last_error: null },
      },
    ],
  },
);

export const PageQuery = Type.Object({
  limit: PageLimit,
  cursor: Type.Optional(PageCursor),
});
