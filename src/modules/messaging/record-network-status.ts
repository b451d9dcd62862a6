import type { AppContext } from '../../context.js';
import type { Db } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { followed } from './events.js';
import { CHANGED, STATUS_RANK, type StatusChange } from './status.js';
import { type BatchRow, batchStatement, recordBatched, type StatusBatchKind } from './status-batches.js';
import type { StatusUpdate } from './webhook-items.js';

type NetworkStatus = StatusUpdate & { workspaceId: string };

// Status webhooks arriving together recorded as one statement, each as networkStatus's rules say (its
// doc below). Each message is found by its wamid, or, when no message has that wamid, by the id the
// network echoes in the callback data (the send's answer was lost); locked in that order, as accepted
// sends are (record-accepted.ts), so batches of the two wait for each other instead of deadlocking;
// lateral subqueries read each by its index whatever the planner's statistics say.
export const RECORD_NETWORK_STATUS = batchStatement(`WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[],
      $8::text[]) WITH ORDINALITY AS i(ws, new_wamid, new_status, new_rank, code, reason, callback, event_id, n)),
  locked AS (
    SELECT i.*, coalesce(known.tid, unknown.tid) AS tid, known.tid IS NULL AS confirms
    FROM (SELECT * FROM input ORDER BY coalesce(callback, new_wamid)) i
    LEFT JOIN LATERAL (
      SELECT ctid AS tid FROM messages
      WHERE workspace_id = i.ws AND wamid = i.new_wamid AND status_rank < i.new_rank FOR UPDATE) known ON true
    LEFT JOIN LATERAL (
      SELECT ctid AS tid FROM messages
      WHERE known.tid IS NULL AND workspace_id = i.ws AND id = i.callback AND direction = 'outbound'
        AND wamid IS NULL
        AND (status_rank < i.new_rank OR (status = 'failed' AND unconfirmed_since IS NOT NULL))
      FOR UPDATE) unknown ON true
    WHERE coalesce(known.tid, unknown.tid) IS NOT NULL),
  m AS (
    UPDATE messages SET wamid = l.new_wamid, status = l.new_status, status_rank = l.new_rank,
      error_code = CASE WHEN l.confirms THEN l.code ELSE coalesce(l.code, messages.error_code) END,
      error_reason = CASE WHEN l.confirms THEN l.reason ELSE coalesce(l.reason, messages.error_reason) END,
      sending_until = CASE WHEN l.confirms THEN NULL ELSE messages.sending_until END,
      unconfirmed_since = CASE WHEN l.confirms THEN NULL ELSE messages.unconfirmed_since END,
      updated_at = now()
    FROM locked l WHERE messages.ctid = ANY (ARRAY(SELECT tid FROM locked)) AND messages.ctid = l.tid
    RETURNING messages.workspace_id, ${CHANGED}, l.event_id, l.n::int AS n)`);

const networkStatuses: StatusBatchKind<NetworkStatus> = {
  name: 'network-status',
  async record(db: Db, batch: NetworkStatus[]) {
    const { rows } = await db.query<BatchRow>(followed(RECORD_NETWORK_STATUS), [
      batch.map((s) => s.workspaceId),
      batch.map((s) => s.wamid),
      batch.map((s) => s.status),
      batch.map((s) => STATUS_RANK[s.status]),
      batch.map((s) => (s.status === 'failed' ? (s.error?.code ?? null) : null)),
      batch.map((s) => (s.status === 'failed' ? (s.error?.reason ?? null) : null)),
      batch.map((s) => s.callbackData),
      batch.map(() => newId('evt')),
    ]);
    return rows;
  },
  message: (s) => s.callbackData ?? s.wamid,
};

/**
 * A status from the network, by its wamid: the message moves forward to it; a late or repeated
 * status (a `sent` after `delivered`, a webhook delivered twice) changes nothing. A status for a
 * wamid Parley has not recorded: the answer to that send was lost (a timeout, a cut connection, a
 * process that died mid-call). The network echoes biz_opaque_callback_data, which Parley sets to the
 * message id, so the status names the message: it takes the wamid and moves forward, and is not sent
 * again. A message failed as never confirmed is confirmed all the same. Batched with the statuses
 * arriving meanwhile (status-batches.ts).
 */
export function recordNetworkStatus(
  ctx: AppContext,
  workspaceId: string,
  status: StatusUpdate,
): Promise<StatusChange | null> {
  return recordBatched(ctx, networkStatuses, { ...status, workspaceId });
}
