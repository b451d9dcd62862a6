import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import type { AfterCommit, MessageReceived, ReceivedMessage } from '../messaging/events.js';

/** What a flow triggered by `message.received` reads as `event.properties` (declared by messaging, which publishes it). */
export type { ReceivedMessage };

/**
 * An inbound message starts the published flows whose trigger event is `message.received`, so that
 * a condition can branch on `event.properties.button_payload` or `event.properties.text`. Recorded
 * in the transaction that stores the message, marked for the workers to start its runs (the outbox,
 * event-outbox.ts), woken once that commits; nothing is recorded when no flow listens. Subscribed
 * to messaging's `message.received` (modules/subscriptions.ts).
 */
export async function startMessageFlows(
  ctx: AppContext,
  tx: Queryable,
  { workspaceId, contactId, message }: MessageReceived,
): Promise<AfterCommit | undefined> {
  const queue = ctx.queue;
  if (!queue) return undefined;
  const id = newId('ev');
  const { rows } = await tx.query(
    `WITH flows AS (
       SELECT jsonb_agg(jsonb_build_object('id', a.id, 'version', a.published_version)) AS list
       FROM automations a
       WHERE a.workspace_id = $1 AND a.trigger_type = 'event' AND a.trigger_event = 'message.received'
         AND a.published_version IS NOT NULL)
     INSERT INTO events (workspace_id, id, contact_id, name, properties, flows, runs_pending)
     SELECT $1, $2, $3, 'message.received', $4::jsonb, flows.list, true FROM flows WHERE flows.list IS NOT NULL
     RETURNING id`,
    [workspaceId, id, contactId, JSON.stringify(message)],
  );
  return rows.length > 0 ? () => queue.wake('automation.start') : undefined;
}
