import type { AppContext } from '../../context.js';
import { inTransaction } from '../../jobs/enqueue.js';
import { CloudApiError } from './cloud-api/client.js';
import { clientFor, numberOfWorkspace } from './connected-numbers.js';

/** A read mark is small and not urgent: a network that has not answered in this long is tried again later. */
const READ_TIMEOUT_MS = 10_000;

/**
 * A teammate has the conversation open: when the workspace says so, its newest inbound message (and
 * with it every earlier one, as the network reads it) is recorded read by the team, and a job tells
 * the network. Only the request that records it queues the job, so each message is told at most once.
 * Answers whether a read mark was queued.
 */
export async function markConversationRead(
  ctx: AppContext,
  workspaceId: string,
  contactId: string,
): Promise<boolean> {
  if (!ctx.queue) return false;
  const queue = ctx.queue;
  // The network's timestamps are whole seconds: of messages in the same second, the one stored last
  // (updated_at, as an inbound message is never updated) is the newest.
  const marked = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; created_at: Date }>(
      `UPDATE messages m SET team_read_at = now()
       FROM workspaces w
       WHERE w.id = $1 AND w.mark_read AND m.workspace_id = $1 AND m.team_read_at IS NULL
         AND m.id = (SELECT id FROM messages WHERE workspace_id = $1 AND contact_id = $2 AND direction = 'inbound'
                     ORDER BY created_at DESC, updated_at DESC, id DESC LIMIT 1)
       RETURNING m.id, m.created_at`,
      [workspaceId, contactId],
    );
    const latest = rows[0];
    if (!latest) return false;
    await tx.query(
      `UPDATE messages SET team_read_at = now()
       WHERE workspace_id = $1 AND contact_id = $2 AND direction = 'inbound' AND team_read_at IS NULL
         AND created_at <= $3`,
      [workspaceId, contactId, latest.created_at],
    );
    await queue.send('messages.mark_read', { workspaceId, messageId: latest.id }, inTransaction(tx));
    return true;
  });
  if (marked) queue.wake('messages.mark_read');
  return marked;
}

/**
 * The `messages.mark_read` job: Meta's `status: read` for one inbound message. A refusal or a network
 * that stays away is logged and dropped: a missing blue tick is not worth a teammate's attention.
 */
export async function sendReadMark(
  ctx: AppContext,
  data: { workspaceId: string; messageId: string },
  lastTry: boolean,
): Promise<void> {
  const { rows } = await ctx.db.query<{ wamid: string | null }>(
    `SELECT wamid FROM messages WHERE workspace_id = $1 AND id = $2 AND direction = 'inbound'`,
    [data.workspaceId, data.messageId],
  );
  const wamid = rows[0]?.wamid;
  const number = await numberOfWorkspace(ctx, ctx.db, data.workspaceId);
  if (!wamid || !number) return;
  try {
    await clientFor(ctx, number, READ_TIMEOUT_MS).markRead(number.phoneNumberId, wamid);
  } catch (err) {
    const transient = !(err instanceof CloudApiError) || err.transient || err.unconfirmed;
    if (transient && !lastTry) throw err;
    ctx.log.warn(
      {
        messageId: data.messageId,
        code: err instanceof CloudApiError ? err.code : undefined,
        reason: (err as Error).message,
      },
      'marking an inbound message read on the network failed',
    );
  }
}
