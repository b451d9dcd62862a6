import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { createInvitation } from './invitations.js';
import { requireManager } from './roles.js';
import { IdParams, InviteBody, RoleBody } from './schemas.js';

/** Settings › Team: members and their roles, invitations. Owners and admins manage; everyone sees. */
export function registerTeamRoutes(app: RestApp): void {
  const db = app.ctx.db;

  app.get('/team', async (request) => {
    const s = request.session();
    const members = await db.query(
      `SELECT u.id, u.email, u.name, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.workspace_id = $1 ORDER BY m.created_at, u.id`,
      [s.workspaceId],
    );
    const invitations = await db.query(
      `SELECT id, email, role, created_at, expires_at FROM invitations
       WHERE workspace_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
       ORDER BY created_at`,
      [s.workspaceId],
    );
    return { result: true, members: members.rows, invitations: invitations.rows };
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
    const { rows } = await db.query(
      `UPDATE invitations SET revoked_at = now() WHERE workspace_id = $1 AND id = $2 AND accepted_at IS NULL
       AND revoked_at IS NULL RETURNING 1`,
      [s.workspaceId, request.params.id],
    );
    if (!rows[0]) throw new ApiError('not_found', 'No open invitation with that id');
    return { result: true };
  });

  app.patch('/members/:id', { schema: { params: IdParams, body: RoleBody } }, async (request) => {
    const s = request.session();
    await changeMember(app, s, request.params.id, request.body.role);
    return { result: true };
  });

  app.delete('/members/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    await changeMember(app, s, request.params.id, null);
    return { result: true };
  });
}

/**
 * Changes a member's role, or removes them (role null). Only owners touch owners or make new ones,
 * and a workspace always keeps at least one owner.
 */
async function changeMember(
  app: RestApp,
  s: { workspaceId: string; userId: string; role: 'owner' | 'admin' | 'member' },
  userId: string,
  role: 'owner' | 'admin' | 'member' | null,
): Promise<void> {
  if (userId !== s.userId || role !== null) requireManager(s.role);
  await app.ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ role: string }>(
      'SELECT role FROM memberships WHERE workspace_id = $1 ORDER BY user_id FOR UPDATE',
      [s.workspaceId],
    );
    const target = await tx.query<{ role: string }>(
      'SELECT role FROM memberships WHERE workspace_id = $1 AND user_id = $2',
      [s.workspaceId, userId],
    );
    const current = target.rows[0]?.role;
    if (!current) throw new ApiError('not_found', 'No member with that id');
    if ((current === 'owner' || role === 'owner') && s.role !== 'owner') {
      throw new ApiError('forbidden', 'Only an owner can change an owner or make one');
    }
    const owners = rows.filter((r) => r.role === 'owner').length;
    if (current === 'owner' && role !== 'owner' && owners <= 1) {
      throw new ApiError('conflict', 'A workspace needs at least one owner; make someone else owner first');
    }
    if (role === null) {
      await tx.query('DELETE FROM memberships WHERE workspace_id = $1 AND user_id = $2', [
        s.workspaceId,
        userId,
      ]);
      await tx.query('DELETE FROM sessions WHERE workspace_id = $1 AND user_id = $2', [
        s.workspaceId,
        userId,
      ]);
    } else {
      await tx.query('UPDATE memberships SET role = $3 WHERE workspace_id = $1 AND user_id = $2', [
        s.workspaceId,
        userId,
        role,
      ]);
    }
  });
}
