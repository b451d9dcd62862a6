import type { RestApp } from '../../api/rest-app.js';
import { Done } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { userActor } from '../audit/record-audit.js';
import { addNote } from './add-note.js';
import { resumeBot, stopBot } from './bot-handover.js';
import { changeConversation } from './change-conversation.js';
import { conversationContact } from './conversation.js';
import { conversationState } from './conversation-state.js';
import { deleteQuickReply } from './delete-quick-reply.js';
import { inboxCounts } from './inbox-counts.js';
import { listConversations } from './list-conversations.js';
import { listQuickReplies } from './list-quick-replies.js';
import { recordMentions } from './mentions.js';
import { createQuickReply, updateQuickReply } from './save-quick-reply.js';
import {
  ConversationChange,
  ConversationStateResult,
  InboxQuery,
  InboxResult,
  NewNoteResult,
  NewQuickReplyResult,
  NoteBody,
  QuickRepliesQuery,
  QuickReplyBody,
  QuickReplyListResult,
  UnreadResult,
} from './schemas.js';
import { unreadConversations } from './unread-count.js';

/** The team inbox: conversations (state, assignee), internal notes and quick replies. */
export function registerAppInboxRoutes(app: RestApp): void {
  const { db } = app.ctx;

  app.get(
    '/inbox',
    { schema: { querystring: InboxQuery, response: { 200: InboxResult } } },
    async (request) => {
      const s = request.session();
      const { filter = 'all', q, label, limit, cursor } = request.query;
      const page = await listConversations(db, s.workspaceId, {
        userId: s.userId,
        filter,
        search: q,
        label,
        limit,
        cursor,
      });
      return {
        result: true as const,
        ...page,
        unread_conversations: await unreadConversations(db, s.workspaceId),
        ...(cursor ? { counts: null, wakes_at: null } : await inboxCounts(db, s.workspaceId, s.userId)),
        limit,
      };
    },
  );

  app.get('/inbox/unread', { schema: { response: { 200: UnreadResult } } }, async (request) => ({
    result: true as const,
    unread_conversations: await unreadConversations(db, request.session().workspaceId),
  }));

  app.patch(
    '/conversations/:id',
    { schema: { params: IdParams, body: ConversationChange, response: { 200: ConversationStateResult } } },
    async (request) => {
      const s = request.session();
      await changeConversation(app.ctx, s, request.params.id, request.body);
      return {
        result: true as const,
        conversation: await conversationState(db, s.workspaceId, request.params.id),
      };
    },
  );

  // Taking over from a bot without replying (a reply stops it too).
  app.post(
    '/conversations/:id/bot/stop',
    { schema: { params: IdParams, response: { 200: ConversationStateResult } } },
    async (request) => {
      const { workspaceId } = request.session();
      const contact = await conversationContact(db, workspaceId, request.params.id);
      await stopBot(app.ctx, workspaceId, contact.id, 'a teammate stopped it');
      return { result: true as const, conversation: await conversationState(db, workspaceId, contact.id) };
    },
  );

  app.post(
    '/conversations/:id/bot/resume',
    { schema: { params: IdParams, response: { 200: ConversationStateResult } } },
    async (request) => {
      const { workspaceId } = request.session();
      const contact = await conversationContact(db, workspaceId, request.params.id);
      await resumeBot(app.ctx, workspaceId, contact.id);
      return { result: true as const, conversation: await conversationState(db, workspaceId, contact.id) };
    },
  );

  app.post(
    '/conversations/:id/notes',
    { schema: { params: IdParams, body: NoteBody, response: { 201: NewNoteResult } } },
    async (request, reply) => {
      const s = request.session();
      const { text } = request.body;
      const note = await db.transaction(async (tx) => {
        const added = await addNote(tx, s.workspaceId, s, request.params.id, text);
        await recordMentions(app.ctx, tx, s.workspaceId, s, {
          id: added.id,
          contactId: request.params.id,
          text,
        });
        return added;
      });
      app.ctx.queue?.wake('mail.send');
      return reply.code(201).send({ result: true as const, ...note });
    },
  );

  app.get(
    '/quick-replies',
    { schema: { querystring: QuickRepliesQuery, response: { 200: QuickReplyListResult } } },
    async (request) => {
      const { workspaceId } = request.session();
      const id = request.query.contact_id;
      const contact = id === undefined ? undefined : await conversationContact(db, workspaceId, id);
      return { result: true as const, quick_replies: await listQuickReplies(db, workspaceId, contact) };
    },
  );

  app.post(
    '/quick-replies',
    { schema: { body: QuickReplyBody, response: { 201: NewQuickReplyResult } } },
    async (request, reply) => {
      const s = request.session();
      const created = await db.transaction((tx) =>
        createQuickReply(tx, s.workspaceId, request.body, userActor(s)),
      );
      return reply.code(201).send({ result: true as const, ...created });
    },
  );

  app.put(
    '/quick-replies/:id',
    { schema: { params: IdParams, body: QuickReplyBody, response: { 200: Done } } },
    async (request) => {
      const s = request.session();
      await updateQuickReply(db, s.workspaceId, request.params.id, request.body, userActor(s));
      return { result: true as const };
    },
  );

  app.delete(
    '/quick-replies/:id',
    { schema: { params: IdParams, response: { 200: Done } } },
    async (request) => {
      const s = request.session();
      await deleteQuickReply(db, s.workspaceId, request.params.id, userActor(s));
      return { result: true as const };
    },
  );
}
