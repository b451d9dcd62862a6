import { type TSchema, Type } from 'typebox';
import type { Principal } from '../../api/principal.js';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { keyActor } from './record-audit.js';
import { type ArchiveChange, setArchived } from './set-archived.js';

interface RouteDoc {
  operationId: string;
  summary: string;
  description: string;
}

export interface V1ArchiveRoutes {
  /** The collection's path, e.g. `/leads`: archive is `DELETE /leads/{id}`, restore `POST /leads/{id}/restore`. */
  path: string;
  tags: string[];
  change: Pick<ArchiveChange, 'table' | 'entityType' | 'notFound' | 'also'>;
  archive: RouteDoc;
  restore: RouteDoc & { response: TSchema };
  /** What a restore answers: the thing as its GET answers it. */
  answer: (workspaceId: string, id: string) => Promise<unknown>;
}

/** REST v1's archive and restore of a kind of thing kept rather than deleted, audited as the key. */
export function registerV1ArchiveRoutes(app: RestApp, r: V1ArchiveRoutes): void {
  const archive = (principal: Principal, id: string, archived: boolean) =>
    setArchived(app.ctx.db, {
      ...r.change,
      workspaceId: principal.workspaceId,
      id,
      archived,
      actor: keyActor(principal),
    });

  app.delete(
    `${r.path}/:id`,
    {
      schema: {
        ...r.archive,
        tags: r.tags,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Archived' }), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await archive(request.principal(), request.params.id, true);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${r.path}/:id/restore`,
    {
      schema: {
        operationId: r.restore.operationId,
        summary: r.restore.summary,
        description: r.restore.description,
        tags: r.tags,
        params: IdParams,
        response: { 200: r.restore.response, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => {
      const principal = request.principal();
      await archive(principal, request.params.id, false);
      return r.answer(principal.workspaceId, request.params.id);
    },
  );
}
