import { Type } from 'typebox';
import type { RestApp } from '../../http/rest-app.js';
import { requireManager } from '../accounts/roles.js';
import { CountryCode, WorkspaceName } from '../accounts/schemas.js';
import { getWorkspace } from './get-workspace.js';
import { updateWorkspace } from './update-workspace.js';
import { usageOf } from './usage.js';

const WorkspaceBody = Type.Object(
  {
    name: Type.Optional(WorkspaceName),
    default_country_code: Type.Optional(CountryCode),
    mark_read: Type.Optional(
      Type.Boolean({ description: 'Opening a conversation marks its customer messages read on WhatsApp' }),
    ),
  },
  { additionalProperties: false },
);

/** Settings › General, Plan and usage (Connected number: messaging/number-app-routes.ts). */
export function registerSettingsRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/workspace', async (request) => ({
    result: true,
    workspace: await getWorkspace(ctx.db, request.session().workspaceId),
  }));

  app.patch('/workspace', { schema: { body: WorkspaceBody } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    await updateWorkspace(ctx.db, s.workspaceId, request.body);
    return { result: true };
  });

  app.get('/usage', async (request) => ({
    result: true,
    ...(await usageOf(ctx.db, request.session().workspaceId)),
  }));
}
