import type { RestApp } from '../../api/rest-app.js';
import { audited, userActor } from '../audit/record-audit.js';
import { queueMail, requireMail } from '../mail/queue-mail.js';
import { changeMember } from './change-member.js';
import { createInvitation, invitationMail } from './invitations.js';
import { listTeam } from './list-team.js';
import { revokeInvitation } from './revoke-invitation.js';
import { requireManager } from './roles.js';
import { IdParams, InviteBody, NewInvitationResult, RoleBody, TeamResult } from './schemas.js';

/** Settings › Team: members and their roles, invitations. Owners and admins manage; everyone sees. */
export function registerTeamRoutes(app: RestApp): void {
  const db = app.ctx.db;

  app.get('/team', { schema: { response: { 200: TeamResult } } }, async (request) => {
    return { result: true as const, ...(await listTeam(db, request.session().workspaceId)) };
  });

  app.post(
    '/invitations',
    { schema: { body: InviteBody, response: { 201: NewInvitationResult } } },
    async (request, reply) => {
      const s = request.session();
      requireManager(s.role);
      const { email, role, send_email: emailed = false } = request.body;
      if (emailed) requireMail(app.ctx, 'copy the link and send it yourself');
      const inv = await audited(
        db,
        async (tx) => {
          const created = await createInvitation(tx, app.ctx.config.appUrl, s.workspaceId, s, email, role);
          if (emailed) await queueMail(app.ctx, tx, invitationMail(s, email, role, created.url));
          return created;
        },
        (created) => ({
          workspaceId: s.workspaceId,
          actor: userActor(s),
          action: 'create',
          entityType: 'invitation',
          entityId: created.id,
          changes: { role },
        }),
      );
      if (emailed) app.ctx.queue?.wake('mail.send');
      return reply.code(201).send({ result: true as const, ...inv, emailed });
    },
  );

  app.delete('/invitations/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    await audited(
      db,
      (tx) => revokeInvitation(tx, s.workspaceId, request.params.id),
      () => ({
        workspaceId: s.workspaceId,
        actor: userActor(s),
        action: 'revoke',
        entityType: 'invitation',
        entityId: request.params.id,
      }),
    );
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
