import { OPTED_OUT_CODE } from '../messaging/cloud-api/error-code.js';

// A recipient's states in the order they happen; it only moves forward (skipped is final).
const RANK = `ARRAY['pending', 'releasing', 'queued', 'sent', 'delivered', 'read', 'failed', 'skipped']`;
const since = (column: string, states: string) =>
  `${column} = CASE WHEN x.state IN (${states}) THEN coalesce(r.${column}, now()) ELSE r.${column} END`;

/**
 * The statement that moves broadcast recipients forward to their messages' statuses. `source` is a
 * query giving messages' workspace_id, id, source_key, status, error_code and error_reason; those
 * a broadcast sent (source key `broadcast:<id>:<contact>`) find their recipient by primary key; a
 * message failed for the contact's opt-out (Meta's code, or Parley's check at sending) skips it.
 * Run inside every status change's statement (subscribed in modules/subscriptions.ts), so the
 * recipients table alone answers counts, lists and timelines. `keys`: an expression giving the array of the source's keys, so that
 * its recipients are found by primary key whatever the planner's statistics say (joined on the key
 * alone, stale statistics on a table a broadcast is filling made it read every recipient).
 */
export function followMessages(source: string, keys?: string): string {
  const part = (n: number) => `ANY (ARRAY(SELECT split_part(k, ':', ${n}) FROM unnest(${keys}) AS k))`;
  return `UPDATE broadcast_recipients r SET message_id = x.id, state = x.state,
      error_code = CASE WHEN x.state IN ('failed', 'skipped') THEN x.error_code ELSE r.error_code END,
      error_title = CASE WHEN x.state IN ('failed', 'skipped') THEN x.error_reason ELSE r.error_title END,
      ${since('sent_at', `'sent', 'delivered', 'read'`)}, ${since('delivered_at', `'delivered', 'read'`)},
      ${since('read_at', `'read'`)}, ${since('failed_at', `'failed'`)}
    FROM (SELECT s.workspace_id, s.id, s.error_code, s.error_reason,
            split_part(s.source_key, ':', 2) AS broadcast_id, split_part(s.source_key, ':', 3) AS contact_id,
            CASE WHEN s.status = 'accepted' THEN 'sent'
                 WHEN s.status = 'failed' AND s.error_code = ${OPTED_OUT_CODE} THEN 'skipped' ELSE s.status END AS state
          FROM (${source}) AS s WHERE s.source_key LIKE 'broadcast:%') AS x
    WHERE r.workspace_id = x.workspace_id AND r.broadcast_id = x.broadcast_id AND r.contact_id = x.contact_id
      ${keys ? `AND r.broadcast_id = ${part(2)} AND r.contact_id = ${part(3)}` : ''}
      AND array_position(${RANK}, r.state) < array_position(${RANK}, x.state)`;
}

/** The source key of a broadcast's message to one contact: stored once, so it is sent at most once. */
export const recipientKey = (broadcastId: string, contactId: string) =>
  `broadcast:${broadcastId}:${contactId}`;
