import { Type } from 'typebox';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { answerWriter } from '../idempotency/outcome.js';
import { MESSAGE_EXAMPLE, MessageView } from '../messaging/schemas.js';
import { addNote } from './add-note.js';
import { assignTeamFromApi, changeConversationFromApi } from './api-change-conversation.js';
import { listApiConversationMessages } from './api-conversation-messages.js';
import { apiConversation, listApiConversations, requireConversation } from './api-conversations.js';
import { resumeBot, stopBot } from './bot-handover.js';
import { recordMentions } from './mentions.js';
import {
  ApiAssignBody,
  ApiConversationList,
  ApiConversationQuery,
  ApiConversationResult,
  ApiNoteBody,
  ApiPageQuery,
  CONVERSATION_EXAMPLE,
  NewNoteResult,
} from './schemas.js';

const tags = ['conversations'];
const conversation = CONVERSATION_EXAMPLE;
const ex = {
  one: { result: true, conversation },
  list: { result: true, conversations: [conversation], next_cursor: null },
  note: { result: true, id: 'note_9Vd2Lp', created_at: '2026-11-28T10:16:40.000Z' },
  messages: {
    result: true,
    messages: [MESSAGE_EXAMPLE],
    next_cursor: null,
  },
};
const ID_NOTE = "A conversation's id is its contact's id (one conversation per contact).";
const WRITE_ERRORS = errorResponses(400, 401, 404, 409, 413, 415, 422, 429);

const ApiMessageList = Type.Object({
  result: Type.Literal(true),
  messages: Type.Array(Type.Omit(MessageView, ['result'])),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Send it back as `cursor` for the next page; null on the last page',
  }),
});

/**
 * REST v1: the team inbox for outside bots and AI agents, which work conversations as a teammate
 * does. Changes are made `via` 'api' (the conversation.assigned and .resolved events say so).
 */
