import { Type } from 'typebox';
import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses, PageCursor, PageLimit } from '../../api/schema.js';
import { effectWriter } from '../idempotency/outcome.js';
import { getMessage, messageView } from './get-message.js';
import { listMessages } from './list-messages.js';
import {
  MESSAGE_EXAMPLE,
  MessageStatusSchema,
  MessageView,
  SendMessageBody,
  SendMessageResult,
} from './schemas.js';
import { answerOfMessage, sendMessage } from './send-message.js';

const MessageListQuery = Type.Object(
  {
    status: Type.Optional(MessageStatusSchema),
    direction: Type.Optional(Type.Union([Type.Literal('inbound'), Type.Literal('outbound')])),
    limit: PageLimit,
    cursor: Type.Optional(PageCursor),
  },
  { additionalProperties: false },
);

const MessageList = Type.Object({
  result: Type.Literal(true),
  messages: Type.Array(
    Type.Object({
      ...Type.Omit(MessageView, ['result']).properties,
      contact_id: Type.Union([Type.String(), Type.Null()]),
      contact_name: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Send it back as `cursor` for the next page; null on the last page',
  }),
});

const LIST_EXAMPLE = {
  result: true,
  messages: [
    {
      ...MESSAGE_EXAMPLE,
      contact_id: 'ct_2bXk9q',
      contact_name: 'Asha',
    },
  ],
  next_cursor: 'WyIxNzY0MzI0OTAyMDAwMDAwIiwibXNnXzdIcTFaZSJd',
};

export function registerMessageRoutes(app: RestApp): void {
  app.post(
    '/messages',
    {
      // The answer waits for the network, after the message is stored: the key keeps the message's id,
      // and a retry after a crash answers with the message as it stands.
      config: {
        idempotent: {
          replay: async (workspaceId, id) => ({
            status: 201,
            body: { result: true, ...(await answerOfMessage(app.ctx, workspaceId, id)) },
          }),
        },
      },
      schema: {
        summary: 'Send a template, free-text, media, interactive, location or reaction message',
        description:
          'Checks in this order: connected number (409; 409 `number_paused` while Meta refuses to send from it), approved template (404), body values (422), ' +
          '24-hour window for text (409), a MARKETING template to a contact who opted out (409 `contact_opted_out`), plan (402). 201 carries the wamid, or status `queued` when the network is slow. ' +
          'Extensions for templates with more than a body (see GET /templates for what each needs): ' +
          '`template.header` (a TEXT value, {link} or {id} media, a {latitude, longitude} location), ' +
          '`template.body` as an object keyed by parameter name for NAMED templates, and `template.buttons` ' +
          '(`{index, payload | text | coupon_code}`). A value missing, extra or of the wrong kind answers 422 ' +
          'naming it in `details[].field` (`template.header`, `template.body.first_name`, `template.buttons[1]`); ' +
          'a 132000/132012 from the network (the template changed on its side) answers 422 naming `template`; ' +
          '132001, 132015 (paused) and 132016 (disabled) answer 404; each refusal by the network carries `error.message_id`, the failed message. ' +
          '`template.body` values may also be Meta-shaped `currency`, `date_time` or `text` parameters (extension). ' +
          'Extension, inside the 24-hour window only (409 outside it): `type` image, video, audio, document, sticker, ' +
          "interactive, location or reaction with the field of that name in Meta's shape.",
        operationId: 'sendMessage',
        tags: ['messages'],
        body: {
          ...SendMessageBody,
          examples: [
            {
              to: '+919876543210',
              type: 'template',
              template: { name: 'order_shipped', language: 'en', body: ['Asha', 'ORD-1042'] },
              callback_data: 'order-1042',
            },
          ],
        },
        response: {
          201: {
            ...SendMessageResult,
            examples: [
              {
                result: true,
                id: 'msg_5rT2kq',
                wamid: 'wamid.HBgMOTE5ODc2NTQzMjEwFQIAERgS',
                status: 'accepted',
              },
            ],
          },
          ...errorResponses(400, 401, 402, 404, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const result = await sendMessage(app.ctx, request.principal(), request.body, {
        record: effectWriter(request),
      });
      return reply.code(201).send({ result: true, ...result });
    },
  );

  app.get(
    '/messages',
    {
      schema: {
        summary: 'List messages, newest first',
        description:
          "Extension. The workspace's message log, as the app's Messages list: each message as GET /messages/{id} " +
          "shows it, with its contact's id and name. `status` and `direction` narrow it. Pages follow `next_cursor` " +
          '(null on the last page): send it back as `cursor`; the order (when a message was sent or received, then ' +
          'its id) never changes, so a walk sees each message once while new ones arrive. 422 for a cursor that is ' +
          'not one this list gave.',
        operationId: 'listMessages',
        tags: ['messages'],
        querystring: MessageListQuery,
        response: { 200: { ...MessageList, examples: [LIST_EXAMPLE] }, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const { cursor, ...filters } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      const page = await listMessages(app.ctx.db, request.principal().workspaceId, { ...filters, after });
      return {
        result: true as const,
        messages: page.messages.map((m) => ({
          ...messageView(m),
          contact_id: m.contact_id,
          contact_name: m.contact_name,
        })),
        next_cursor: page.next && encodeCursor(page.next),
      };
    },
  );

  app.get(
    '/messages/:id',
    {
      schema: {
        summary: 'The current state of a message',
        description:
          'Extension: `text`, `content` and, for an inbound message, `context` (replied-to, forwarded, product asked about) and `referral` (click-to-WhatsApp ad).',
        operationId: 'getMessage',
        tags: ['messages'],
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: {
          200: {
            ...MessageView,
            examples: [
              {
                result: true,
                id: 'msg_5rT2kq',
                direction: 'outbound',
                to: '919876543210',
                type: 'template',
                wamid: 'wamid.HBgMOTE5ODc2NTQzMjEwFQIAERgS',
                status: 'delivered',
                callback_data: 'order-1042',
                error: null,
                text: 'Hi Asha, your order ORD-1042 has shipped.',
                content: null,
                context: null,
                referral: null,
                created_at: '2026-11-28T10:15:02.000Z',
                updated_at: '2026-11-28T10:15:09.000Z',
              },
            ],
          },
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request) => {
      const m = await getMessage(app.ctx.db, request.principal().workspaceId, request.params.id);
      return { result: true as const, ...messageView(m) };
    },
  );
}
