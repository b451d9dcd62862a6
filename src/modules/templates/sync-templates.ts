import type { AppContext } from '../../context.js';
import { ApiError } from '../../http/errors.js';
import { CloudApiError } from '../messaging/cloud-api/client.js';
import { type ConnectedNumber, clientFor } from '../messaging/connected-numbers.js';
import { saveTemplate } from './save-template.js';

const KNOWN = new Set(['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED']);

/** Copies the business account's templates from the network into the templates table. */
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
  await ctx.db.query('UPDATE connected_numbers SET templates_synced_at = now() WHERE id = $1', [number.id]);
  return templates.length;
}
