import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { recordEvent } from '../webhooks/emit.js';

export interface ConsentSource {
  /**
   * keyword: an inbound text; payload: a tapped quick-reply button; api: REST v1; app: a teammate;
   * whatsapp: the customer stopped or resumed marketing messages in WhatsApp (Meta's user_preferences).
   */
  source: 'keyword' | 'payload' | 'api' | 'app' | 'whatsapp';
  messageId?: string | null;
  keyword?: string | null;
  userId?: string | null;
}

export interface ConsentChange {
  optedOut: boolean;
  phone: string;
  at: string;
  /** Outbound webhook deliveries to queue once the caller's transaction commits. */
  deliveries: string[];
}

/**
 * Opts the contact out or back in, recording how, and the `contact.opted_out`/`contact.opted_in`
 * event. Null when the contact already stood so (nothing is recorded twice) or is not the workspace's.
 */
export async function setConsent(
  q: Queryable,
  workspaceId: string,
  contactId: string,
  optedOut: boolean,
  how: ConsentSource,
): Promise<ConsentChange | null> {
  const { rows } = await q.query<{ phone: string; opted_out_at: Date | null; changed_at: Date }>(
    `UPDATE contacts SET opted_out = $3, opted_out_at = CASE WHEN $3 THEN now() END, updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND opted_out <> $3
     RETURNING phone, opted_out_at, now() AS changed_at`,
    [workspaceId, contactId, optedOut],
  );
  const changed = rows[0];
  if (!changed) return null;
  const id = newId('cc');
  await q.query(
    `INSERT INTO consent_changes (workspace_id, id, contact_id, opted_out, source, message_id, keyword, user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      workspaceId,
      id,
      contactId,
      optedOut,
      how.source,
      how.messageId ?? null,
      how.keyword ?? null,
      how.userId ?? null,
    ],
  );
  const at = changed.changed_at.toISOString();
  const deliveries = await recordEvent(
    q,
    workspaceId,
    optedOut ? 'contact.opted_out' : 'contact.opted_in',
    id,
    {
      contact_id: contactId,
      phone: changed.phone,
      opted_out: optedOut,
      at,
      source: how.source,
      message_id: how.messageId ?? null,
      keyword: how.keyword ?? null,
    },
  );
  return { optedOut, phone: changed.phone, at, deliveries };
}
