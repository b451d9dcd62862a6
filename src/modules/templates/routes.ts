import type { RestApp } from '../../http/rest-app.js';
import { errorResponses } from '../../http/schema.js';
import { listApprovedTemplates } from './list-templates.js';
import { TemplateListResult } from './schemas.js';

export function registerTemplateRoutes(app: RestApp): void {
  app.get(
    '/templates',
    {
      schema: {
        summary: 'List approved message templates',
        tags: ['templates'],
        response: { 200: TemplateListResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      templates: await listApprovedTemplates(app.ctx.db, request.principal().workspaceId),
    }),
  );
}
