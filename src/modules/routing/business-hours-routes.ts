import type { RestApp } from '../../api/rest-app.js';
import { requireManager } from '../accounts/roles.js';
import { userActor } from '../audit/record-audit.js';
import { BusinessHoursBody, BusinessHoursResult } from './business-hours-schemas.js';
import { businessHoursOf, saveBusinessHours } from './business-hours-settings.js';

/** Settings › Business hours: every member reads it (the inbox says whether now is inside), owners and admins change it. */
export function registerBusinessHoursRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/business-hours', { schema: { response: { 200: BusinessHoursResult } } }, async (request) => ({
    result: true as const,
    business_hours: await businessHoursOf(ctx.db, request.session().workspaceId),
  }));

  app.put(
    '/business-hours',
    { schema: { body: BusinessHoursBody, response: { 200: BusinessHoursResult } } },
    async (request) => {
      const s = request.session();
      requireManager(s.role);
      return {
        result: true as const,
        business_hours: await saveBusinessHours(ctx.db, s.workspaceId, request.body, userActor(s)),
      };
    },
  );
}
