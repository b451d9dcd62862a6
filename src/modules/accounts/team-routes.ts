import type { RestApp } from '../../http/rest-app.js';
import { changeMember } from './change-member.js';
import { createInvitation } from './invitations.js';
import { listTeam } from './list-team.js';
import { revokeInvitation } from './revoke-invitation.js';
import { requireManager } from './roles.js';
import { IdParams, InviteBody, RoleBody } from './schemas.js';

/** Settings › Team: members and their roles, invitations. Owners and admins manage; everyone sees. */
export function registerTeamRoutes(app: RestApp): void {
  const db = app.ctx.db;

  app.get('/team', async (request) => {
    return { result: true, ...(await listTeam(db, request.session().workspaceId)) };
  });

  app.post('/invitations', { schema: { body: InviteBody } }, async (request, reply) => {
    const s = request.session();
    requireManager(s.role);
    const inv = await createInvitation(
      db,
      app.ctx.config.appUrl,
      s.workspaceId,
      { userId: s.userId, role: s.role },
      request.body.email,
      request.body.role,
    );
    return reply.code(201).send({ result: true, ...inv });
  });

  app.delete('/invitations/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    await revokeInvitation(db, s.workspaceId, request.params.id);
    return { result: true };
  });

  app.patch('/members/:id', { schema: { params: IdParams, body: RoleBody } }, async (request) => {
    const s = request.session();
    await changeMember(db, s, request.params.id, request.body.role);
    return { result: true };
  });

  app.delete('/members/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    await changeMember(db, s, request.params.id, null);
    return { result: true };
  });
}
