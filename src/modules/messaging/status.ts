import type { AppContext } from '../../context.js';
import { commitGroups } from '../../db/commit-groups.js';
import { newId } from '../../lib/ids.js';
import { queueDeliveries } from '../webhooks/emit.js';
import { type FollowedStatement, followed } from './events.js';

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

// What changeStatus answers, as StatusChange.
export const ANSWERED = 'id, wamid, status, callback_data, error_code, error_reason';
/** The columns a status update returns (`RETURNING ${CHANGED}`): its event's, and the key its broadcast recipient is found by. */
export const CHANGED = `${ANSWERED}, source_key`;

/** An update of one message's status: CTEs, the last named `m` returning CHANGED, parameters from $3. */
export interface StatusStatement {
  sql: string;
  params: unknown[];
  /** The message's id (or wamid) it changes: the order in a commit group (db/commit-groups.ts). */
  key: string;
}

// The `message.status` event in the shape recordEvent stores (webhooks/emit.ts), built from `m`.
const STATUS_EVENT = `jsonb_build_object('type', 'message.status',
  'timestamp', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'data', jsonb_build_object('id', m.id, 'wamid', m.wamid, 'status', m.status, 'callback_data', m.callback_data)
    || CASE WHEN m.status = 'failed' THEN jsonb_build_object('error',
         jsonb_build_object('code', coalesce(m.error_code, 0), 'reason', coalesce(m.error_reason, '')))
       ELSE '{}'::jsonb END)`;

// The status subscribers (events.ts) read the changed rows from `m` itself: a broadcast's recipient
// (broadcasts/recipient-follow.ts) reading the key again from messages made planning most of a status
// change (0.87 ms against 0.12, docs/benchmarks.md).
export const FOLLOW_CHANGED: FollowedStatement = {
  changed: {
    rows: 'SELECT $1::text AS workspace_id, m.id, m.source_key, m.status, m.error_code, m.error_reason FROM m',
    keys: 'ARRAY(SELECT source_key FROM m)',
  },
  sql: (followers) => followers,
};

/**
 * The CTE `event`: each row of `m` recorded as its `message.status` event for the workspace's
 * endpoints that take it. `workspace` and `eventId` are SQL expressions (the event id's prefix).
 */
export const statusEvents = (workspace: string, eventId: string) => `event AS (
   INSERT INTO webhook_deliveries (workspace_id, id, endpoint_id, event_type, event_key, payload)
   SELECT ${workspace}, ${eventId} || '_' || e.id, e.id, 'message.status', m.id || ':' || m.status, ${STATUS_EVENT}
   FROM m JOIN webhook_endpoints e ON e.workspace_id = ${workspace} AND e.enabled AND 'message.status' = ANY (e.events)
   ON CONFLICT (workspace_id, endpoint_id, event_key) DO NOTHING
   RETURNING id, event_key)`;

/**
 * Every change of a message's status goes through here: `update` changes it (returning the row, or
 * nothing when nothing moved) and its `message.status` event is recorded by the same statement, so no
 * change goes unannounced, whether Parley decided it (a refusal in the send answer, retries run out,
 * never confirmed) or the network reported it (a status webhook). One event per message and status.
 * The status subscribers (events.ts: a broadcast's recipient) follow in the same statement. One
 * statement, not a transaction: a send and each of its status webhooks cost one round trip here.
 */
export async function changeStatus(
  ctx: AppContext,
  workspaceId: string,
  update: StatusStatement,
): Promise<StatusChange | null> {
  // Grouped with other status changes into one commit (db/commit-groups.ts): each is safe to run again.
  const { rows } = await commitGroups(ctx.db).query<StatusChange & { deliveries: string[] }>(
    `WITH ${update.sql},
     ${statusEvents('$1', '$2')}${followed(FOLLOW_CHANGED)}
     SELECT ${ANSWERED}, ARRAY(SELECT id FROM event) AS deliveries FROM m`,
    [workspaceId, newId('evt'), ...update.params],
    update.key,
  );
  const row = rows[0];
  if (!row) return null;
  const { deliveries, ...changed } = row;
  await queueDeliveries(ctx, workspaceId, deliveries);
  return changed;
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
  return changeStatus(ctx, workspaceId, {
    sql: `m AS (
       UPDATE messages SET status = 'failed', status_rank = 5, error_code = $4, error_reason = $5,
         sending_until = NULL, unconfirmed_since = CASE WHEN $6 THEN NULL ELSE unconfirmed_since END,
         updated_at = now()
       WHERE workspace_id = $1 AND id = $3 AND status_rank < CASE WHEN $6 THEN 5 ELSE 1 END
       RETURNING ${CHANGED})`,
    params: [id, error.code, error.reason, refused],
    key: id,
  });
}
