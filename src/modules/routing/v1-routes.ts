import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { keyActor } from '../audit/record-audit.js';
import { answerWriter } from '../idempotency/outcome.js';
import { BusinessHoursBody, BusinessHoursResult } from './business-hours-schemas.js';
import { businessHoursOf, saveBusinessHours } from './business-hours-settings.js';
import { listTeams } from './list-teams.js';
import { routingSettings, updateRouting } from './routing-settings.js';
import { SatisfactionQuery, satisfactionWithin } from './satisfaction-routes.js';
import { SatisfactionResult, SurveySettingsBody, SurveySettingsResult } from './satisfaction-schemas.js';
import { saveSurveySettings, surveySettings } from './satisfaction-settings.js';
import { createTeam, deleteTeam, updateTeam } from './save-team.js';
import {
  RoutingBody,
  RoutingResult,
  type Team,
  TeamBody,
  TeamListResult,
  TeamPatch,
  TeamResult,
} from './schemas.js';

const settings = ['settings'];
const teams = ['teams'];
const BODY_ERRORS = [400, 401, 413, 415, 422, 429] as const;
const NOT_FOUND = 'No team with that id';
const MANAGERS = "In the app only owners and admins change this; an API key is the workspace's own and may.";

// Examples: valid against the schemas they illustrate (the OpenAPI contract test checks each).
const hours = {
  schedule: {
    mon: [{ from: '09:00', to: '17:30' }],
    tue: [{ from: '09:00', to: '17:30' }],
    wed: [
      { from: '09:00', to: '12:00' },
      { from: '13:00', to: '17:30' },
    ],
    thu: [{ from: '09:00', to: '17:30' }],
    fri: [{ from: '09:00', to: '16:00' }],
  },
  holidays: [{ date: '2026-12-25', name: 'Christmas Day' }],
  away: { enabled: true, text: "Thanks for your message! We're closed now and reply from 09:00." },
  greeting: { enabled: false, text: 'Hi! A teammate will be with you shortly.' },
};
const team: Team = {
  id: 'team_3k9d1x7m',
  name: 'Support',
  max_open_per_member: 8,
  members: [
    {
      id: 'usr_7q2w4e6r',
      name: 'Asha Rao',
      email: 'asha@example.com',
      availability: 'online',
      available: true,
      last_seen_at: '2026-11-27T09:12:44.000Z',
      open_count: 3,
      last_assigned_at: '2026-11-27T08:57:10.000Z',
    },
  ],
  created_at: '2026-10-02T14:20:00.000Z',
};
const routing = { auto_assign_team_id: 'team_3k9d1x7m', idle_minutes: 15 };
const survey = {
  enabled: true,
  question: 'How would you rate the help you got today? Choose from 1 (poor) to 5 (excellent).',
};

