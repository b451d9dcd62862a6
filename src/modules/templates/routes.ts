import { type Static, Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { keyActor, recordAudit } from '../audit/record-audit.js';
import { setArchived } from '../audit/set-archived.js';
import { answerWriter } from '../idempotency/outcome.js';
import { createTemplate } from './create-template.js';
import { deleteTemplate } from './delete-template.js';
import { getApiTemplate, getTemplateAndArchive, listApiTemplates } from './list-templates.js';
import {
  type ApiTemplate,
  ArchivedTemplateResult,
  NewTemplateBody,
  NewTemplateResult,
  TemplateListQuery,
  TemplateListResult,
  TemplateResult,
  TemplateSyncResult,
} from './schemas.js';
import { syncWorkspaceTemplates } from './sync-templates.js';

const tags = ['templates'];
const NOT_FOUND = 'No template with that id';

const NewTemplateExample = {
  ...NewTemplateBody,
  examples: [
    {
      name: 'order_shipped',
      language: 'en',
      category: 'UTILITY',
      body: 'Hi {{1}}, order {{2}} is on its way.',
      examples: ['Asha', 'A-1001'],
    },
  ],
};

const createdAnswer = (template: Static<typeof ApiTemplate>) => ({
  status: 201 as const,
  body: { result: true as const, template },
});

const SyncAnswer = { ...TemplateSyncResult, examples: [{ result: true, synced: 12 }] };

const ARCHIVED = () =>
  new ApiError(
    'conflict',
    'A template of this name and language is archived: restore it first (POST /templates/{id}/restore, or in the app)',
  );

export function registerTemplateRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get(
    '/templates',
    {
      schema: {
        operationId: 'listTemplates',
        summary: 'List message templates, approved ones unless asked otherwise',
        description:
          'Newest first. Without `status`, only approved templates (the ones a send can use); `status=pending` ' +
          "or `rejected` lists those of that review state, with Meta's `rejected_reason`; `status=all` every " +
          'one (paused and disabled ones too). Templates archived in the app are left out. Each with its ' +
          'body variable count and, as an extension, what a send must give: the header ' +
          '(format, and whether it takes a value), the body parameter names of a NAMED template, and its ' +
          'buttons (index, type, the field that carries a value, whether it is required). An authentication ' +
          "template's OTP button takes the code, which defaults to the body's one value. Without `limit` " +
          'or `cursor` every one comes in one answer, as before paging; with `limit`, pages follow `next_cursor` ' +
          '(null on the last page): send it back as `cursor`.',
        tags,
        querystring: TemplateListQuery,
        response: { 200: TemplateListResult, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await listApiTemplates(ctx.db, request.principal().workspaceId, request.query)),
    }),
  );

  app.post(
    '/templates',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'createTemplate',
        summary: 'Submit a new template to WhatsApp for review',
        description:
          "The template is created on the workspace's WhatsApp Business account and kept here as `PENDING` " +
          "until Meta reviews it; Meta's decision arrives by its webhook (GET /templates/{id} then shows " +
          '`APPROVED`, or `REJECTED` with `rejected_reason`). Give `body` (variables numbered {{1}}, {{2}}... with ' +
          "sample `examples` for the review), or every component in Meta's creation shape as `components`; " +
          'an AUTHENTICATION template takes only its options (`add_security_recommendation`, ' +
          '`code_expiration_minutes`, `otp_type`, `supported_apps`). What WhatsApp refuses (a name and language ' +
          'it already has, a malformed component) is a 422 with its reason; so is a workspace without a connected number.',
        tags,
        body: NewTemplateExample,
        response: { 201: NewTemplateResult, ...errorResponses(400, 401, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const principal = request.principal();
      const writer = answerWriter(request, createdAnswer);
      // Refused before WhatsApp is asked: its review would be for a template this workspace cannot see.
      const { rows: archived } = await ctx.db.query(
        'SELECT 1 FROM templates WHERE workspace_id = $1 AND name = $2 AND language = $3 AND archived_at IS NOT NULL',
        [principal.workspaceId, request.body.name, request.body.language],
      );
      if (archived.length > 0) throw ARCHIVED();
      const created = await createTemplate(ctx, principal.workspaceId, request.body);
      const template = await ctx.db.transaction(async (tx) => {
        await recordAudit(tx, {
          workspaceId: principal.workspaceId,
          actor: keyActor(principal),
          action: 'create',
          entityType: 'template',
          entityId: created.id,
          changes: { name: created.name, language: created.language },
        });
        const template = await getApiTemplate(tx, principal.workspaceId, created.id);
        // Archived in the app between the check above and now.
        if (!template) throw ARCHIVED();
        await writer?.(tx, template);
        return template;
      });
      const answer = createdAnswer(template);
      return reply.code(answer.status).send(answer.body);
    },
  );

  app.get(
    '/templates/:id',
    {
      schema: {
        operationId: 'getTemplate',
        summary: "A template and where Meta's review of it stands",
        description:
          '`status` is PENDING until Meta reviews it, then APPROVED or REJECTED (with `rejected_reason`); ' +
          'PAUSED or DISABLED later when Meta stops it (with `status_reason` when a refused send told Parley). ' +
          'A template archived in the app is a 404.',
        tags,
        params: IdParams,
        response: { 200: TemplateResult, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => {
      const template = await getApiTemplate(ctx.db, request.principal().workspaceId, request.params.id);
      if (!template) throw new ApiError('not_found', NOT_FOUND);
      return { result: true as const, template };
    },
  );

  app.delete(
    '/templates/:id',
    {
      schema: {
        operationId: 'deleteTemplate',
        summary: 'Delete a template, on WhatsApp too',
        description:
          'As the app does: the template (this language) is deleted on the WhatsApp Business account, then ' +
          'here. When WhatsApp will not delete it (no number connected, an error, a template it never had), ' +
          'it is archived here instead: no longer listed or sent, restorable (POST /templates/{id}/restore). Either way the ' +
          'answer is 204 and the template is gone from REST v1; deleting it again is a 404.',
        tags,
        params: IdParams,
        response: {
          204: Type.Null({ description: 'Deleted (or archived)' }),
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const principal = request.principal();
      const { id } = request.params;
      if (!(await getApiTemplate(ctx.db, principal.workspaceId, id)))
        throw new ApiError('not_found', NOT_FOUND);
      await deleteTemplate(ctx, principal.workspaceId, id, keyActor(principal));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/templates/sync',
    {
      schema: {
        operationId: 'syncTemplates',
        summary: "Copy the templates from the number's WhatsApp Business account",
        description:
          'The app\'s "Sync from WhatsApp": every template of the account is copied here with its review state; ' +
          'one WhatsApp had and no longer lists becomes `DELETED`. `synced` is how many WhatsApp listed. ' +
          '409 `no_connected_number` when no number is connected; 503 when WhatsApp did not answer.',
        tags,
        response: { 200: SyncAnswer, ...errorResponses(401, 409, 429, 503) },
      },
    },
    async (request) => ({
      result: true as const,
      synced: await syncWorkspaceTemplates(ctx, request.principal().workspaceId),
    }),
  );

  for (const archived of [true, false]) {
    app.post(
      `/templates/:id/${archived ? 'archive' : 'restore'}`,
      {
        schema: archived
          ? {
              operationId: 'archiveTemplate',
              summary: 'Archive a template here, keeping it on WhatsApp',
              description:
                "As the app's archive: the template leaves the lists and cannot be sent, but is not deleted on " +
                'WhatsApp (DELETE /templates/{id} deletes it there). GET /templates/{id} answers 404 until it is ' +
                'restored. Archiving again changes nothing. Answers the template with `archived_at`.',
              tags,
              params: IdParams,
              response: { 200: ArchivedTemplateResult, ...errorResponses(401, 404, 422, 429) },
            }
          : {
              operationId: 'restoreTemplate',
              summary: 'Restore an archived template',
              description:
                'The template is listed and sendable again (when WhatsApp approved it); restoring one that is not ' +
                'archived changes nothing. Answers the template with `archived_at` null.',
              tags,
              params: IdParams,
              response: { 200: ArchivedTemplateResult, ...errorResponses(401, 404, 422, 429) },
            },
      },
      async (request) => {
        const principal = request.principal();
        const { id } = request.params;
        await setArchived(ctx.db, {
          table: 'templates',
          entityType: 'template',
          workspaceId: principal.workspaceId,
          id,
          archived,
          actor: keyActor(principal),
          notFound: NOT_FOUND,
        });
        const template = await getTemplateAndArchive(ctx.db, principal.workspaceId, id);
        if (!template) throw new ApiError('not_found', NOT_FOUND);
        return { result: true as const, template };
      },
    );
  }
}
