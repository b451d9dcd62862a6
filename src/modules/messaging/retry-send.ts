import type { AppContext } from '../../context.js';
import { bodyComponents, type OutboundMessage } from './cloud-api/send-body.js';
import type { GraphSendComponent } from './cloud-api/types.js';
import { sendingNumber } from './connected-numbers.js';
import { releaseSend, takeSendSlot } from './pacing.js';
import type { RichType } from './schemas.js';
import { deliverMessage } from './send-message.js';
import { JOB_SLOT_WAIT_MS, leaseSeconds, scheduleSend } from './send-schedule.js';
import { failMessage } from './status.js';

interface Row {
  phone: string;
  type: 'template' | 'text' | RichType;
  template_name: string | null;
  template_language: string | null;
  template_values: string[] | null;
  template_components: GraphSendComponent[] | null;
  text: string | null;
  content: Record<string, unknown> | null;
  unconfirmed_attempts: number;
}

/** Sends again after an unconfirmed attempt at most this many times, then marks the message failed. */
export const MAX_UNCONFIRMED_RESENDS = 2;

export class TransientSendError extends Error {}

/**
 * The `messages.send` job: takes a queued message's lease (so no attempt runs beside another; the
 * network has no idempotency key), waits for the number's next send slot and tries again. Transient
 * failures (5xx, 130429 throughput, 131056 pair rate limit) throw so the queue retries with backoff;
 * on the last try the message is marked failed. Waiting for a slot is not a failure: when none comes
 * soon, the job hands the message to a later job and ends without using a retry.
 *
 * An attempt whose outcome is unknown (no answer, or its process died) may have reached the network:
 * the lease is not taken until the confirmation window after it has passed with no status webhook
 * confirming the message (status.ts, confirmByCallback), and such resends are limited.
 */
export async function retrySend(
  ctx: AppContext,
  data: { workspaceId: string; messageId: string },
  lastTry: boolean,
): Promise<void> {
  const { rows } = await ctx.db.query<Row>(
    `UPDATE messages SET sending_until = now() + make_interval(secs => $3), unconfirmed_since = now(),
       unconfirmed_attempts = unconfirmed_attempts + (unconfirmed_since IS NOT NULL)::int
     WHERE workspace_id = $1 AND id = $2 AND status_rank = 0 AND (sending_until IS NULL OR sending_until < now())
       AND (unconfirmed_since IS NULL OR unconfirmed_since < now() - make_interval(secs => $4))
     RETURNING phone, type, template_name, template_language, template_values, template_components, text,
       content, unconfirmed_attempts`,
    [data.workspaceId, data.messageId, leaseSeconds(JOB_SLOT_WAIT_MS), ctx.config.sendConfirmWindowMs / 1000],
  );
  const row = rows[0];
  if (!row) return followLease(ctx, data);
  if (row.unconfirmed_attempts > 0) {
    if (row.unconfirmed_attempts > MAX_UNCONFIRMED_RESENDS) {
      await markFailed(ctx, data, 0, 'the network never confirmed the message; it may have been delivered');
      return;
    }
    ctx.log.warn(
      { messageId: data.messageId, unconfirmedAttempts: row.unconfirmed_attempts },
      'sending again: an earlier attempt got no answer and the network has not confirmed it',
    );
  }
  const number = await sendingNumber(ctx, data.workspaceId);
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
          components: row.template_components ?? bodyComponents(row.template_values ?? []),
        }
      : row.type === 'text'
        ? { type: 'text', to: row.phone, text: row.text! }
        : { type: row.type, to: row.phone, content: row.content! };
  const slot = await takeSendSlot(ctx.db, number, JOB_SLOT_WAIT_MS);
  if (!slot.granted) {
    await scheduleSend(ctx, data, slot.retryInMs - JOB_SLOT_WAIT_MS / 2, false);
    return;
  }
  const outcome = await releaseSend(number, slot.waitMs, () =>
    deliverMessage(ctx, number, data.messageId, message),
  );
  // Held while the number is paused: resuming it gives the message a job again (pause-number.ts).
  if (outcome.status !== 'queued' || outcome.held) return;
  if (outcome.unconfirmed) return followLease(ctx, data);
  if (lastTry) await markFailed(ctx, data, outcome.code ?? 0, 'the network kept failing; retries exhausted');
  else throw new TransientSendError(`transient network error ${outcome.code ?? ''}`);
}

/**
 * The message is not ours to send now: sent or failed already (nothing to do), still queued under
 * another attempt's lease, or waiting for the network to confirm an attempt that got no answer. That
 * attempt may belong to a process that died, so a job comes back when the lease or the confirmation
 * window runs out instead of ending here and leaving the message queued for ever.
 */
async function followLease(ctx: AppContext, data: { workspaceId: string; messageId: string }) {
  const { rows } = await ctx.db.query<{ free_at: Date }>(
    `SELECT ${freeAt('$3')} AS free_at
     FROM messages WHERE workspace_id = $1 AND id = $2 AND status_rank = 0`,
    [data.workspaceId, data.messageId, ctx.config.sendConfirmWindowMs / 1000],
  );
  const queued = rows[0];
  if (!queued) return;
  await ctx.queue?.send('messages.send', data, { startAfter: new Date(queued.free_at.getTime() + 1_000) });
}

/**
 * When a queued message is free for the messages.send job to take: its attempt's lease ended and the
 * confirmation window (`windowSeconds`, a parameter) after an unanswered attempt passed.
 */
export const freeAt = (windowSeconds: string) =>
  `greatest(sending_until, unconfirmed_since + make_interval(secs => ${windowSeconds}), now())`;

async function markFailed(
  ctx: AppContext,
  data: { workspaceId: string; messageId: string },
  code: number,
  reason: string,
) {
  await failMessage(ctx, data.workspaceId, data.messageId, { code, reason }, false);
}
