import { Type } from 'typebox';
import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { numberOfWorkspace } from './connected-numbers.js';
import { conversationContact, conversationMessages } from './conversation.js';
import { listMessages } from './list-messages.js';
import { markConversationRead } from './mark-read.js';
import { TemplateRef } from './schemas.js';
import { sendMessage } from './send-message.js';

const ListQuery = Type.Object({
  status: Type.Optional(Text({ maxLength: 20 })),
  direction: Type.Optional(Type.Union([Type.Literal('inbound'), Type.Literal('outbound')])),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});

const ReplyBody = Type.Object(
  {
    text: Type.Optional(Text({ minLength: 1, maxLength: 4096 })),
    template: Type.Optional(TemplateRef),
  },
  { additionalProperties: false },
);

/** Messages: the log, one conversation per contact, and replies sent through the REST API's logic. */
export function registerAppMessageRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/messages', { schema: { querystring: ListQuery } }, async (request) => {
    const { status, direction, limit, offset } = request.query;
    const options = { status, direction, limit, offset };
    const page = await listMessages(ctx.db, request.session().workspaceId, options);
    return { result: true, messages: page.messages, has_next_page: page.hasNextPage, limit, offset };
  });

  app.get('/conversations/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    const contact = await conversationContact(ctx.db, s.workspaceId, request.params.id);
    const messages = await conversationMessages(ctx.db, s.workspaceId, contact.id);
    const connected = (await numberOfWorkspace(ctx, ctx.db, s.workspaceId)) !== null;
    return {
      result: true,
      contact,
      messages,
      number_connected: connected,
      window: { open: contact.window_open, closes_at: contact.window_closes_at },
    };
  });

  // The page calls this when it shows a conversation's newest inbound message; the network is told
  // later, by a job, and only when the workspace's setting says so.
  app.post('/conversations/:id/read', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    const contact = await conversationContact(ctx.db, s.workspaceId, request.params.id);
    return { result: true, marked: await markConversationRead(ctx, s.workspaceId, contact.id) };
  });

  app.post(
    '/conversations/:id/messages',
    { schema: { params: IdParams, body: ReplyBody } },
    async (request, reply) => {
      const s = request.session();
      const contact = await conversationContact(ctx.db, s.workspaceId, request.params.id);
      const { text, template } = request.body;
      if ((text === undefined) === (template === undefined)) {
        throw ApiError.validation('text', 'send either a text or a template');
      }
      const principal = {
        keyId: `session:${s.userId}`,
        workspaceId: s.workspaceId,
        defaultCountryCode: null,
      };
      const result = await sendMessage(ctx, principal, {
        to: `+${contact.phone}`,
        ...(text === undefined ? { type: 'template' as const, template } : { type: 'text' as const, text }),
      });
      return reply.code(201).send({ result: true, ...result });
    },
  );
}
