import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { inTransaction } from '../../jobs/enqueue.js';

/**
 * Queues the broadcasts.deliver job, at `at` or now; within `tx` when given, so that the job exists
 * if and only if the change that needs it commits. A second job for the same broadcast is harmless:
 * only the holder of the broadcast's lease releases recipients.
 */
export async function scheduleDelivery(
  ctx: AppContext,
  job: { workspaceId: string; broadcastId: string },
  at: Date | null = null,
  tx?: Queryable,
): Promise<void> {
  await ctx.queue?.send('broadcasts.deliver', job, {
    ...(at && at.getTime() > Date.now() ? { startAfter: at } : {}),
    ...(tx ? inTransaction(tx) : {}),
  });
  if (!tx && !at) ctx.queue?.wake('broadcasts.deliver');
}
