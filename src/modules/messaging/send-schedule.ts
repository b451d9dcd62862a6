import type { AppContext } from '../../context.js';

/** How long one call to the network may take. */
export const SEND_TIMEOUT_MS = 30_000;
/** How long the messages.send job waits for the number's next send slot before rescheduling. */
export const JOB_SLOT_WAIT_MS = 10_000;
/** Time kept for the network call out of the request's deadline: the slot must come before the rest. */
export const NETWORK_ALLOWANCE_MS = 500;

/**
 * A send lease covers the wait for a slot and the network call: while it holds, nobody else sends
 * the message (the network has no idempotency key, so two attempts could both go out).
 */
export function leaseSeconds(slotWaitMs: number): number {
  return (SEND_TIMEOUT_MS + slotWaitMs + 5_000) / 1000;
}

/**
 * Releases the message's lease and has the messages.send job try it in `afterMs`. `reached`: whether
 * this attempt called the network (its outcome, known or not, is already recorded); if not, the
 * message is marked as not attempted, so the job does not wait for a confirmation.
 */
export async function scheduleSend(
  ctx: AppContext,
  data: { workspaceId: string; messageId: string },
  afterMs: number,
  reached: boolean,
): Promise<void> {
  await ctx.db.query(
    `UPDATE messages SET sending_until = NULL, unconfirmed_since = CASE WHEN $3 THEN unconfirmed_since END
     WHERE workspace_id = $1 AND id = $2`,
    [data.workspaceId, data.messageId, reached],
  );
  await ctx.queue?.send('messages.send', data, {
    startAfter: new Date(Date.now() + Math.max(0, Math.round(afterMs))),
  });
}
