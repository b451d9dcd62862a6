import { Type } from 'typebox';
import { MaybeTimestamp, Timestamp } from '../../api/schema.js';

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