export function registerConversationRoutes(app: RestApp): void {
  const { ctx } = app;
  const answer = async (workspaceId: string, id: string) => ({
    result: true as const,
    conversation: await apiConversation(ctx.db, workspaceId, id),
  });

  app.get(
    '/conversations',
    {
      schema: {
        summary: 'List conversations, newest begun first',
        description:
          `${ID_NOTE} Pages follow \`next_cursor\` (null on the last page): send it back as \`cursor\`. ` +
          'The order never changes for a conversation (when it began, then its id), so following the cursor ' +
          'visits every conversation exactly once even while new ones arrive (those come first in a new walk). ' +
          "`status=open` covers open and pending ones. `assignee` is a member's user id (422 if not one of this " +
          "workspace's members) or `unassigned`.",
        operationId: 'listConversations',
        tags,
        querystring: ApiConversationQuery,
        response: { 200: { ...ApiConversationList, examples: [ex.list] }, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await listApiConversations(ctx.db, request.principal().workspaceId, request.query)),
    }),
  );

  app.get(
    '/conversations/:id',
    {
      schema: {
        summary: 'A conversation: its contact, status, assignee, unread count and bot',
        description: `${ID_NOTE} A contact who has never written nor been written to has none (404).`,
        operationId: 'getConversation',
        tags,
        params: IdParams,
        response: {
          200: { ...ApiConversationResult, examples: [ex.one] },
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request) => answer(request.principal().workspaceId, request.params.id),
  );

  app.get(
    '/conversations/:id/messages',
    {
      schema: {
        summary: "A conversation's messages, newest first",
        description:
          'Each message as GET /messages/{id} shows it. Pages follow `next_cursor` as the conversations list does. ' +
          "Answer with POST /messages to the contact's phone.",
        operationId: 'listConversationMessages',
        tags,
        params: IdParams,
        querystring: ApiPageQuery,
        response: {
          200: { ...ApiMessageList, examples: [ex.messages] },
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await listApiConversationMessages(
        ctx.db,
        request.principal().workspaceId,
        request.params.id,
        request.query,
      )),
    }),
  );

  app.post(
    '/conversations/:id/assign',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Give the conversation to a member, or to no one',
        description:
          '`{"member_id": "<user id>"}` gives it to that member (422 at `member_id` if not one of this ' +
          'workspace\'s members); `{"member_id": null}` leaves it to no one; `{"team_id"}` gives it to the team, to ' +
          "its available member (online, not idle, under the team's cap) who waited longest, or, with none, to the " +
          "team's queue with no assignee (422 at `team_id` for a team not of this workspace). Send one field. " +
          'A change announces `conversation.assigned`; giving it to whom it already has changes nothing.',
        operationId: 'assignConversation',
        tags,
        params: IdParams,
        body: ApiAssignBody,
        response: { 200: { ...ApiConversationResult, examples: [ex.one] }, ...WRITE_ERRORS },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      const { member_id, team_id } = request.body;
      if (team_id !== undefined) {
        const conversation = await assignTeamFromApi(ctx, workspaceId, request.params.id, team_id);
        return { result: true as const, conversation };
      }
      const conversation = await changeConversationFromApi(ctx, workspaceId, request.params.id, {
        assignee_id: member_id ?? null,
      });
      return { result: true as const, conversation };
    },
  );

  for (const [verb, state, operationId, summary] of [
    [
      'resolve',
      'resolved',
      'resolveConversation',
      'Resolve the conversation (announces conversation.resolved)',
    ],
    ['reopen', 'open', 'reopenConversation', 'Reopen the conversation'],
    [
      'pending',
      'pending',
      'markConversationPending',
      "Mark the conversation pending: waiting on something, still in the open list (the app's Pending)",
    ],
  ] as const) {
    app.post(
      `/conversations/:id/${verb}`,
      {
        config: { idempotent: true },
        schema: {
          summary,
          operationId,
          description:
            `${ID_NOTE} Its assignee stays. One already ${state} stays so (200, no event). ` +
            'A customer writing to a resolved conversation reopens it by itself.',
          tags,
          params: IdParams,
          response: {
            200: { ...ApiConversationResult, examples: [ex.one] },
            ...errorResponses(401, 404, 409, 422, 429),
          },
        },
      },
      async (request) => {
        const { workspaceId } = request.principal();
        const conversation = await changeConversationFromApi(ctx, workspaceId, request.params.id, { state });
        return { result: true as const, conversation };
      },
    );
  }

  app.post(
    '/conversations/:id/bot/stop',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Take the conversation over from the bot answering it, without replying',
        description:
          `${ID_NOTE} The bot's run ends (status \`stopped\`, announced as \`flow.run.finished\`) and \`bot\` ` +
          'becomes null, as when a teammate clicks "Stop the bot" in the app (a reply through POST /messages ' +
          'stops it too, unless its automation goes on after a teammate replies). With no bot answering, nothing changes (200).',
        operationId: 'stopConversationBot',
        tags,
        params: IdParams,
        response: {
          200: { ...ApiConversationResult, examples: [ex.one] },
          ...errorResponses(401, 404, 409, 422, 429),
        },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      await requireConversation(ctx.db, workspaceId, request.params.id);
      await stopBot(ctx, workspaceId, request.params.id, 'an API key stopped it');
      return answer(workspaceId, request.params.id);
    },
  );

  app.post(
    '/conversations/:id/bot/resume',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Hand the conversation back to the bot that handed it to the team',
        description:
          `${ID_NOTE} A bot whose \`assign\` step waits to be handed the conversation back goes on to its next ` +
          'step and answers again (`bot` shows it), as the app\'s "Hand back to the bot". 409 when no bot waits ' +
          'for it (none handed it over, or it was already handed back).',
        operationId: 'resumeConversationBot',
        tags,
        params: IdParams,
        response: {
          200: { ...ApiConversationResult, examples: [ex.one] },
          ...errorResponses(401, 404, 409, 422, 429),
        },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      await requireConversation(ctx.db, workspaceId, request.params.id);
      await resumeBot(ctx, workspaceId, request.params.id);
      return answer(workspaceId, request.params.id);
    },
  );

  app.post(
    '/conversations/:id/notes',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Add an internal note: seen by the team in the conversation, never sent to the customer',
        description:
          'The app shows its author as "API key <the key\'s name>". `<@usr_…>` in the text mentions a ' +
          'member of the workspace by user id (as `assignee_id` and GET /teams show them): the app shows their name ' +
          'and tells them (and e-mails them, when the server sends e-mail). Any other user id stays plain text.',
        operationId: 'addConversationNote',
        tags,
        params: IdParams,
        body: ApiNoteBody,
        response: { 201: { ...NewNoteResult, examples: [ex.note] }, ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { workspaceId, keyId } = request.principal();
      const write = answerWriter(request, (note: { id: string; created_at: string }) => ({
        status: 201,
        body: { result: true, ...note },
      }));
      const note = await ctx.db.transaction(async (tx) => {
        await requireConversation(tx, workspaceId, request.params.id);
        const added = await addNote(
          tx,
          workspaceId,
          { apiKeyId: keyId },
          request.params.id,
          request.body.text,
        );
        await recordMentions(
          ctx,
          tx,
          workspaceId,
          { apiKeyId: keyId },
          {
            id: added.id,
            contactId: request.params.id,
            text: request.body.text,
          },
        );
        await write?.(tx, added);
        return added;
      });
      ctx.queue?.wake('mail.send');
      return reply.code(201).send({ result: true as const, ...note });
    },
  );
}
