import type { AppContext } from '../../context.js';
import { inTransaction } from '../../jobs/enqueue.js';
import { queueDeliveries, recordEvent } from '../webhooks/emit.js';
import { publish, runAfterCommit } from './events.js';
import { numberProblem } from './number-problems.js';
import type { ConnectedNumber } from './number-types.js';

/**
 * Meta refused a send for a reason that concerns the number (number-problems.ts): the number is
 * paused (stored with Meta's code and words), `number.paused` is published (its broadcasts pause) and announced,
 * once per pause. Its sends are held queued, not failed (send-message.ts, retry-send.ts), until the
 * owner puts it right (resumeNumber).
 */
export async function pauseNumber(
  ctx: AppContext,
  number: ConnectedNumber,
  problem: { code: number; reason: string },
): Promise<void> {
  const paused = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ paused_at: Date }>(
      `UPDATE connected_numbers SET paused_at = now(), paused_code = $3, paused_reason = $4
       WHERE workspace_id = $1 AND id = $2 AND paused_at IS NULL RETURNING paused_at`,
      [number.workspaceId, number.id, problem.code, problem.reason],
    );
    const pausedAt = rows[0]?.paused_at;
    if (!pausedAt) return null;
    const after = await publish(ctx, tx, 'number.paused', { workspaceId: number.workspaceId });
    const deliveries = await recordEvent(
      tx,
      number.workspaceId,
      'number.paused',
      `number.paused/${pausedAt.toISOString()}`,
      {
        ...described(number),
        code: problem.code,
        reason: problem.reason,
        what_to_do: numberProblem(problem.code),
        paused_at: pausedAt.toISOString(),
      },
    );
    return { after, deliveries };
  });
  ctx.sending.forget(number.workspaceId);
  if (!paused) return;
  ctx.log.warn(
    { numberId: number.id, code: problem.code, reason: problem.reason },
    'number paused: Meta refuses to send from it; its sends are held until it is put right',
  );
  await runAfterCommit(paused.after);
  await queueDeliveries(ctx, number.workspaceId, paused.deliveries);
}

/**
 * The owner put the number right (a new token saved, or a check that Meta reads the number again):
 * the pause is lifted, `number.resumed` is published (the broadcasts it paused go on), the messages it
 * held get their send jobs, and `number.resumed` is announced. Nothing happens for a number that is not paused.
 */
export async function resumeNumber(ctx: AppContext, workspaceId: string): Promise<boolean> {
  const resumed = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      id: string;
      phone_number_id: string;
      display_phone: string;
      paused_at: Date;
      paused_code: number | null;
    }>(
      `WITH was AS (SELECT id, paused_at, paused_code FROM connected_numbers
                    WHERE workspace_id = $1 AND paused_at IS NOT NULL FOR UPDATE)
       UPDATE connected_numbers n SET paused_at = NULL, paused_code = NULL, paused_reason = NULL
       FROM was WHERE n.workspace_id = $1 AND n.id = was.id
       RETURNING n.id, n.phone_number_id, n.display_phone, was.paused_at, was.paused_code`,
      [workspaceId],
    );
    const was = rows[0];
    if (!was) return null;
    const after = await publish(ctx, tx, 'number.resumed', { workspaceId });
    const { rows: held } = await tx.query<{ id: string }>(
      `SELECT id FROM messages WHERE workspace_id = $1 AND status_rank = 0 AND direction = 'outbound'
         AND (sending_until IS NULL OR sending_until < now())`,
      [workspaceId],
    );
    await ctx.queue?.insert(
      'messages.send',
      held.map((m) => ({ data: { workspaceId, messageId: m.id } })),
      inTransaction(tx),
    );
    const deliveries = await recordEvent(
      tx,
      workspaceId,
      'number.resumed',
      `number.resumed/${was.paused_at.toISOString()}`,
      {
        ...described({ id: was.id, phoneNumberId: was.phone_number_id, displayPhone: was.display_phone }),
        code: was.paused_code,
        paused_at: was.paused_at.toISOString(),
        held_messages: held.length,
      },
    );
    return { after, deliveries };
  });
  ctx.sending.forget(workspaceId);
  if (!resumed) return false;
  ctx.log.info({ workspaceId }, 'number resumed: its held sends and paused broadcasts go on');
  ctx.queue?.wake('messages.send');
  await runAfterCommit(resumed.after);
  await queueDeliveries(ctx, workspaceId, resumed.deliveries);
  return true;
}

const described = (n: Pick<ConnectedNumber, 'id' | 'phoneNumberId' | 'displayPhone'>) => ({
  number_id: n.id,
  phone_number_id: n.phoneNumberId,
  display_phone: n.displayPhone,
});
