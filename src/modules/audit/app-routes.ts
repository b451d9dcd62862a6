import { Type } from 'typebox';
import type { RestApp } from '../../http/rest-app.js';
import { requireManager } from '../accounts/roles.js';
import { listAudit } from './list-audit.js';
import { AUDITED_ENTITIES, type AuditedEntity } from './record-audit.js';

const ListQuery = Type.Object({
  entity: Type.Optional(Type.Unsafe<AuditedEntity>({ type: 'string', enum: [...AUDITED_ENTITIES] })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});

/** Settings › Audit log: who changed what, for owners and admins. */
export function registerAppAuditRoutes(app: RestApp): void {
  app.get('/audit-log', { schema: { querystring: ListQuery } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    const { entity, limit, offset } = request.query;
    const page = await listAudit(app.ctx.db, s.workspaceId, { entity, limit, offset });
    return { result: true, entries: page.entries, has_next_page: page.hasNextPage, limit, offset };
  });
}
