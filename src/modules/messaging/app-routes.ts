import { Type } from 'typebox';
import type { RestApp } from '../../api/rest-app.js';
import { Text } from '../../api/schema.js';
import { listMessages } from './list-messages.js';

const ListQuery = Type.Object({
  status: Type.Optional(Text({ maxLength: 20 })),
  direction: Type.Optional(Type.Union([Type.Literal('inbound'), Type.Literal('outbound')])),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});

/** Messages: the log. A conversation's routes are the inbox's (inbox/conversation-app-routes.ts). */
export function registerAppMessageRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/messages', { schema: { querystring: ListQuery } }, async (request) => {
    const { status, direction, limit, offset } = request.query;
    const options = { status, direction, limit, offset };
    const page = await listMessages(ctx.db, request.session().workspaceId, options);
    return { result: true, messages: page.messages, has_next_page: page.hasNextPage, limit, offset };
  });
}
