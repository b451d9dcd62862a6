import type { AppContext } from '../../context.js';
import { inTransaction } from '../../jobs/enqueue.js';

// A minute's pass takes rounds until one comes back short: a worker killed during a broadcast leaves
// a thousand stored, unsent messages, which a single round of 200 a minute handed back over five minutes.
const ROUNDS = 25;

/**
 * Queued messages whose send lease ran out a minute ago and more: their sender died before it could
 * record an outcome or hand the message to a job (a request cut off by a kill right after storing
 * it). A live sender always clears its lease in time, so each of these gets a `messages.send` job,
 * in the transaction that clears the lease: none is found twice, and none is left behind.
 */
export async function sweepAbandonedSends(ctx: AppContext, round = 200): Promise<number> {
  const queue = ctx.queue;
  if (!queue) return 0;
  let found = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const n = await ctx.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ workspace_id: string; id: string }>(
        `UPDATE messages SET sending_until = NULL
         WHERE (workspace_id, id) IN (
           SELECT workspace_id, id FROM messages
           WHERE status_rank = 0 AND sending_until < now() - interval '1 minute'
           ORDER BY sending_until LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING workspace_id, id`,
        [round],
      );
      await queue.insert(
        'messages.send',
        rows.map((m) => ({ data: { workspaceId: m.workspace_id, messageId: m.id } })),
        inTransaction(tx),
      );
      return rows.length;
    });
    found += n;
    if (n < round) break;
  }
  return found;
}
