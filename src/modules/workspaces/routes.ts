import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { UsageResult } from './schemas.js';
import { usageOf } from './usage.js';

/** REST v1: the workspace's plan and usage, as Settings › Plan and usage shows them. */
export function registerWorkspaceRoutes(app: RestApp): void {
  app.get(
    '/usage',
    {
      schema: {
        operationId: 'getUsage',
        summary: "The workspace's usage against its plan's limits",
        description:
          'Contacts stored, template and text messages sent this month, and leads taken this month (months in ' +
          "UTC), each beside its plan's limit. A send or a lead past a limit is refused with 402 `plan_limit_reached`.",
        tags: ['usage'],
        response: { 200: UsageResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await usageOf(app.ctx.db, request.principal().workspaceId)),
    }),
  );
}
