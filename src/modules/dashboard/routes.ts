import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { DashboardQuery, dashboardFigures } from './app-routes.js';
import { DashboardResult } from './schemas.js';

const today = '2026-11-27';

const Example = {
  result: true as const,
  period: { days: 1, from: today, to: today, time_zone: 'UTC' },
  messages: [{ day: today, sent: 120, delivered: 114, read: 96, failed: 2, replied: 31 }],
  leads: [{ form_id: 'form_8x2kq4w1', form_name: 'Website signup', points: [{ day: today, count: 7 }] }],
  runs: [{ day: today, completed: 18, failed: 1 }],
};

/** REST v1: the home dashboard's figures, as the app shows them. */
export function registerDashboardRoutes(app: RestApp): void {
  app.get(
    '/dashboard',
    {
      schema: {
        operationId: 'getDashboard',
        summary: "The dashboard's daily counts of messages, leads per form and finished runs",
        description:
          'One entry per UTC day of the period (`days` days ending today, 1 to 90, default 30), zero where ' +
          'nothing happened: messages sent, delivered, read, failed and replied to; leads per form; runs ' +
          "completed and failed. The same figures as the app's dashboard. A count that takes too long is a " +
          '503 (try a shorter period).',
        tags: ['reports'],
        querystring: DashboardQuery,
        response: {
          200: { ...DashboardResult, examples: [Example] },
          ...errorResponses(401, 422, 429, 503),
        },
      },
    },
    async (request) => dashboardFigures(app.ctx, request.principal().workspaceId, request.query.days),
  );
}
