import type { AppContext } from '../../context.js';
import type { OutboundMessage } from './cloud-api/client.js';
import { numberOfWorkspace } from './connected-numbers.js';
import { takeSendSlot, waitForSlot } from './pacing.js';
import { deliverMessage } from './send-message.js';
import { JOB_SLOT_WAIT_MS, leaseSeconds, scheduleSend } from './send-schedule.js';

interface Row {
  phone: string;
  type: 'template' | 'text';
  template_name: string | null;
  template_language: string | null;
  template_values: string[] | null;
  text: string | null;
  callback_data: string | null;
}

export class TransientSendError extends Error {}

/**
 * The `messages.send` job: takes a queued message's lease (so no attempt runs beside another; the
 * network has no idempotency key), waits for the number's next send slot and tries again. Transient
 * failures (5xx, timeouts, 130429 throughput, 131056 pair rate limit) throw so the queue retries with
 * backoff; on the last try the message is marked failed. Waiting for a slot is not a failure: when
 * none comes soon, the job hands the message to a later job and ends without using a retry.
 */
export async function retrySend(
  ctx: AppContext,
  data: { workspaceId: string; messageId: string },
  lastTry: boolean,
): Promise<void> {
  const { rows } = await ctx.db.query<Row>(
    `UPDATE messages SET sending_until = now() + make_interval(secs => $3)
     WHERE workspace_id = $1 AND id = $2 AND status_rank = 0 AND (sending_until IS NULL OR sending_until < now())
     RETURNING phone, type, template_name, template_language, template_values, text, callback_data`,
    [data.workspaceId, data.messageId, leaseSeconds(JOB_SLOT_WAIT_MS)],
  );
  const row = rows[0];
  if (!row) return followLease(ctx, data);
  const number = await numberOfWorkspace(ctx, ctx.db, data.workspaceId);
  if (!number) {
    await markFailed(ctx, data, 0, 'the workspace no longer has a connected number');
    return;
  }
  const message: OutboundMessage =
    row.type === 'template'
      ? {
          type: 'template',
          to: row.phone,
          name: row.template_name!,
          language: row.template_language!,
          bodyValues: row.template_values ?? [],
        }
      : { type: 'text', to: row.phone, text: row.text! };
  if (row.callback_data) message.callbackData = row.callback_data;
  const slot = await takeSendSlot(ctx.db, number, JOB_SLOT_WAIT_MS);
  if (!slot.granted) {
    await scheduleSend(ctx, data, slot.retryInMs - JOB_SLOT_WAIT_MS / 2);
    return;
  }
  await waitForSlot(number, slot.waitMs);
  const outcome = await deliverMessage(ctx, number, data.messageId, message);
  if (outcome.status !== 'queued') return;
  if (lastTry) await markFailed(ctx, data, outcome.code ?? 0, 'the network kept failing; retries exhausted');
  else throw new TransientSendError(`transient network error ${outcome.code ?? ''}`);
}

/**
 * The message is not ours to send now: sent or failed already (nothing to do), or still queued under
 * another attempt's lease. That attempt may belong to a process that died, so a job comes back when
 * the lease runs out instead of ending here and leaving the message queued for ever.
 */
async function followLease(ctx: AppContext, data: { workspaceId: string; messageId: string }) {
  const { rows } = await ctx.db.query<{ sending_until: Date | null }>(
    'SELECT sending_until FROM messages WHERE workspace_id = $1 AND id = $2 AND status_rank = 0',
    [data.workspaceId, data.messageId],
  );
  const queued = rows[0];
  if (!queued) return;
  const leaseEnds = Math.max(queued.sending_until?.getTime() ?? 0, Date.now());
  await ctx.queue?.send('messages.send', data, { startAfter: new Date(leaseEnds + 1_000) });
}

async function markFailed(
  ctx: AppContext,
  data: { workspaceId: string; messageId: string },
  code: number,
  reason: string,
) {
  await ctx.db.query(
    `UPDATE messages SET status = 'failed', status_rank = 5, error_code = $3, error_reason = $4, sending_until = NULL,
       updated_at = now() WHERE workspace_id = $1 AND id = $2 AND status_rank = 0`,
    [data.workspaceId, data.messageId, code, reason],
  );
}
