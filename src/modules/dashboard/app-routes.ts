import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import type { AppContext } from '../../context.js';
import { EXPENSIVE_READ, withinTime } from '../../db/time-bound.js';
import { withinShare } from '../rate-limit/read-share.js';
import { leadCounts } from './lead-counts.js';
import { messageCounts } from './message-counts.js';
import { runOutcomes } from './run-outcomes.js';
import { DashboardResult } from './schemas.js';

const MAX_DAYS = 90;

export const DashboardQuery = Type.Object({
  days: Type.Integer({
    minimum: 1,
    maximum: MAX_DAYS,
    default: 30,
    description: 'how many days, ending today (UTC)',
  }),
});

/**
 * The dashboard's figures over `days` days ending today: within the workspace's share of expensive
 * reads and a time bound (503 past it). The web app's and REST v1's dashboards both answer this.
 */
export function dashboardFigures(ctx: AppContext, workspaceId: string, days: number) {
  return withinShare(workspaceId, () =>
    withinTime(
      ctx.db,
      EXPENSIVE_READ.ms,
      async (tx) => {
        const messages = await messageCounts(tx, workspaceId, days);
        const dayList = messages.map((m) => m.day);
        return {
          result: true as const,
          // The period has at least one day (today).
          period: { days, from: dayList[0]!, to: dayList.at(-1)!, time_zone: 'UTC' },
          messages,
          leads: await leadCounts(tx, workspaceId, days, dayList),
          runs: await runOutcomes(tx, workspaceId, days),
        };
      },
      (cause) =>
        new ApiError(
          'unavailable',
          `The dashboard took longer than ${EXPENSIVE_READ.ms / 1000} seconds to count; try a shorter period`,
          undefined,
          { cause },
        ),
    ),
  );
}

/** The home dashboard: per-day counts of messages, leads per form and finished runs. */
export function registerAppDashboardRoutes(app: RestApp): void {
  app.get(
    '/dashboard',
    { schema: { querystring: DashboardQuery, response: { 200: DashboardResult } } },
    async (request) => dashboardFigures(app.ctx, request.session().workspaceId, request.query.days),
  );
}
