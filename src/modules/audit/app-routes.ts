import type { RestApp } from '../../api/rest-app.js';
import { requireManager } from '../accounts/roles.js';
import { listAudit } from './list-audit.js';
import { AuditListResult, AuditQuery } from './schemas.js';

/** Settings › Audit log: who changed what, for owners and admins. */
export function registerAppAuditRoutes(app: RestApp): void {
  app.get(
    '/audit-log',
    { schema: { querystring: AuditQuery, response: { 200: AuditListResult } } },
    async (request) => {
      const s = request.session();
      requireManager(s.role);
      const { entity, limit, offset } = request.query;
      const page = await listAudit(app.ctx.db, s.workspaceId, { entity, limit, offset });
      return { result: true as const, entries: page.entries, has_next_page: page.hasNextPage, limit, offset };
    },
  );
}
