import type { RestApp } from '../../api/rest-app.js';
import { requireManager } from '../accounts/roles.js';
import { getWorkspace } from './get-workspace.js';
import { UsageResult, WorkspaceBody, WorkspaceResult } from './schemas.js';
import { updateWorkspace } from './update-workspace.js';
import { usageOf } from './usage.js';

/** Settings › General, Plan and usage (Connected number: messaging/number-app-routes.ts). */
export function registerSettingsRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/workspace', { schema: { response: { 200: WorkspaceResult } } }, async (request) => ({
    result: true as const,
    workspace: await getWorkspace(ctx.db, request.session().workspaceId),
  }));

  app.patch('/workspace', { schema: { body: WorkspaceBody } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    await updateWorkspace(ctx.db, s.workspaceId, request.body);
    return { result: true };
  });

  app.get('/usage', { schema: { response: { 200: UsageResult } } }, async (request) => ({
    result: true as const,
    ...(await usageOf(ctx.db, request.session().workspaceId)),
  }));
}
