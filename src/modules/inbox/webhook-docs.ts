import { Type } from 'typebox';
import { ApiConversation } from './schemas.js';

const ChangedBy = Type.Object(
  {
    type: Type.Union(
      [Type.Literal('member'), Type.Literal('bot'), Type.Literal('api'), Type.Literal('routing')],
      {
        description: "A teammate in the app, a bot's step, an API key (REST v1) or routing (auto-assignment)",
      },
    ),
    member_id: Type.Union([Type.String(), Type.Null()], { description: 'The teammate, when one did it' }),
  },
  { description: 'Who made the change' },
);

const event = (type: string, summary: string, data: ReturnType<typeof Type.Object>) => ({
  post: {
    summary,
    description:
      'POSTed to each endpoint subscribed to it (Settings › Developer), signed per Standard Webhooks ' +
      '(`webhook-id`, `webhook-timestamp`, `webhook-signature`), retried with backoff until it answers 2xx.',
    requestBody: {
      content: {
        'application/json': {
          schema: Type.Object({
            type: Type.Literal(type),
            timestamp: Type.String({ format: 'date-time' }),
            data,
          }),
        },
      },
    },
    responses: { '2XX': { description: 'Received' } },
  },
});

/** The conversation events, for the OpenAPI document's `webhooks`. */
export const conversationWebhooks = {
  'conversation.created': event(
    'conversation.created',
    "A contact's first message: their conversation began",
    Type.Object({
      ...ApiConversation.properties,
      message_id: Type.String({ description: 'The first message' }),
    }),
  ),
  'conversation.assigned': event(
    'conversation.assigned',
    'The conversation was given to someone else, or to no one (`assignee` null)',
    Type.Object({ ...ApiConversation.properties, changed_by: ChangedBy }),
  ),
  'conversation.resolved': event(
    'conversation.resolved',
    'The conversation was resolved',
    Type.Object({ ...ApiConversation.properties, changed_by: ChangedBy }),
  ),
};
