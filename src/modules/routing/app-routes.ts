import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { Done } from '../../api/schema.js';
import { requireManager } from '../accounts/roles.js';
import { IdParams } from '../accounts/schemas.js';
import { userActor } from '../audit/record-audit.js';
import { conversationContact } from '../inbox/conversation.js';
import { runAfterCommit } from '../messaging/events.js';
import { assignToTeam } from './assign-to-team.js';
import { availabilityOf, setAvailability } from './availability.js';
import { listTeams } from './list-teams.js';
import { routingSettings, updateRouting } from './routing-settings.js';
import { createTeam, deleteTeam, updateTeam } from './save-team.js';
import {
  AvailabilityBody,
  AvailabilityResult,
  ConversationTeamBody,
  ConversationTeamResult,
  RoutingBody,
  RoutingResult,
  TeamBody,
  TeamListResult,
  TeamPatch,
  TeamResult,
} from './schemas.js';

/**
 * Settings › Teams and assignment (every member reads, owners and admins change), each person's own
 * availability, and a conversation given to a team from the inbox.
 */
export function registerAppRoutingRoutes(app: RestApp): void {
  const { ctx } = app;
  const { db } = ctx;

  app.get('/teams', { schema: { response: { 200: TeamListResult } } }, async (request) => ({
    result: true as const,
    teams: await listTeams(db, request.session().workspaceId),
  }));

  app.post(
    '/teams',
    { schema: { body: TeamBody, response: { 201: TeamResult } } },
    async (request, reply) => {
      const s = request.session();
      requireManager(s.role);
      const team = await createTeam(db, s.workspaceId, request.body, userActor(s));
      return reply.code(201).send({ result: true as const, team });
    },
  );

  app.get('/teams/:id', { schema: { params: IdParams, response: { 200: TeamResult } } }, async (request) => {
    const [team] = await listTeams(db, request.session().workspaceId, request.params.id);
    if (!team) throw new ApiError('not_found', 'No team with that id');
    return { result: true as const, team };
  });

  app.patch(
    '/teams/:id',
    { schema: { params: IdParams, body: TeamPatch, response: { 200: TeamResult } } },
    async (request) => {
      const s = request.session();
      requireManager(s.role);
      return {
        result: true as const,
        team: await updateTeam(db, s.workspaceId, request.params.id, request.body, userActor(s)),
      };
    },
  );

  app.delete('/teams/:id', { schema: { params: IdParams, response: { 200: Done } } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    await deleteTeam(db, s.workspaceId, request.params.id, userActor(s));
    return { result: true as const };
  });

  app.get('/routing', { schema: { response: { 200: RoutingResult } } }, async (request) => ({
    result: true as const,
    routing: await routingSettings(db, request.session().workspaceId),
  }));

  app.put(
    '/routing',
    { schema: { body: RoutingBody, response: { 200: RoutingResult } } },
    async (request) => {
      const s = request.session();
      requireManager(s.role);
      return {
        result: true as const,
        routing: await updateRouting(db, s.workspaceId, request.body, userActor(s)),
      };
    },
  );

  app.get('/me/availability', { schema: { response: { 200: AvailabilityResult } } }, async (request) => {
    const s = request.session();
    return { result: true as const, ...(await availabilityOf(db, s.workspaceId, s.userId)) };
  });

  app.put(
    '/me/availability',
    { schema: { body: AvailabilityBody, response: { 200: AvailabilityResult } } },
    async (request) => {
      const s = request.session();
      const now = await setAvailability(db, s.workspaceId, s.userId, request.body.availability);
      return { result: true as const, ...now };
    },
  );

  app.post(
    '/conversations/:id/team',
    { schema: { params: IdParams, body: ConversationTeamBody, response: { 200: ConversationTeamResult } } },
    async (request) => {
      const s = request.session();
      const contact = await conversationContact(db, s.workspaceId, request.params.id);
      const { assigneeId, after } = await db.transaction((tx) =>
        assignToTeam(ctx, tx, s, contact.id, request.body.team_id),
      );
      await runAfterCommit(after);
      return {
        result: true as const,
        team_id: request.body.team_id,
        assignee_id: assigneeId,
      };
    },
  );
}
