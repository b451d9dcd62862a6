import type { RestApp } from '../../api/rest-app.js';
import { requireManager } from '../accounts/roles.js';
import { RetentionBody, RetentionResult } from './schemas.js';
import { retentionOf, updateRetention } from './settings.js';

/** Settings › Workspace › Data retention: every member reads it, owners and admins change it. */
export function registerAppRetentionRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/workspace/retention', { schema: { response: { 200: RetentionResult } } }, async (request) => ({
    result: true as const,
    retention: await retentionOf(ctx.db, request.session().workspaceId),
  }));

  app.patch(
    '/workspace/retention',
    { schema: { body: RetentionBody, response: { 200: RetentionResult } } },
    async (request) => {
      const s = request.session();
      requireManager(s.role);
      return { result: true as const, retention: await updateRetention(ctx.db, s.workspaceId, request.body) };
    },
  );
}
