import type { FastifyReply } from 'fastify';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { clientAddressKey } from '../../lib/client-address.js';
import { sha256Hex } from '../../lib/hash.js';
import { canSendMail } from '../mail/queue-mail.js';
import { acceptInvitation, previewInvitation } from './invitations.js';
import { addressHash, isKnownAddress, rememberAddress } from './known-addresses.js';
import {
  countInvitationAttempt,
  countLoginAttempt,
  forgiveInvitationAttempt,
  forgiveLoginAttempt,
  type LoginAttempt,
} from './login-throttle.js';
import { DUMMY_HASH, verifyPassword } from './passwords.js';
import { canManage } from './roles.js';
import {
  AcceptBody,
  InvitationPreviewResult,
  LoginBody,
  NewWorkspaceBody,
  SetupBody,
  SwitchBody,
  TokenParams,
} from './schemas.js';
import { endSession, startSession } from './sessions.js';
import { hasUsers, setUpServer } from './set-up-server.js';
import { switchWorkspace } from './switch-workspace.js';
import { createOwnedWorkspace, userByEmail, workspacesOf } from './users.js';

/** Sign-in, sign-out, first-run setup, invitations accepted, workspaces created and switched. */
export function registerAuthRoutes(app: RestApp): void {
  /** Counts the attempt before any password is checked; refuses it (429) past the allowance. */
  const countAttempt = async (reply: FastifyReply, counted: Promise<LoginAttempt>) => {
    const attempt = await counted;
    if (!attempt.allowed) {
      reply.header('Retry-After', String(attempt.retryAfterSeconds));
      throw new ApiError('rate_limited', 'Too many failed sign-ins; wait 15 minutes and try again');
    }
  };

  app.get('/session', { config: { public: true } }, async (request) => {
    const s = request.appSession;
    const sendsMail = canSendMail(app.ctx);
    if (!s)
      return {
        result: true,
        authenticated: false,
        needs_setup: !(await hasUsers(app.ctx.db)),
        sends_mail: sendsMail,
      };
    return {
      result: true,
      authenticated: true,
      csrf_token: s.csrfToken,
      user: { id: s.userId, email: s.email, name: s.name, language: s.language },
      workspace: {
        id: s.workspaceId,
        name: s.workspaceName,
        default_country_code: s.defaultCountryCode,
        time_zone: s.timeZone,
      },
      role: s.role,
      can_manage: canManage(s.role),
      workspaces: await workspacesOf(app.ctx.db, s.userId),
      app_url: app.ctx.config.appUrl,
      sends_mail: sendsMail,
    };
  });

  app.post('/setup', { config: { public: true }, schema: { body: SetupBody } }, async (request, reply) => {
    await setUpServer(app.ctx, reply, request.body);
    return reply.code(201).send({ result: true });
  });

  app.post('/login', { config: { public: true }, schema: { body: LoginBody } }, async (request, reply) => {
    const { email, password } = request.body;
    const address = clientAddressKey(request.ip);
    const hash = addressHash(app.ctx.config.secretKey, address);
    const known = await isKnownAddress(app.ctx.db, email, hash);
    await countAttempt(reply, countLoginAttempt(app.ctx.db, email, address, known));
    const user = await userByEmail(app.ctx.db, email);
    const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok) throw new ApiError('unauthorized', 'The e-mail address or password is not right');
    const workspace = (await workspacesOf(app.ctx.db, user.id))[0];
    if (!workspace) throw new ApiError('forbidden', 'You are no longer a member of any workspace');
    await forgiveLoginAttempt(app.ctx.db, email, address);
    await rememberAddress(app.ctx.db, user.id, hash);
    await startSession(app.ctx, app.ctx.db, reply, user.id, workspace.id);
    return { result: true };
  });

  app.post('/logout', async (request, reply) => {
    await endSession(app.ctx, request, reply);
    return { result: true };
  });

  app.get(
    '/invitations/:token',
    { config: { public: true }, schema: { params: TokenParams, response: { 200: InvitationPreviewResult } } },
    async (request) => {
      return { result: true as const, invitation: await previewInvitation(app.ctx.db, request.params.token) };
    },
  );

  app.post(
    '/invitations/accept',
    { config: { public: true }, schema: { body: AcceptBody } },
    async (request, reply) => {
      // Counted outside the transaction, so a wrong password's rollback keeps the count.
      const subject = `invite:${sha256Hex(request.body.token)}`;
      await countAttempt(reply, countInvitationAttempt(app.ctx.db, subject, clientAddressKey(request.ip)));
      await app.ctx.db.transaction(async (tx) => {
        const { userId, workspaceId } = await acceptInvitation(tx, request.body);
        await startSession(app.ctx, tx, reply, userId, workspaceId);
      });
      await forgiveInvitationAttempt(app.ctx.db, subject, clientAddressKey(request.ip));
      return reply.code(201).send({ result: true });
    },
  );

  app.post('/workspaces', { schema: { body: NewWorkspaceBody } }, async (request, reply) => {
    const s = request.session();
    const id = await app.ctx.db.transaction((tx) =>
      createOwnedWorkspace(tx, s.userId, request.body.name, request.body.default_country_code),
    );
    await switchWorkspace(app.ctx.db, s.tokenHash, s.userId, id);
    return reply.code(201).send({ result: true, id });
  });

  app.post('/session/workspace', { schema: { body: SwitchBody } }, async (request) => {
    const s = request.session();
    await switchWorkspace(app.ctx.db, s.tokenHash, s.userId, request.body.workspace_id);
    return { result: true };
  });
}
