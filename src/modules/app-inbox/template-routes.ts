import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { CloudApiError } from '../messaging/cloud-api/client.js';
import { numberOfWorkspace } from '../messaging/connected-numbers.js';
import { syncTemplates } from '../messaging/sync-templates.js';

/** Templates: every status (the REST API lists only approved ones), and "Sync now". */
export function registerAppTemplateRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/templates', async (request) => {
    const s = request.session();
    const { rows } = await ctx.db.query(
      `SELECT id, name, language, category, body, status, variable_count, updated_at FROM templates
       WHERE workspace_id = $1 ORDER BY name, language`,
      [s.workspaceId],
    );
    const synced = await ctx.db.query<{ templates_synced_at: Date | null }>(
      'SELECT templates_synced_at FROM connected_numbers WHERE workspace_id = $1',
      [s.workspaceId],
    );
    return {
      result: true,
      templates: rows,
      number_connected: synced.rows.length > 0,
      synced_at: synced.rows[0]?.templates_synced_at ?? null,
    };
  });

  app.post('/templates/sync', async (request) => {
    const s = request.session();
    const number = await numberOfWorkspace(ctx, ctx.db, s.workspaceId);
    if (!number) {
      throw new ApiError(
        'no_connected_number',
        'Connect a WhatsApp number in Settings first; templates come from it',
      );
    }
    try {
      return { result: true, synced: await syncTemplates(ctx, number) };
    } catch (err) {
      if (err instanceof CloudApiError) {
        throw new ApiError('unavailable', `WhatsApp did not answer the template list: ${err.message}`);
      }
      throw err;
    }
  });
}
