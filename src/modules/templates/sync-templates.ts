import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { CloudApiError } from '../messaging/cloud-api/client.js';
import { type ConnectedNumber, clientFor, numberOfWorkspace } from '../messaging/connected-numbers.js';
import { saveTemplate } from './save-template.js';

const KNOWN = new Set(['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED']);

/**
 * Copies the business account's templates from the network into the templates table; one the
 * network gave an id and no longer lists becomes DELETED.
 */
export async function syncTemplates(ctx: AppContext, number: ConnectedNumber): Promise<number> {
  const templates = await clientFor(ctx, number)
    .listTemplates(number.businessAccountId)
    .catch((err: unknown) => {
      if (!(err instanceof CloudApiError)) throw err;
      throw new ApiError(
        'unavailable',
        `WhatsApp did not answer the template list: ${err.message}`,
        undefined,
        {
          cause: err,
        },
      );
    });
  for (const t of templates) {
    const body = t.components.find((c) => c.type === 'BODY')?.text ?? '';
    const status = KNOWN.has(t.status) ? (t.status as 'APPROVED') : 'PENDING';
    await saveTemplate(ctx.db, number.workspaceId, {
      name: t.name,
      language: t.language,
      category: t.category,
      body,
      status,
      externalId: t.id,
      components: t.components,
      parameterFormat: t.parameter_format === 'NAMED' ? 'NAMED' : 'POSITIONAL',
      qualityScore: t.quality_score?.score ?? null,
      rejectedReason: t.rejected_reason && t.rejected_reason !== 'NONE' ? t.rejected_reason : null,
    });
  }
  // A template the network had (it gave it an id) and lists no more was deleted there: not sendable.
  await ctx.db.query(
    `UPDATE templates SET status = 'DELETED', status_reason = $4, updated_at = now()
     WHERE workspace_id = $1 AND external_id IS NOT NULL AND status <> 'DELETED'
       AND NOT EXISTS (SELECT 1 FROM unnest($2::text[], $3::text[]) AS listed (name, language)
                       WHERE listed.name = templates.name AND listed.language = templates.language)`,
    [
      number.workspaceId,
      templates.map((t) => t.name),
      templates.map((t) => t.language),
      'WhatsApp no longer lists this template (deleted in WhatsApp Manager or through the API)',
    ],
  );
  await ctx.db.query('UPDATE connected_numbers SET templates_synced_at = now() WHERE id = $1', [number.id]);
  return templates.length;
}

/** "Sync from WhatsApp" (Templates page): the workspace's templates copied from its number's account. */
export async function syncWorkspaceTemplates(ctx: AppContext, workspaceId: string): Promise<number> {
  const number = await numberOfWorkspace(ctx, ctx.db, workspaceId);
  if (!number) {
    throw new ApiError(
      'no_connected_number',
      'Connect a WhatsApp number in Settings first; templates come from it',
    );
  }
  return syncTemplates(ctx, number);
}
