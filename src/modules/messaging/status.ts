import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { queueDeliveries, recordEvent } from '../webhooks/emit.js';

/** Message statuses in the order they happen; a status never moves back (failed is terminal). */
export const STATUS_RANK = { queued: 0, accepted: 1, sent: 2, delivered: 3, read: 4, failed: 5 } as const;
export type MessageStatus = keyof typeof STATUS_RANK;

/** A message whose status an update changed: what its `message.status` event says. */
export interface StatusChange {
  id: string;
  wamid: string | null;
  status: MessageStatus;
  callback_data: string | null;
  error_code: number | null;
  error_reason: string | null;
}

/** The columns a status update returns (`RETURNING ${CHANGED}`) for its event. */
export const CHANGED = 'id, wamid, status, callback_data, error_code, error_reason';

/**
 * Every change of a message's status goes through here: `update` changes it (returning the row, or
 * null when nothing moved) and its `message.status` event is recorded in the same transaction, so no
 * change goes unannounced, whether Parley decided it (a refusal in the send answer, retries run out,
 * never confirmed) or the network reported it (a status webhook). One event per message and status.
 */
export async function changeStatus(
  ctx: AppContext,
  workspaceId: string,
  update: (db: Queryable) => Promise<StatusChange | null>,
): Promise<StatusChange | null> {
  const { changed, deliveries } = await ctx.db.transaction(async (tx) => {
    const changed = await update(tx);
    if (!changed) return { changed, deliveries: [] };
    const data = {
      id: changed.id,
      wamid: changed.wamid,
      status: changed.status,
      callback_data: changed.callback_data,
      ...(changed.status === 'failed'
        ? { error: { code: changed.error_code ?? 0, reason: changed.error_reason ?? '' } }
        : {}),
    };
    const key = `${changed.id}:${changed.status}`;
    return { changed, deliveries: await recordEvent(tx, workspaceId, 'message.status', key, data) };
  });
  await queueDeliveries(ctx, workspaceId, deliveries);
  return changed;
}

/**
 * Moves a message forward to `status`, by its wamid; a late or repeated status (a `sent` after
 * `delivered`, a webhook delivered twice) changes nothing. Returns the change when it moved.
 */
export async function advanceStatus(
  db: Queryable,
  workspaceId: string,
  wamid: string,
  status: MessageStatus,
  error?: { code: number; reason: string },
): Promise<StatusChange | null> {
  const { rows } = await db.query<StatusChange>(
    `UPDATE messages SET status = $3, status_rank = $4, error_code = COALESCE($5, error_code),
       error_reason = COALESCE($6, error_reason), updated_at = now()
     WHERE workspace_id = $1 AND wamid = $2 AND status_rank < $4
     RETURNING ${CHANGED}`,
    [workspaceId, wamid, status, STATUS_RANK[status], error?.code ?? null, error?.reason ?? null],
  );
  return rows[0] ?? null;
}

/**
 * A status for a wamid Parley has not recorded: the answer to that send was lost (a timeout, a cut
 * connection, a process that died mid-call). The network echoes biz_opaque_callback_data, which
 * Parley sets to the message id, so the status names the message: it takes the wamid and moves
 * forward, and is not sent again. A message failed as never confirmed is confirmed all the same.
 */
export async function confirmByCallback(
  db: Queryable,
  workspaceId: string,
  messageId: string,
  wamid: string,
  status: MessageStatus,
  error?: { code: number; reason: string },
): Promise<StatusChange | null> {
  const { rows } = await db.query<StatusChange>(
    `UPDATE messages SET wamid = $3, status = $4, status_rank = $5, error_code = $6, error_reason = $7,
       sending_until = NULL, unconfirmed_since = NULL, updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND direction = 'outbound' AND wamid IS NULL
       AND (status_rank < $5 OR (status = 'failed' AND unconfirmed_since IS NOT NULL))
     RETURNING ${CHANGED}`,
    [workspaceId, messageId, wamid, status, STATUS_RANK[status], error?.code ?? null, error?.reason ?? null],
  );
  return rows[0] ?? null;
}

/**
 * Marks a message failed. `refused`: the network's answer refused it (any status but failed moves).
 * Otherwise Parley gave up on a queued message (retries ran out, never confirmed): it keeps its
 * unconfirmed mark, so that a status webhook arriving late still confirms it.
 */
export async function failMessage(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  error: { code: number; reason: string },
  refused: boolean,
): Promise<StatusChange | null> {
  return changeStatus(ctx, workspaceId, async (db) => {
    const { rows } = await db.query<StatusChange>(
      `UPDATE messages SET status = 'failed', status_rank = 5, error_code = $3, error_reason = $4,
         sending_until = NULL, unconfirmed_since = CASE WHEN $5 THEN NULL ELSE unconfirmed_since END,
         updated_at = now()
       WHERE workspace_id = $1 AND id = $2 AND status_rank < CASE WHEN $5 THEN 5 ELSE 1 END
       RETURNING ${CHANGED}`,
      [workspaceId, id, error.code, error.reason, refused],
    );
    return rows[0] ?? null;
  });
}
