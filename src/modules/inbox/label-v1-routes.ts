import { Type } from 'typebox';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { answerWriter } from '../idempotency/outcome.js';
import { apiConversation } from './api-conversations.js';
import { bulkChange } from './bulk.js';
import {
  BulkBody,
  BulkResult,
  ConversationLabelBody,
  ConversationLabelParams,
  type Label,
  LabelBody,
  LabelListResult,
  LabelPatch,
  LabelResult,
  SnoozeBody,
} from './label-schemas.js';
import { createLabel, deleteLabel, labelConversation, listLabels, updateLabel } from './labels.js';
import { ApiConversationResult, CONVERSATION_EXAMPLE } from './schemas.js';
import { snoozeConversation } from './snooze.js';

const tags = ['labels'];
const conversationTags = ['conversations'];
const label: Label = {
  id: 'lbl_8Kp2',
  name: 'VIP',
  colour: 'purple',
  conversations: 12,
  created_at: '2026-11-20T09:30:00.000Z',
};
const one = { result: true, conversation: CONVERSATION_EXAMPLE };
const WRITE_ERRORS = [400, 401, 404, 413, 415, 422, 429] as const;
const COLOURS =
  'Colours are names of the palette (grey, red, orange, yellow, green, teal, blue, purple, pink; grey unless given). ' +
  'A name in use, in any case, is a 422 at `name`.';

/** REST v1: labels and what carries them, snooze, and one action on many conversations. */
export function registerLabelRoutes(app: RestApp): void {
  const { ctx } = app;
  const { db } = ctx;
  const answer = async (workspaceId: string, id: string) => ({
    result: true as const,
    conversation: await apiConversation(db, workspaceId, id),
  });

  app.get(
    '/labels',
    {
      schema: {
        operationId: 'listLabels',
        summary: "List the workspace's labels by name, each with how many conversations carry it",
        description: 'A workspace has at most 200 labels: the list is one page.',
        tags,
        response: {
          200: { ...LabelListResult, examples: [{ result: true, labels: [label] }] },
          ...errorResponses(401, 429),
        },
      },
    },
    async (request) => ({
      result: true as const,
      labels: await listLabels(db, request.principal().workspaceId),
    }),
  );

  const made = (created: Label) => ({
    status: 201 as const,
    body: { result: true as const, label: created },
  });
  app.post(
    '/labels',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'createLabel',
        summary: 'Create a label',
        description: `${COLOURS} A 201st label is a 409.`,
        tags,
        body: LabelBody,
        response: {
          201: { ...LabelResult, examples: [{ result: true, label: { ...label, conversations: 0 } }] },
          ...errorResponses(400, 401, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const write = answerWriter(request, made);
      const created = await db.transaction(async (tx) => {
        const x = await createLabel(tx, request.principal().workspaceId, request.body);
        await write?.(tx, x);
        return x;
      });
      return reply.code(201).send(made(created).body);
    },
  );

  app.patch(
    '/labels/:id',
    {
      schema: {
        operationId: 'updateLabel',
        summary: 'Rename or recolour a label',
        description: COLOURS,
        tags,
        params: IdParams,
        body: LabelPatch,
        response: {
          200: { ...LabelResult, examples: [{ result: true, label: { ...label, colour: 'red' } }] },
          ...errorResponses(...WRITE_ERRORS),
        },
      },
    },
    async (request) => ({
      result: true as const,
      label: await updateLabel(db, request.principal().workspaceId, request.params.id, request.body),
    }),
  );

  app.delete(
    '/labels/:id',
    {
      schema: {
        operationId: 'deleteLabel',
        summary: 'Delete a label: it comes off every conversation',
        tags,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await deleteLabel(db, request.principal().workspaceId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/conversations/:id/labels',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'labelConversation',
        summary: 'Put a label on the conversation',
        description:
          'A label it carries already stays (200). 422 at `label_id` for a label not of this workspace.',
        tags: conversationTags,
        params: IdParams,
        body: ConversationLabelBody,
        response: { 200: { ...ApiConversationResult, examples: [one] }, ...errorResponses(...WRITE_ERRORS) },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      await labelConversation(db, workspaceId, request.params.id, request.body.label_id, true);
      return answer(workspaceId, request.params.id);
    },
  );

  app.delete(
    '/conversations/:id/labels/:label_id',
    {
      schema: {
        operationId: 'unlabelConversation',
        summary: 'Take a label off the conversation',
        description: 'A label it does not carry changes nothing (200); one not of this workspace is a 404.',
        tags: conversationTags,
        params: ConversationLabelParams,
        response: {
          200: { ...ApiConversationResult, examples: [one] },
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      await labelConversation(db, workspaceId, request.params.id, request.params.label_id, false);
      return answer(workspaceId, request.params.id);
    },
  );

  app.post(
    '/conversations/:id/snooze',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'snoozeConversation',
        summary: 'Snooze the conversation: out of the open lists until a time, or until the customer writes',
        description:
          '`{"until": "<ISO time>"}` (in the future, within 365 days; 422 at `until` otherwise) or `{"until_reply": true}`. ' +
          'A message from the customer wakes it whichever was chosen. A new snooze replaces the old one.',
        tags: conversationTags,
        params: IdParams,
        body: SnoozeBody,
        response: { 200: { ...ApiConversationResult, examples: [one] }, ...errorResponses(...WRITE_ERRORS) },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      await snoozeConversation(db, workspaceId, request.params.id, request.body);
      return answer(workspaceId, request.params.id);
    },
  );

  app.post(
    '/conversations/:id/unsnooze',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'unsnoozeConversation',
        summary: 'Wake a snoozed conversation now',
        description: 'One not snoozed stays so (200).',
        tags: conversationTags,
        params: IdParams,
        response: {
          200: { ...ApiConversationResult, examples: [one] },
          ...errorResponses(401, 404, 409, 422, 429),
        },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      await snoozeConversation(db, workspaceId, request.params.id, null);
      return answer(workspaceId, request.params.id);
    },
  );

  app.post(
    '/conversations/bulk',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'bulkChangeConversations',
        summary: 'One action on up to 500 conversations: assign, label, unlabel, resolve or snooze',
        description:
          '`assign` takes `assignee_id` (a member, or null), `label` and `unlabel` take `label_id`, `snooze` takes ' +
          '`until` or `until_reply` as POST .../snooze does; a bad one is a 422 before anything changes. Each ' +
          'conversation changes as its own call would (each assignment and resolution announces its event). Ids ' +
          'that are no conversation of this workspace are left alone and listed in `not_found`.',
        tags: conversationTags,
        body: BulkBody,
        response: {
          200: { ...BulkResult, examples: [{ result: true, done: 2, not_found: [] }] },
          ...errorResponses(400, 401, 413, 415, 422, 429),
        },
      },
    },
    async (request) =>
      bulkChange(
        ctx,
        { workspaceId: request.principal().workspaceId, userId: null, via: 'api' },
        request.body,
      ),
  );
}
