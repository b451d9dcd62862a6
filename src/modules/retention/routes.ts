import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { RetentionBody, RetentionResult } from './schemas.js';
import { retentionOf, updateRetention } from './settings.js';

const tags = ['workspace'];
const DESCRIPTION =
  'How long each kind of data is kept, in days (null: for ever); the nightly retention job erases what ' +
  'is older, as Settings › Data retention says.';

/** REST v1: Settings › Data retention. */
export function registerRetentionRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get(
    '/workspace/retention',
    {
      schema: {
        operationId: 'getRetention',
        summary: 'How long message content, media, finished runs and webhook deliveries are kept',
        description: DESCRIPTION,
        tags,
        response: { 200: RetentionResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      retention: await retentionOf(ctx.db, request.principal().workspaceId),
    }),
  );

  app.patch(
    '/workspace/retention',
    {
      schema: {
        operationId: 'updateRetention',
        summary: 'Change how long each kind of data is kept',
        description: `${DESCRIPTION} Only the fields given change; answers the settings as they now are.`,
        tags,
        body: RetentionBody,
        response: { 200: RetentionResult, ...errorResponses(400, 401, 413, 415, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      retention: await updateRetention(ctx.db, request.principal().workspaceId, request.body),
    }),
  );
}
