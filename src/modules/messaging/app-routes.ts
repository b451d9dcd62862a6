import { Type } from 'typebox';
import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { numberOfWorkspace } from './connected-numbers.js';
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
    template: Type.Optional(
      Type.Object(
        {
          name: Text({ minLength: 1, maxLength: 512 }),
          language: Text({ minLength: 2, maxLength: 15 }),
          body: Type.Optional(Type.Array(Text({ maxLength: 1024 }), { maxItems: 100 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const MESSAGE_COLUMNS = `m.id, m.direction, m.contact_id, m.phone, m.type, m.template_name, m.template_language,
  m.template_values, m.text, m.status, m.error_code, m.error_reason, m.created_at, m.updated_at`;

/** Messages: the log, one conversation per contact, and replies sent through the REST API's logic. */
export function registerAppMessageRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/messages', { schema: { querystring: ListQuery } }, async (request) => {
    const s = request.session();
    const { status, direction, limit, offset } = request.query;
    const { rows } = await ctx.db.query(
      `SELECT ${MESSAGE_COLUMNS}, c.name AS contact_name FROM messages m
       LEFT JOIN contacts c ON c.workspace_id = m.workspace_id AND c.id = m.contact_id
       WHERE m.workspace_id = $1 AND ($2::text IS NULL OR m.status = $2) AND ($3::text IS NULL OR m.direction = $3)
       ORDER BY m.created_at DESC, m.id DESC LIMIT $4 OFFSET $5`,
      [s.workspaceId, status ?? null, direction ?? null, limit + 1, offset],
    );
    return {
      result: true,
      messages: rows.slice(0, limit),
      has_next_page: rows.length > limit,
      limit,
      offset,
    };
  });

  app.get('/conversations/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    const contact = await contactOf(app, s.workspaceId, request.params.id);
    const { rows } = await ctx.db.query(
      `SELECT * FROM (SELECT ${MESSAGE_COLUMNS}, t.body AS template_body FROM messages m
         LEFT JOIN templates t ON t.workspace_id = m.workspace_id AND t.name = m.template_name
           AND t.language = m.template_language
         WHERE m.workspace_id = $1 AND m.contact_id = $2
         ORDER BY m.created_at DESC LIMIT 200) AS recent ORDER BY created_at, id`,
      [s.workspaceId, contact.id],
    );
    const connected = (await numberOfWorkspace(ctx, ctx.db, s.workspaceId)) !== null;
    return {
      result: true,
      contact,
      messages: rows,
      number_connected: connected,
      window: { open: contact.window_open, closes_at: contact.window_closes_at },
    };
  });

  app.post(
    '/conversations/:id/messages',
    { schema: { params: IdParams, body: ReplyBody } },
    async (request, reply) => {
      const s = request.session();
      const contact = await contactOf(app, s.workspaceId, request.params.id);
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

async function contactOf(app: RestApp, workspaceId: string, id: string) {
  const { rows } = await app.ctx.db.query<{
    id: string;
    phone: string;
    name: string | null;
    email: string | null;
    window_open: boolean;
    window_closes_at: Date | null;
  }>(
    `SELECT id, phone, name, email, COALESCE(last_inbound_at > now() - interval '24 hours', false) AS window_open,
       last_inbound_at + interval '24 hours' AS window_closes_at
     FROM contacts WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No contact with that id');
  return rows[0];
}
