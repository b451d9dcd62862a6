import { Type } from 'typebox';
import { webhookOperation } from '../webhooks/webhook-operation.js';
import { ApiConversation, CONVERSATION_EXAMPLE } from './schemas.js';

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

const byMember = { changed_by: { type: 'member', member_id: 'usr_7Qm2' } };

/** The conversation events, for the OpenAPI document's `webhooks`. */
export const conversationWebhooks = {
  'conversation.created': webhookOperation(
    'conversation.created',
    'conversationCreatedWebhook',
    "A contact's first message: their conversation began",
    Type.Object({
      ...ApiConversation.properties,
      message_id: Type.String({ description: 'The first message' }),
    }),
    { ...CONVERSATION_EXAMPLE, assignee: null, team: null, message_id: 'msg_7Hq1Ze' },
  ),
  'conversation.assigned': webhookOperation(
    'conversation.assigned',
    'conversationAssignedWebhook',
    'The conversation was given to someone else, or to no one (`assignee` null)',
    Type.Object({ ...ApiConversation.properties, changed_by: ChangedBy }),
    { ...CONVERSATION_EXAMPLE, ...byMember },
  ),
  'conversation.resolved': webhookOperation(
    'conversation.resolved',
    'conversationResolvedWebhook',
    'The conversation was resolved',
    Type.Object({ ...ApiConversation.properties, changed_by: ChangedBy }),
    { ...CONVERSATION_EXAMPLE, status: 'resolved', ...byMember },
  ),
};
