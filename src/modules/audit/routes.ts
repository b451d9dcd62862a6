import { Type } from 'typebox';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses, PageCursor, PageLimit } from '../../api/schema.js';
import { listAuditPage } from './list-audit.js';
import { AUDITED_ENTITIES, type AuditedEntity } from './record-audit.js';
import { AuditListResult } from './schemas.js';

const AuditPageQuery = Type.Object({
  entity: Type.Optional(
    Type.Unsafe<AuditedEntity>({
      type: 'string',
      enum: [...AUDITED_ENTITIES],
      description: 'Only changes to this kind of thing',
    }),
  ),
  limit: PageLimit,
  cursor: Type.Optional(PageCursor),
});

const AuditPage = Type.Object(
  {
    result: Type.Literal(true),
    entries: AuditListResult.properties.entries,
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
  },
  {
    examples: [
      {
        result: true,
        entries: [
          {
            id: '4182',
            actor_type: 'api_key',
            actor_id: 'key_1z8x3c5v',
            actor_name: 'CRM sync',
            action: 'update',
            entity_type: 'contact',
            entity_id: 'ct_9f3k2m7a',
            changes: { fields: ['name', 'tags'] },
            created_at: '2026-11-27T09:14:02.118Z',
          },
        ],
        next_cursor: 'WyIxNzY0MjM0ODQyMTE4MDAwIiwiNDE4MSJd',
      },
    ],
  },
);

/** REST v1: the audit log (Settings › Audit log): who changed what, newest first. */
export function registerAuditRoutes(app: RestApp): void {
  app.get(
    '/audit-log',
    {
      schema: {
        operationId: 'listAuditEntries',
        summary: 'List audit log entries: who changed what, newest first',
        description:
          'Each entry names its actor (a teammate, an API key or Parley itself) and the fields it changed, ' +
          "never their values. In the app only owners and admins read it; an API key is the workspace's " +
          'own and may. Pages follow `next_cursor` (null on the last page): send it back as `cursor`; ' +
          'entries recorded meanwhile are not mixed into later pages.',
        tags: ['audit-log'],
        querystring: AuditPageQuery,
        response: { 200: AuditPage, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const { entity, limit, cursor } = request.query;
      const page = await listAuditPage(app.ctx.db, request.principal().workspaceId, {
        entity,
        limit,
        cursor,
      });
      return { result: true as const, ...page };
    },
  );
}
