import type { AppContext } from '../../context.js';
import type { Db } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { followed } from './events.js';
import { CHANGED, type StatusChange } from './status.js';
import { type BatchRow, batchStatement, recordBatched, type StatusBatchKind } from './status-batches.js';

/** The network took a message: its wamid, and the contact's WhatsApp id when the answer named it. */
export interface Accepted {
  workspaceId: string;
  id: string;
  wamid: string | null;
  waId: string | null;
}

// Sends answered together recorded as one statement: each message moves to accepted with its wamid
// (unless a status webhook moved it first), its contact takes its wa_id either way, and its event and
// broadcast recipient follow, as changeStatus does for one. The messages are locked in id order, as
// status webhooks (record-network-status.ts) and commit groups (db/commit-groups.ts) lock them, so
// they wait for each other instead of deadlocking. One round trip holds the locks: run as a commit
// group of single-message statements, the network's `sent` webhooks waited on them
// (Lock:transactionid, docs/benchmarks.md).
export const RECORD_ACCEPTED = batchStatement(`WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY
      AS i(ws, mid, new_wamid, new_wa_id, event_id, n)),
  -- Each message read by its primary key (a lateral subquery is not joined by the planner's choice:
  -- statistics from before a broadcast filled the table made it scan every message), and locked in id
  -- order (the nested loop keeps its outer side's order).
  batch AS (
    SELECT i.*, msg.contact_id, msg.status_rank FROM (SELECT * FROM input ORDER BY mid) i
    CROSS JOIN LATERAL (
      SELECT contact_id, status_rank FROM messages WHERE workspace_id = i.ws AND id = i.mid LIMIT 1) msg),
  locked AS (
    SELECT i.*, msg.tid FROM (SELECT * FROM batch WHERE status_rank < 1 ORDER BY mid) i
    CROSS JOIN LATERAL (
      SELECT ctid AS tid FROM messages WHERE workspace_id = i.ws AND id = i.mid AND status_rank < 1
      FOR UPDATE) msg),
  m AS (
    UPDATE messages SET wamid = l.new_wamid, status = 'accepted', status_rank = 1, sending_until = NULL,
      unconfirmed_since = NULL, updated_at = now()
    FROM locked l WHERE messages.ctid = ANY (ARRAY(SELECT tid FROM locked)) AND messages.ctid = l.tid
    RETURNING messages.workspace_id, ${CHANGED}, l.event_id, l.n::int AS n),
  contact AS (
    UPDATE contacts c SET wa_id = b.new_wa_id FROM batch b
    WHERE c.workspace_id = b.ws AND c.id = b.contact_id AND b.new_wa_id IS NOT NULL
      AND c.wa_id IS DISTINCT FROM b.new_wa_id)`);

const accepted: StatusBatchKind<Accepted> = {
  name: 'accepted',
  async record(db: Db, batch: Accepted[]) {
    const column = <K extends keyof Accepted>(k: K) => batch.map((a) => a[k]);
    const { rows } = await db.query<BatchRow>(followed(RECORD_ACCEPTED), [
      column('workspaceId'),
      column('id'),
      column('wamid'),
      column('waId'),
      batch.map(() => newId('evt')),
    ]);
    return rows;
  },
  message: (a) => a.id,
};

/**
 * Records that the network took a message (its answer to the send), batched with the other sends
 * answered meanwhile; resolves once committed, with the change, or null when the message had already
 * moved on (its status webhook came first).
 */
export function recordAccepted(ctx: AppContext, item: Accepted): Promise<StatusChange | null> {
  return recordBatched(ctx, accepted, item);
}
