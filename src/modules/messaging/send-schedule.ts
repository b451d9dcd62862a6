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
 * Has the messages.send job try the message in `afterMs`. `reached`: whether this attempt called the
 * network (deliverMessage has then recorded its outcome and released the lease); if not, the lease is
 * released here and the message marked not attempted, so the job does not wait for a confirmation.
 */
export async function scheduleSend(
  ctx: AppContext,
  data: { workspaceId: string; messageId: string },
  afterMs: number,
  reached: boolean,
): Promise<void> {
  if (!reached) {
    await ctx.db.query(
      'UPDATE messages SET sending_until = NULL, unconfirmed_since = NULL WHERE workspace_id = $1 AND id = $2',
      [data.workspaceId, data.messageId],
    );
  }
  await ctx.queue?.send('messages.send', data, {
    startAfter: new Date(Date.now() + Math.max(0, Math.round(afterMs))),
  });
}
