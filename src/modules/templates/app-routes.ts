import { Type } from 'typebox';
import type { RestApp } from '../../api/rest-app.js';
import { requireManager } from '../accounts/roles.js';
import { IdParams } from '../accounts/schemas.js';
import { registerArchiveRoutes } from '../audit/archive-routes.js';
import { recordAudit, userActor } from '../audit/record-audit.js';
import { numberOfWorkspace } from '../messaging/connected-numbers.js';
import { createTemplate } from './create-template.js';
import { deleteTemplate } from './delete-template.js';
import { listAllTemplates } from './list-all-templates.js';
import { AppTemplateList, NewTemplateBody, TemplateSyncResult } from './schemas.js';
import { syncWorkspaceTemplates } from './sync-templates.js';

const ListQuery = Type.Object({ archived: Type.Boolean({ default: false }) });

/**
 * Templates: every status (the REST API lists only approved ones), "Sync now", create and submit,
 * delete (on the network too, else archived here) and restore.
 */
export function registerAppTemplateRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get(
    '/templates',
    { schema: { querystring: ListQuery, response: { 200: AppTemplateList } } },
    async (request) => {
      const s = request.session();
      const templates = await listAllTemplates(ctx.db, s.workspaceId, request.query.archived);
      const number = await numberOfWorkspace(ctx, ctx.db, s.workspaceId);
      return {
        result: true as const,
        templates,
        number_connected: number !== null,
        synced_at: number?.templatesSyncedAt?.toISOString() ?? null,
      };
    },
  );

  app.post('/templates/sync', { schema: { response: { 200: TemplateSyncResult } } }, async (request) => ({
    result: true as const,
    synced: await syncWorkspaceTemplates(ctx, request.session().workspaceId),
  }));

  /** Submits a new template to WhatsApp for approval (PENDING until Meta reviews it). */
  app.post('/templates', { schema: { body: NewTemplateBody } }, async (request, reply) => {
    const s = request.session();
    const template = await createTemplate(ctx, s.workspaceId, request.body);
    await recordAudit(ctx.db, {
      workspaceId: s.workspaceId,
      actor: userActor(s),
      action: 'create',
      entityType: 'template',
      entityId: template.id,
      changes: { name: template.name, language: template.language },
    });
    return reply.code(201).send({ result: true, template });
  });

  app.delete('/templates/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    const done = await deleteTemplate(ctx, s.workspaceId, request.params.id, userActor(s));
    return { result: true, ...done };
  });

  // Only the restore is used: archiving happens when the network will not delete a template.
  registerArchiveRoutes(
    app,
    '/templates',
    { table: 'templates', entityType: 'template', notFound: 'No template with that id' },
    true,
  );
}
