import type { AppContext } from '../../context.js';
import type { TemplateStatusUpdate } from '../messaging/cloud-api/types.js';
import type { ConnectedNumber } from '../messaging/connected-numbers.js';
import { syncTemplates } from './sync-templates.js';

// Meta's review events and the template status each leaves; others (FLAGGED: a warning) change nothing.
const STATUS_OF_EVENT: Record<string, string> = {
  APPROVED: 'APPROVED',
  REINSTATED: 'APPROVED',
  REJECTED: 'REJECTED',
  PAUSED: 'PAUSED',
  DISABLED: 'DISABLED',
  PENDING_DELETION: 'DISABLED',
};

/**
 * A `message_template_status_update` from the network: the template becomes sendable (or stops
 * being) as soon as Meta decides, with no sync to wait for. A template Parley has not seen yet
 * (made in WhatsApp Manager) is fetched with a sync, since the webhook does not carry its body.
 */
export async function applyTemplateStatus(
  ctx: AppContext,
  number: ConnectedNumber,
  update: Partial<TemplateStatusUpdate>,
): Promise<void> {
  const status = STATUS_OF_EVENT[update.event ?? ''];
  if (!status || !update.message_template_name || !update.message_template_language) return;
  const { rows } = await ctx.db.query(
    `UPDATE templates SET status = $4, external_id = COALESCE(external_id, $5),
       rejected_reason = CASE WHEN $4 = 'REJECTED' THEN $6 END,
       status_reason = CASE WHEN status = $4 THEN status_reason END, updated_at = now()
     WHERE workspace_id = $1 AND name = $2 AND language = $3 RETURNING id`,
    [
      number.workspaceId,
      update.message_template_name,
      update.message_template_language,
      status,
      update.message_template_id === undefined ? null : String(update.message_template_id),
      update.reason && update.reason !== 'NONE' ? update.reason : null,
    ],
  );
  if (rows.length === 0) {
    await syncTemplates(ctx, number).catch((err) =>
      ctx.log.warn({ err, numberId: number.id }, 'template sync after a status webhook failed'),
    );
  }
}
