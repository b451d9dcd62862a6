import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';

/** What a flow triggered by `message.received` reads as `event.properties`. */
export interface ReceivedMessage {
  message_id: string;
  type: string;
  text: string | null;
  /** A quick-reply button's payload ("STOP"), or the id of the interactive button or list row tapped. */
  button_payload: string | null;
  /** Parley's id of the message this one replies or reacts to, when Parley sent it. */
  reply_to: string | null;
}

/**
 * An inbound message starts the published flows whose trigger event is `message.received`, so that
 * a condition can branch on `event.properties.button_payload` or `event.properties.text`. Recorded
 * in the transaction that stores the message, marked for the workers to start its runs (the outbox,
 * event-outbox.ts); nothing is recorded when no flow listens.
 */
export async function startMessageFlows(
  ctx: AppContext,
  tx: Queryable,
  workspaceId: string,
  contactId: string,
  message: ReceivedMessage,
): Promise<boolean> {
  if (!ctx.queue) return false;
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
  return rows.length > 0;
}
