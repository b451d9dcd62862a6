import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import type { AppContext } from '../../context.js';
import { EXPENSIVE_READ, withinTime } from '../../db/time-bound.js';
import { requireManager } from '../accounts/roles.js';
import { userActor } from '../audit/record-audit.js';
import { withinShare } from '../rate-limit/read-share.js';
import { satisfactionFigures } from './satisfaction-figures.js';
import { SatisfactionResult, SurveySettingsBody, SurveySettingsResult } from './satisfaction-schemas.js';
import { saveSurveySettings, surveySettings } from './satisfaction-settings.js';

export const SatisfactionQuery = Type.Object({
  days: Type.Integer({
    minimum: 1,
    maximum: 90,
    default: 30,
    description: 'how many days, ending today (UTC)',
  }),
});

/**
 * The satisfaction figures over `days` days ending today, within the workspace's share of expensive
 * reads and a time bound (503 past it): the web app's and REST v1's answer.
 */
export function satisfactionWithin(ctx: AppContext, workspaceId: string, days: number) {
  return withinShare(workspaceId, () =>
    withinTime(
      ctx.db,
      EXPENSIVE_READ.ms,
      async (tx) => ({ result: true as const, ...(await satisfactionFigures(tx, workspaceId, days)) }),
      (cause) =>
        new ApiError(
          'unavailable',
          `The satisfaction figures took longer than ${EXPENSIVE_READ.ms / 1000} seconds; try a shorter period`,
          undefined,
          { cause },
        ),
    ),
  );
}

/** Settings › Satisfaction survey (every member reads it, owners and admins change it) and the dashboard's figures. */
export function registerAppSatisfactionRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get(
    '/satisfaction/settings',
    { schema: { response: { 200: SurveySettingsResult } } },
    async (request) => ({
      result: true as const,
      survey: await surveySettings(ctx.db, request.session().workspaceId),
    }),
  );

  app.put(
    '/satisfaction/settings',
    { schema: { body: SurveySettingsBody, response: { 200: SurveySettingsResult } } },
    async (request) => {
      const s = request.session();
      requireManager(s.role);
      return {
        result: true as const,
        survey: await saveSurveySettings(ctx.db, s.workspaceId, request.body, userActor(s)),
      };
    },
  );

  app.get(
    '/satisfaction',
    { schema: { querystring: SatisfactionQuery, response: { 200: SatisfactionResult } } },
    async (request) => satisfactionWithin(ctx, request.session().workspaceId, request.query.days),
  );
}
