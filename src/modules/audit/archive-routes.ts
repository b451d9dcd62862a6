import { Type } from 'typebox';
import type { RestApp } from '../../api/rest-app.js';
import { requireManager } from '../accounts/roles.js';
import { IdParams } from '../accounts/schemas.js';
import { userActor } from './record-audit.js';
import { type ArchiveChange, setArchived } from './set-archived.js';

const ArchiveResult = Type.Object({ result: Type.Literal(true), archived: Type.Boolean() });

type Kind = Pick<ArchiveChange, 'table' | 'entityType' | 'notFound' | 'also'>;

/**
 * `POST {base}/:id/archive` and `/restore` for one kind of thing; `managers` keeps both to owners
 * and admins (forms, flows, templates), otherwise any teammate may (leads).
 */
export function registerArchiveRoutes(app: RestApp, base: string, kind: Kind, managers: boolean): void {
  for (const archived of [true, false]) {
    app.post(
      `${base}/:id/${archived ? 'archive' : 'restore'}`,
      { schema: { params: IdParams, response: { 200: ArchiveResult } } },
      async (request) => {
        const s = request.session();
        if (managers) requireManager(s.role);
        const { id } = request.params;
        await setArchived(app.ctx.db, {
          ...kind,
          workspaceId: s.workspaceId,
          id,
          archived,
          actor: userActor(s),
        });
        return { result: true as const, archived };
      },
    );
  }
}
