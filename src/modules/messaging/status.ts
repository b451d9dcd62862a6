import type { Queryable } from '../../db/db.js';

/** Message statuses in the order they happen; a status never moves back (failed is terminal). */
export const STATUS_RANK = { queued: 0, accepted: 1, sent: 2, delivered: 3, read: 4, failed: 5 } as const;
export type MessageStatus = keyof typeof STATUS_RANK;

/**
 * Moves a message forward to `status`, by its wamid; a late or repeated status (a `sent` after
 * `delivered`, a webhook delivered twice) changes nothing. Returns the message id when it moved.
 */
export async function advanceStatus(
  db: Queryable,
  workspaceId: string,
  wamid: string,
  status: MessageStatus,
  error?: { code: number; reason: string },
): Promise<{ id: string; callback_data: string | null } | null> {
  const { rows } = await db.query<{ id: string; callback_data: string | null }>(
    `UPDATE messages SET status = $3, status_rank = $4, error_code = COALESCE($5, error_code),
       error_reason = COALESCE($6, error_reason), updated_at = now()
     WHERE workspace_id = $1 AND wamid = $2 AND status_rank < $4
     RETURNING id, callback_data`,
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
): Promise<{ id: string; callback_data: string | null } | null> {
  const { rows } = await db.query<{ id: string; callback_data: string | null }>(
    `UPDATE messages SET wamid = $3, status = $4, status_rank = $5, error_code = $6, error_reason = $7,
       sending_until = NULL, unconfirmed_since = NULL, updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND direction = 'outbound' AND wamid IS NULL
       AND (status_rank < $5 OR (status = 'failed' AND unconfirmed_since IS NOT NULL))
     RETURNING id, callback_data`,
    [workspaceId, messageId, wamid, status, STATUS_RANK[status], error?.code ?? null, error?.reason ?? null],
  );
  return rows[0] ?? null;
}
