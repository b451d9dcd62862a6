import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { markTemplateStatus } from '../templates/mark-template-status.js';
import { syncTemplates } from '../templates/sync-templates.js';
import type { ConnectedNumber } from './connected-numbers.js';

// Meta's refusals of a template send that say something of the template (Cloud API error codes):
// its parameters differ from Parley's copy (132000, 132012), it does not exist in this language
// (132001: deleted, or not approved there), it is paused for low quality (132015) or disabled after
// being paused too often (132016).
const STALE = new Set([132000, 132012]);
const MISSING = 132001;
const NOT_SENDABLE: Record<number, 'PAUSED' | 'DISABLED'> = { 132015: 'PAUSED', 132016: 'DISABLED' };

// A burst of refused sends asks for one sync a minute per number, whichever instance they reach.
const RESYNC_EVERY_SECONDS = 60;

/**
 * Parley's copy of a template follows what the network's refusal says of it: a paused or disabled
 * template is marked so at once (no send tries it again), and the templates are synced again
 * whenever the copy may be out of date.
 */
export async function followTemplateRefusal(
  ctx: AppContext,
  number: ConnectedNumber,
  template: { name: string; language: string },
  code: number,
  reason: string,
): Promise<void> {
  const status = NOT_SENDABLE[code];
  if (status) {
    // The message is recorded as failed already: a copy left unmarked only costs another refused send.
    await markTemplateStatus(
      ctx.db,
      number.workspaceId,
      template,
      status,
      `WhatsApp refused a send (${code}): ${reason}`,
    ).catch((err: unknown) =>
      ctx.log.warn({ err, numberId: number.id }, 'marking a template paused or disabled failed'),
    );
  }
  if (status || STALE.has(code) || code === MISSING) await resyncTemplates(ctx, number);
}

/**
 * The number's templates synced again by the templates.sync job (or at once, without a queue). The
 * job is stored before the refusal is answered, so whoever reads the answer finds it asked for.
 */
async function resyncTemplates(ctx: AppContext, number: ConnectedNumber): Promise<void> {
  const asked = ctx.queue
    ? ctx.queue.send(
        'templates.sync',
        { numberId: number.id },
        { singletonKey: number.id, singletonSeconds: RESYNC_EVERY_SECONDS },
      )
    : syncTemplates(ctx, number);
  await asked.catch((err: unknown) =>
    ctx.log.warn({ err, numberId: number.id }, 'template sync after a refused template send failed'),
  );
}

/** What POST /messages answers for such a refusal (the failed message's id with it), or null for another code. */
export function templateRefusal(code: number, reason: string, messageId: string): ApiError | null {
  const because = reason || `code ${code}`;
  if (STALE.has(code)) {
    const message = `The network says the parameters do not match the template (Parley's copy was out of date and is being synced again): ${because}`;
    return new ApiError('validation_error', `template: ${message}`, [{ field: 'template', message }], {
      messageId,
    });
  }
  const words =
    code === MISSING
      ? 'The network does not know this template in this language (deleted, or not approved there); Parley is syncing its templates again'
      : NOT_SENDABLE[code] === 'PAUSED'
        ? `WhatsApp paused this template for low quality: it cannot be sent until WhatsApp reinstates it (${because})`
        : NOT_SENDABLE[code] === 'DISABLED'
          ? `WhatsApp disabled this template after it was paused too often for low quality: it can no longer be sent (${because})`
          : null;
  return words ? new ApiError('template_not_found', words, undefined, { messageId }) : null;
}
