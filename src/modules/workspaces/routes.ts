import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { getWorkspace } from './get-workspace.js';
import { UsageResult, WorkspaceBody, WorkspaceResult } from './schemas.js';
import { updateWorkspace } from './update-workspace.js';
import { usageOf } from './usage.js';

const tags = ['workspace'];

/** REST v1: Settings › General (the workspace) and Plan and usage, as the app shows them. */
export function registerWorkspaceRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get(
    '/workspace',
    {
      schema: {
        operationId: 'getWorkspace',
        summary: "The workspace's settings: name, default country, time zone, consent keywords and replies",
        tags,
        response: { 200: WorkspaceResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      workspace: await getWorkspace(ctx.db, request.principal().workspaceId),
    }),
  );

  app.patch(
    '/workspace',
    {
      schema: {
        operationId: 'updateWorkspace',
        summary: "Change the workspace's settings",
        description:
          'Only the fields given change, with the rules of Settings › General: `default_country_code` is a ' +
          'calling code (or null), `time_zone` an IANA zone, each keyword at least one letter or digit. ' +
          'Answers the workspace as it now is.',
        tags,
        body: WorkspaceBody,
        response: { 200: WorkspaceResult, ...errorResponses(400, 401, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      await updateWorkspace(ctx.db, workspaceId, request.body);
      return { result: true as const, workspace: await getWorkspace(ctx.db, workspaceId) };
    },
  );

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
      ...(await usageOf(ctx.db, request.principal().workspaceId)),
    }),
  );
}