/** REST v1: business hours, routing, teams and the satisfaction survey, as the app's Settings pages. */
export function registerRoutingRoutes(app: RestApp): void {
  const { ctx } = app;
  const { db } = ctx;

  app.get(
    '/business-hours',
    {
      schema: {
        operationId: 'getBusinessHours',
        summary: 'The business hours, holidays and the away and greeting messages',
        description: "`inside_now` says whether now is inside them, in the workspace's time zone.",
        tags: settings,
        response: {
          200: {
            ...BusinessHoursResult,
            examples: [
              { result: true, business_hours: { ...hours, time_zone: 'Europe/London', inside_now: true } },
            ],
          },
          ...errorResponses(401, 429),
        },
      },
    },
    async (request) => ({
      result: true as const,
      business_hours: await businessHoursOf(db, request.principal().workspaceId),
    }),
  );

  app.put(
    '/business-hours',
    {
      schema: {
        operationId: 'updateBusinessHours',
        summary: 'Replace the business hours, holidays and the away and greeting messages',
        description:
          'The whole setting: times are HH:MM in the workspace time zone ("24:00" as an end), up to 3 ' +
          'intervals a day (a day left out is closed), up to 100 holidays; `schedule: null` is always ' +
          'open. Each problem is a 422 naming its field. ' +
          MANAGERS,
        tags: settings,
        body: { ...BusinessHoursBody, examples: [hours] },
        response: {
          200: {
            ...BusinessHoursResult,
            examples: [
              { result: true, business_hours: { ...hours, time_zone: 'Europe/London', inside_now: false } },
            ],
          },
          ...errorResponses(...BODY_ERRORS),
        },
      },
    },
    async (request) => ({
      result: true as const,
      business_hours: await saveBusinessHours(
        db,
        request.principal().workspaceId,
        request.body,
        keyActor(request.principal()),
      ),
    }),
  );

  app.get(
    '/routing',
    {
      schema: {
        operationId: 'getRouting',
        summary: 'The routing settings: the auto-assign team and the idle limit',
        tags: settings,
        response: {
          200: { ...RoutingResult, examples: [{ result: true, routing }] },
          ...errorResponses(401, 429),
        },
      },
    },
    async (request) => ({
      result: true as const,
      routing: await routingSettings(db, request.principal().workspaceId),
    }),
  );

  app.put(
    '/routing',
    {
      schema: {
        operationId: 'updateRouting',
        summary: 'Set the auto-assign team (null: off) and the idle limit',
        description:
          'New conversations go round robin to the available members of `auto_assign_team_id`; an id that ' +
          "is not one of this workspace's teams is a 422 at that field. " +
          MANAGERS,
        tags: settings,
        body: { ...RoutingBody, examples: [routing] },
        response: {
          200: { ...RoutingResult, examples: [{ result: true, routing }] },
          ...errorResponses(...BODY_ERRORS),
        },
      },
    },
    async (request) => ({
      result: true as const,
      routing: await updateRouting(
        db,
        request.principal().workspaceId,
        request.body,
        keyActor(request.principal()),
      ),
    }),
  );

  app.get(
    '/teams',
    {
      schema: {
        operationId: 'listTeams',
        summary: 'List teams by name, each with its members and their availability',
        description: 'A workspace has at most 100 teams: the list is one page.',
        tags: teams,
        response: {
          200: { ...TeamListResult, examples: [{ result: true, teams: [team] }] },
          ...errorResponses(401, 429),
        },
      },
    },
    async (request) => ({
      result: true as const,
      teams: await listTeams(db, request.principal().workspaceId),
    }),
  );

  const teamAnswer = (made: Team) => ({ status: 201 as const, body: { result: true as const, team: made } });
  app.post(
    '/teams',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'createTeam',
        summary: 'Create a team',
        description:
          "`member_ids` are user ids of this workspace's members (422 otherwise). A name in use (in any " +
          'case) or a 101st team is a 409. ' +
          MANAGERS,
        tags: teams,
        body: {
          ...TeamBody,
          examples: [{ name: 'Support', max_open_per_member: 8, member_ids: ['usr_7q2w4e6r'] }],
        },
        response: {
          201: { ...TeamResult, examples: [{ result: true, team }] },
          ...errorResponses(400, 401, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const writer = answerWriter(request, teamAnswer);
      const made = await createTeam(
        db,
        request.principal().workspaceId,
        request.body,
        keyActor(request.principal()),
        writer,
      );
      const answer = teamAnswer(made);
      return reply.code(answer.status).send(answer.body);
    },
  );

  app.get(
    '/teams/:id',
    {
      schema: {
        operationId: 'getTeam',
        summary: 'A team with its members, their availability and open conversations',
        tags: teams,
        params: IdParams,
        response: {
          200: { ...TeamResult, examples: [{ result: true, team }] },
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request) => {
      const [found] = await listTeams(db, request.principal().workspaceId, request.params.id);
      if (!found) throw new ApiError('not_found', NOT_FOUND);
      return { result: true as const, team: found };
    },
  );

  app.patch(
    '/teams/:id',
    {
      schema: {
        operationId: 'updateTeam',
        summary: 'Rename a team, change its cap or set its members',
        description:
          '`member_ids` replaces the members (those who stay keep their round robin turn). A name in use is ' +
          'a 409. ' +
          MANAGERS,
        tags: teams,
        params: IdParams,
        body: { ...TeamPatch, examples: [{ name: 'Support EMEA', member_ids: ['usr_7q2w4e6r'] }] },
        response: {
          200: { ...TeamResult, examples: [{ result: true, team: { ...team, name: 'Support EMEA' } }] },
          ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request) => ({
      result: true as const,
      team: await updateTeam(
        db,
        request.principal().workspaceId,
        request.params.id,
        request.body,
        keyActor(request.principal()),
      ),
    }),
  );

  app.delete(
    '/teams/:id',
    {
      schema: {
        operationId: 'deleteTeam',
        summary: 'Delete a team',
        description:
          'Its conversations keep their assignees and leave the team; auto-assignment to it stops. ' +
          MANAGERS,
        tags: teams,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const principal = request.principal();
      await deleteTeam(db, principal.workspaceId, request.params.id, keyActor(principal));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/satisfaction',
    {
      schema: {
        operationId: 'getSatisfaction',
        summary: 'Satisfaction ratings over a period: average, distribution and per teammate',
        description:
          '`days` days ending today (UTC, 1 to 90, default 30); answers count on the day they came. A count ' +
          'that takes too long is a 503 (try a shorter period).',
        tags: ['reports'],
        querystring: SatisfactionQuery,
        response: {
          200: {
            ...SatisfactionResult,
            examples: [
              {
                result: true,
                period: { days: 7, from: '2026-11-21', to: '2026-11-27', time_zone: 'UTC' },
                asked: 40,
                answered: 12,
                average: 4.25,
                distribution: [
                  { rating: 1, count: 0 },
                  { rating: 2, count: 1 },
                  { rating: 3, count: 1 },
                  { rating: 4, count: 4 },
                  { rating: 5, count: 6 },
                ],
                teammates: [{ user_id: 'usr_7q2w4e6r', name: 'Asha Rao', answered: 12, average: 4.25 }],
              },
            ],
          },
          ...errorResponses(401, 422, 429, 503),
        },
      },
    },
    async (request) => satisfactionWithin(ctx, request.principal().workspaceId, request.query.days),
  );

  app.get(
    '/satisfaction/settings',
    {
      schema: {
        operationId: 'getSatisfactionSettings',
        summary: 'The satisfaction survey: whether it is sent and its question',
        tags: settings,
        response: {
          200: { ...SurveySettingsResult, examples: [{ result: true, survey }] },
          ...errorResponses(401, 429),
        },
      },
    },
    async (request) => ({
      result: true as const,
      survey: await surveySettings(db, request.principal().workspaceId),
    }),
  );

  app.put(
    '/satisfaction/settings',
    {
      schema: {
        operationId: 'updateSatisfactionSettings',
        summary: 'Turn the satisfaction survey on or off and set its question',
        description:
          'When on, a resolved conversation asks the customer for a rating from 1 to 5. A blank question ' +
          'is a 422. ' +
          MANAGERS,
        tags: settings,
        body: { ...SurveySettingsBody, examples: [survey] },
        response: {
          200: { ...SurveySettingsResult, examples: [{ result: true, survey }] },
          ...errorResponses(...BODY_ERRORS),
        },
      },
    },
    async (request) => ({
      result: true as const,
      survey: await saveSurveySettings(
        db,
        request.principal().workspaceId,
        request.body,
        keyActor(request.principal()),
      ),
    }),
  );
}
