import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import type { Queryable } from '../../db/db.js';
import { IdParams } from '../accounts/schemas.js';
import { keyActor } from '../audit/record-audit.js';
import { answerWriter } from '../idempotency/outcome.js';
import { conversationContact } from './conversation.js';
import { deleteQuickReply } from './delete-quick-reply.js';
import { listQuickReplies } from './list-quick-replies.js';
import { createQuickReply, updateQuickReply } from './save-quick-reply.js';
import { QuickRepliesQuery, type QuickReply, QuickReplyBody, QuickReplyListResult } from './schemas.js';

const tags = ['quick-replies'];
const NOT_FOUND = 'No quick reply with that id';

const example = {
  id: 'qr_6h2j8k4l',
  title: 'Opening hours',
  text: "Hi {{name}}, we're open Monday to Friday from 09:00 to 17:30.",
  created_at: '2026-10-02T14:20:00.000Z',
  updated_at: '2026-11-20T10:05:31.000Z',
};
const body = { title: example.title, text: example.text };

const QuickReplyResult = Type.Object(
  { result: Type.Literal(true), quick_reply: QuickReplyListResult.properties.quick_replies.items },
  { examples: [{ result: true, quick_reply: example }] },
);

/** The quick reply `id` as the list shows it; null when it is not the workspace's. */
async function quickReplyOf(db: Queryable, workspaceId: string, id: string): Promise<QuickReply | null> {
  return (await listQuickReplies(db, workspaceId)).find((r) => r.id === id) ?? null;
}

/** REST v1: the team's quick replies (the inbox's saved answers), as the app keeps them. */
export function registerQuickReplyRoutes(app: RestApp): void {
  const { db } = app.ctx;

  app.get(
    '/quick-replies',
    {
      schema: {
        operationId: 'listQuickReplies',
        summary: 'List quick replies by title',
        description:
          'A workspace keeps at most 200: the list is one page. With `contact_id`, each also carries `filled`: ' +
          "its text with that contact's values (404 for a contact that is not this workspace's).",
        tags,
        querystring: QuickRepliesQuery,
        response: {
          200: {
            ...QuickReplyListResult,
            examples: [
              {
                result: true,
                quick_replies: [
                  { ...example, filled: "Hi Asha, we're open Monday to Friday from 09:00 to 17:30." },
                ],
              },
            ],
          },
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      const id = request.query.contact_id;
      const contact = id === undefined ? undefined : await conversationContact(db, workspaceId, id);
      return { result: true as const, quick_replies: await listQuickReplies(db, workspaceId, contact) };
    },
  );

  const createdAnswer = (made: QuickReply) => ({
    status: 201 as const,
    body: { result: true as const, quick_reply: made },
  });
  app.post(
    '/quick-replies',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'createQuickReply',
        summary: 'Create a quick reply',
        description:
          'The text may use {{name}}, {{first_name}}, {{phone}} and {{email}}, filled from the contact; an unknown one, a title in ' +
          'use or a 201st quick reply is a 422 naming the field.',
        tags,
        body: { ...QuickReplyBody, examples: [body] },
        response: { 201: QuickReplyResult, ...errorResponses(400, 401, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const principal = request.principal();
      const { workspaceId } = principal;
      const writer = answerWriter(request, createdAnswer);
      const made = await db.transaction(async (tx) => {
        const { id } = await createQuickReply(tx, workspaceId, request.body, keyActor(principal));
        const row = (await quickReplyOf(tx, workspaceId, id))!;
        await writer?.(tx, row);
        return row;
      });
      const answer = createdAnswer(made);
      return reply.code(answer.status).send(answer.body);
    },
  );

  app.put(
    '/quick-replies/:id',
    {
      schema: {
        operationId: 'updateQuickReply',
        summary: "Replace a quick reply's title and text",
        tags,
        params: IdParams,
        body: { ...QuickReplyBody, examples: [body] },
        response: { 200: QuickReplyResult, ...errorResponses(400, 401, 404, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const principal = request.principal();
      const { workspaceId } = principal;
      await updateQuickReply(db, workspaceId, request.params.id, request.body, keyActor(principal));
      const row = await quickReplyOf(db, workspaceId, request.params.id);
      // Deleted in the moment between: gone all the same.
      if (!row) throw new ApiError('not_found', NOT_FOUND);
      return { result: true as const, quick_reply: row };
    },
  );

  app.delete(
    '/quick-replies/:id',
    {
      schema: {
        operationId: 'deleteQuickReply',
        summary: 'Delete a quick reply',
        tags,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const principal = request.principal();
      await deleteQuickReply(db, principal.workspaceId, request.params.id, keyActor(principal));
      return reply.code(204).send(null);
    },
  );
}
