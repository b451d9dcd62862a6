import { type Static, Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { Text } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { MediaKindSchema } from '../media/media-types.js';
import { numberOfWorkspace } from '../messaging/connected-numbers.js';
import { markConversationRead } from '../messaging/mark-read.js';
import { type SendMessageBody, TemplateRef } from '../messaging/schemas.js';
import { sendMessage } from '../messaging/send-message.js';
import { conversationContact, conversationMessages } from './conversation.js';
import { ConversationResult } from './conversation-schemas.js';
import { conversationState } from './conversation-state.js';
import { listNotes } from './list-notes.js';
import { markTeamRead } from './mark-team-read.js';

const Attachment = Type.Object(
  {
    kind: MediaKindSchema,
    id: Text({ minLength: 1, maxLength: 128, description: 'What POST /media answered' }),
    caption: Type.Optional(Text({ minLength: 1, maxLength: 1024 })),
    filename: Type.Optional(Text({ minLength: 1, maxLength: 240 })),
  },
  { additionalProperties: false },
);

const ReplyBody = Type.Object(
  {
    text: Type.Optional(Text({ minLength: 1, maxLength: 4096 })),
    template: Type.Optional(TemplateRef),
    attachment: Type.Optional(Attachment),
  },
  { additionalProperties: false },
);

type Reply = Static<typeof ReplyBody>;

/** The REST API's message for a reply: exactly one of text, template or attachment. */
function replyMessage(to: string, { text, template, attachment }: Reply): SendMessageBody {
  const given = [text, template, attachment].filter((x) => x !== undefined).length;
  if (given !== 1) throw ApiError.validation('text', 'send either a text, a template or an attachment');
  if (text !== undefined) return { to, type: 'text', text };
  if (template !== undefined) return { to, type: 'template', template };
  const { kind, id, caption, filename } = attachment!;
  const media = {
    id,
    ...(caption && kind !== 'audio' && kind !== 'sticker' ? { caption } : {}),
    ...(filename && kind === 'document' ? { filename } : {}),
  };
  // The REST API's own shape, one media field named by its kind (its schema checks each kind's fields).
  return { to, type: kind, [kind]: media } as SendMessageBody;
}

/** A conversation as the inbox shows it, its read marks, and replies sent through the REST API's logic. */
export function registerAppConversationRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get(
    '/conversations/:id',
    { schema: { params: IdParams, response: { 200: ConversationResult } } },
    async (request) => {
      const s = request.session();
      const contact = await conversationContact(ctx.db, s.workspaceId, request.params.id);
      const messages = await conversationMessages(ctx.db, s.workspaceId, contact.id);
      const connected = (await numberOfWorkspace(ctx, ctx.db, s.workspaceId)) !== null;
      return {
        result: true as const,
        contact,
        conversation: await conversationState(ctx.db, s.workspaceId, contact.id),
        messages,
        notes: await listNotes(ctx.db, s.workspaceId, contact.id),
        number_connected: connected,
        window: { open: contact.window_open, closes_at: contact.window_closes_at },
      };
    },
  );

  // The page calls this when it shows a conversation's newest inbound message; the network is told
  // later, by a job, and only when the workspace's setting says so.
  app.post('/conversations/:id/read', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    const contact = await conversationContact(ctx.db, s.workspaceId, request.params.id);
    await markTeamRead(ctx.db, s.workspaceId, contact.id);
    return { result: true, marked: await markConversationRead(ctx, s.workspaceId, contact.id) };
  });

  app.post(
    '/conversations/:id/messages',
    { schema: { params: IdParams, body: ReplyBody } },
    async (request, reply) => {
      const s = request.session();
      const contact = await conversationContact(ctx.db, s.workspaceId, request.params.id);
      const message = replyMessage(`+${contact.phone}`, request.body);
      const principal = {
        keyId: `session:${s.userId}`,
        workspaceId: s.workspaceId,
        defaultCountryCode: null,
      };
      const result = await sendMessage(ctx, principal, message, { sentBy: s.userId });
      return reply.code(201).send({ result: true, ...result });
    },
  );
}
