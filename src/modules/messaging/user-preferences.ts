import type { AppContext } from '../../context.js';
import { newId } from '../../lib/ids.js';
import { setConsent } from '../contacts/set-consent.js';
import { queueDeliveries } from '../webhooks/emit.js';
import { isObject, type Read } from './webhook-items.js';

/** One item of a `user_preferences` change: the customer stopped or resumed marketing messages in WhatsApp. */
export interface UserPreference {
  waId: string;
  optedOut: boolean;
  at: Date;
}

const WA_ID = /^\d{4,20}$/;
const UNIX_SECONDS = /^\d{1,11}$/;

/**
 * One item of the change's `user_preferences` list, as Meta's user_preferences webhook reference
 * gives it: `{wa_id, detail, category: "marketing_messages", value: "stop" | "resume", timestamp}`.
 * Another category (none is documented yet) is left alone (`null`).
 */
export function readUserPreference(p: unknown): Read<UserPreference | null> {
  if (!isObject(p)) return { ok: false, problem: 'user preference is not an object' };
  if (p.category !== 'marketing_messages') return { ok: true, value: null };
  if (typeof p.wa_id !== 'string' || !WA_ID.test(p.wa_id))
    return { ok: false, problem: 'wa_id is missing or not a WhatsApp phone number' };
  if (p.value !== 'stop' && p.value !== 'resume')
    return { ok: false, problem: 'value is neither stop nor resume' };
  const ts = typeof p.timestamp === 'number' ? String(p.timestamp) : p.timestamp;
  if (typeof ts !== 'string' || !UNIX_SECONDS.test(ts))
    return { ok: false, problem: 'timestamp is missing or not Unix seconds' };
  return {
    ok: true,
    value: { waId: p.wa_id, optedOut: p.value === 'stop', at: new Date(Number(ts) * 1000) },
  };
}

/**
 * Records the customer's choice as the contact's opt-out or opt-in (source `whatsapp`), with its
 * `contact.opted_out`/`contact.opted_in` event. A stop from someone who is not yet a contact makes
 * the contact, so that no later import or upsert sends them marketing. A choice older than the
 * contact's last consent change (a delivery Meta retried late) changes nothing: the newer one stands.
 */
export async function applyUserPreference(
  ctx: AppContext,
  workspaceId: string,
  pref: UserPreference,
): Promise<void> {
  const deliveries = await ctx.db.transaction(async (tx) => {
    await tx.query("SET LOCAL parley.contact_limit_mode = 'count_only'");
    if (pref.optedOut) {
      await tx.query(
        `INSERT INTO contacts (workspace_id, id, phone, wa_id) SELECT $1, $2, $3, $3
         WHERE NOT EXISTS (SELECT 1 FROM contacts WHERE workspace_id = $1 AND wa_id = $3)
         ON CONFLICT (workspace_id, phone) DO NOTHING`,
        [workspaceId, newId('ct'), pref.waId],
      );
    }
    // The wa_id the network reported finds the contact even when its number was written otherwise.
    const { rows } = await tx.query<{ id: string; last_change: Date | null }>(
      `SELECT c.id, (SELECT max(created_at) FROM consent_changes cc
                     WHERE cc.workspace_id = $1 AND cc.contact_id = c.id) AS last_change
       FROM contacts c WHERE c.workspace_id = $1 AND (c.wa_id = $2 OR c.phone = $2)
       ORDER BY c.wa_id = $2 DESC NULLS LAST LIMIT 1 FOR UPDATE OF c`,
      [workspaceId, pref.waId],
    );
    const contact = rows[0];
    // Meta's timestamp is in whole seconds: only a change recorded in a later second is newer.
    if (!contact || (contact.last_change && contact.last_change.getTime() >= pref.at.getTime() + 1000))
      return [];
    const change = await setConsent(tx, workspaceId, contact.id, pref.optedOut, { source: 'whatsapp' });
    return change?.deliveries ?? [];
  });
  await queueDeliveries(ctx, workspaceId, deliveries);
}
