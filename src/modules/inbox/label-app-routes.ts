import type { RestApp } from '../../api/rest-app.js';
import { Done } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { bulkChange } from './bulk.js';
import {
  BulkBody,
  BulkResult,
  ConversationLabelBody,
  ConversationLabelParams,
  ConversationTagsResult,
  LabelBody,
  LabelListResult,
  LabelPatch,
  LabelResult,
  SavedViewBody,
  SavedViewListResult,
  SavedViewPatch,
  SavedViewResult,
  SnoozeBody,
} from './label-schemas.js';
import { createLabel, deleteLabel, labelConversation, listLabels, updateLabel } from './labels.js';
import { createSavedView, deleteSavedView, listSavedViews, updateSavedView } from './saved-views.js';
import { snoozeConversation } from './snooze.js';

/** The inbox's labels, snooze, bulk actions and saved views for the web app. */
export function registerAppLabelRoutes(app: RestApp): void {
  const { db } = app.ctx;
  const tags = (conversation: Awaited<ReturnType<typeof labelConversation>>) => ({
    result: true as const,
    conversation,
  });

  app.get('/labels', { schema: { response: { 200: LabelListResult } } }, async (request) => ({
    result: true as const,
    labels: await listLabels(db, request.session().workspaceId),
  }));
  app.post(
    '/labels',
    { schema: { body: LabelBody, response: { 201: LabelResult } } },
    async (request, reply) =>
      reply.code(201).send({
        result: true as const,
        label: await createLabel(db, request.session().workspaceId, request.body),
      }),
  );
  app.patch(
    '/labels/:id',
    { schema: { params: IdParams, body: LabelPatch, response: { 200: LabelResult } } },
    async (request) => ({
      result: true as const,
      label: await updateLabel(db, request.session().workspaceId, request.params.id, request.body),
    }),
  );
  app.delete('/labels/:id', { schema: { params: IdParams, response: { 200: Done } } }, async (request) => {
    await deleteLabel(db, request.session().workspaceId, request.params.id);
    return { result: true as const };
  });

  app.post(
    '/conversations/:id/labels',
    { schema: { params: IdParams, body: ConversationLabelBody, response: { 200: ConversationTagsResult } } },
    async (request) =>
      tags(
        await labelConversation(
          db,
          request.session().workspaceId,
          request.params.id,
          request.body.label_id,
          true,
        ),
      ),
  );
  app.delete(
    '/conversations/:id/labels/:label_id',
    { schema: { params: ConversationLabelParams, response: { 200: ConversationTagsResult } } },
    async (request) =>
      tags(
        await labelConversation(
          db,
          request.session().workspaceId,
          request.params.id,
          request.params.label_id,
          false,
        ),
      ),
  );
  app.post(
    '/conversations/:id/snooze',
    { schema: { params: IdParams, body: SnoozeBody, response: { 200: ConversationTagsResult } } },
    async (request) =>
      tags(await snoozeConversation(db, request.session().workspaceId, request.params.id, request.body)),
  );
  app.post(
    '/conversations/:id/unsnooze',
    { schema: { params: IdParams, response: { 200: ConversationTagsResult } } },
    async (request) =>
      tags(await snoozeConversation(db, request.session().workspaceId, request.params.id, null)),
  );

  app.post(
    '/conversations/bulk',
    { schema: { body: BulkBody, response: { 200: BulkResult } } },
    async (request) => bulkChange(app.ctx, request.session(), request.body),
  );

  app.get('/saved-views', { schema: { response: { 200: SavedViewListResult } } }, async (request) => ({
    result: true as const,
    views: await listSavedViews(db, request.session()),
  }));
  app.post(
    '/saved-views',
    { schema: { body: SavedViewBody, response: { 201: SavedViewResult } } },
    async (request, reply) =>
      reply
        .code(201)
        .send({ result: true as const, view: await createSavedView(db, request.session(), request.body) }),
  );
  app.patch(
    '/saved-views/:id',
    { schema: { params: IdParams, body: SavedViewPatch, response: { 200: SavedViewResult } } },
    async (request) => ({
      result: true as const,
      view: await updateSavedView(db, request.session(), request.params.id, request.body),
    }),
  );
  app.delete(
    '/saved-views/:id',
    { schema: { params: IdParams, response: { 200: Done } } },
    async (request) => {
      await deleteSavedView(db, request.session(), request.params.id);
      return { result: true as const };
    },
  );
}
