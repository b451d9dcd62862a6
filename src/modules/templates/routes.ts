import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { listApprovedTemplates } from './list-templates.js';
import { TemplateListResult } from './schemas.js';

export function registerTemplateRoutes(app: RestApp): void {
  app.get(
    '/templates',
    {
      schema: {
        summary: 'List approved message templates',
        description:
          'Each with its body variable count and, as an extension, what a send must give: the header ' +
          '(format, and whether it takes a value), the body parameter names of a NAMED template, and its ' +
          'buttons (index, type, the field that carries a value, whether it is required). An authentication ' +
          "template's OTP button takes the code, which defaults to the body's one value.",
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
