import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import { newId } from '../../lib/ids.js';
import { queueInboundMedia } from '../media/inbound-media.js';
import { applyTemplateStatus } from '../templates/apply-template-status.js';
import { queueDeliveries, recordEvent } from '../webhooks/emit.js';
import type { ConnectedNumber } from './connected-numbers.js';
import { publish, runAfterCommit } from './events.js';
import { applyInboundConsent } from './inbound-consent.js';
import { buttonPayload } from './inbound-content.js';
import { applyNumberUpdate, NUMBER_FIELDS, readNumberUpdate } from './number-updates.js';
import { recordNetworkStatus } from './record-network-status.js';
import { sendMessage } from './send-message.js';
import { applyUserPreference, readUserPreference } from './user-preferences.js';
import {
  type InboundMessage,
  isObject,
  type Read,
  readInbound,
  readStatus,
  readTemplateStatus,
} from './webhook-items.js';

/** One POST from the network: `id` names it in the log (the same bytes redelivered, the same id). */
export interface Delivery {
  id: string;
  log: FastifyBaseLogger;
}

// SQLSTATE classes that say an item's own content could not be stored (data exception, integrity
// constraint, program limit such as an index row too large): that item is skipped. Any other
// failure is Parley's (the database down, above all) and fails the delivery so that Meta retries.
const REFUSED_ITEM = /^(22|23|54)/;

/**
 * Applies one verified webhook from the network. Each entry, change, message and status stands
 * alone: a malformed one is logged and skipped and the rest are applied, so one bad item never
 * blocks a delivery that Meta would otherwise send again for days. Idempotent: a redelivered inbound
 * message is stored once (unique wamid), statuses only move forward, a template's review sets its status,
 * a customer's stop or resume of marketing messages (user_preferences) is their consent.
 */
export async function receiveWebhook(
  ctx: AppContext,
  number: ConnectedNumber,
  entries: unknown[],
  delivery: Delivery,
): Promise<void> {
  const skip = (where: string, problem: string, wamid?: string) =>
    delivery.log.warn(
      { deliveryId: delivery.id, numberId: number.id, item: where, ...(wamid ? { wamid } : {}), problem },
      'webhook item skipped',
    );
  const apply = async <T>(where: string, read: Read<T>, work: (value: T) => Promise<void>) => {
    if (!read.ok) return skip(where, read.problem, read.wamid);
    try {
      await work(read.value);
    } catch (err) {
      const state = (err as { code?: unknown }).code;
      if (typeof state !== 'string' || !REFUSED_ITEM.test(state)) throw err;
      skip(
        where,
        `the database refused it (SQLSTATE ${state})`,
        (read.value as { wamid?: string } | null)?.wamid,
      );
    }
  };
  for (const [e, entry] of entries.entries()) {
    if (!isObject(entry) || !Array.isArray(entry.changes)) {
      skip(`entry[${e}]`, 'entry is not an object with a changes list');
      continue;
    }
    for (const [c, change] of entry.changes.entries()) {
      const where = `entry[${e}].changes[${c}]`;
      const value = isObject(change) ? change.value : undefined;
      if (!isObject(change) || !isObject(value)) {
        skip(where, 'change has no value object');
        continue;
      }
      if (change.field === 'message_template_status_update' && entry.id === number.businessAccountId) {
        await apply(where, readTemplateStatus(value), (v) => applyTemplateStatus(ctx, number, v));
        continue;
      }
      if (typeof change.field === 'string' && NUMBER_FIELDS.has(change.field)) {
        if (entry.id !== number.businessAccountId) continue;
        await apply(where, readNumberUpdate(change.field, value, number), (u) =>
          applyNumberUpdate(ctx, number, u),
        );
        continue;
      }
      const metadata = isObject(value.metadata) ? value.metadata : undefined;
      if (change.field === 'user_preferences' && metadata?.phone_number_id === number.phoneNumberId) {
        for (const [i, p] of list(value.user_preferences, `${where}.user_preferences`, skip).entries()) {
          await apply(`${where}.user_preferences[${i}]`, readUserPreference(p), async (pref) => {
            if (pref) await applyUserPreference(ctx, number.workspaceId, pref);
          });
        }
        continue;
      }
      if (change.field !== 'messages' || metadata?.phone_number_id !== number.phoneNumberId) continue;
      for (const [i, m] of list(value.messages, `${where}.messages`, skip).entries()) {
        await apply(`${where}.messages[${i}]`, readInbound(m, value.contacts), (message) =>
          storeInbound(ctx, number.workspaceId, message),
        );
      }
      for (const [i, s] of list(value.statuses, `${where}.statuses`, skip).entries()) {
        await apply(`${where}.statuses[${i}]`, readStatus(s), async (status) => {
          if (status) await recordNetworkStatus(ctx, number.workspaceId, status);
        });
      }
    }
  }
}

function list(value: unknown, where: string, skip: (where: string, problem: string) => void): unknown[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  skip(where, 'is not a list');
  return [];
}

async function storeInbound(ctx: AppContext, workspaceId: string, m: InboundMessage) {
  const outcome = await ctx.db.transaction(async (tx) => {
    // Customers who write in are always stored, even past the plan's contact limit.
    await tx.query("SET LOCAL parley.contact_limit_mode = 'count_only'");
    // The wa_id the network reported on a send finds the contact even when the number was written
    // differently (Brazil's ninth digit), before a new contact is made for the sender's digits.
    const { rows } = await tx.query<{ id: string }>(
      `WITH known AS (SELECT id FROM contacts WHERE workspace_id = $1 AND wa_id = $3 LIMIT 1),
       upserted AS (
         INSERT INTO contacts (workspace_id, id, phone, name, wa_id, last_inbound_at)
         SELECT $1, $2, $3, $4, $3, $5 WHERE NOT EXISTS (SELECT 1 FROM known)
         ON CONFLICT (workspace_id, phone) DO UPDATE SET wa_id = EXCLUDED.wa_id,
           name = COALESCE(contacts.name, EXCLUDED.name),
           last_inbound_at = GREATEST(contacts.last_inbound_at, EXCLUDED.last_inbound_at), updated_at = now()
         RETURNING id)
       SELECT id FROM upserted UNION ALL SELECT id FROM known`,
      [workspaceId, newId('ct'), m.from, m.name, m.at],
    );
    const contactId = rows[0]!.id;
    await tx.query(
      `UPDATE contacts SET last_inbound_at = GREATEST(last_inbound_at, $3), updated_at = now()
       WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, contactId, m.at],
    );
    // Meta's timestamp is in whole seconds: read as the end of its second (never past now), a reply
    // sorts after the question sent earlier in that second.
    const inserted = await tx.query<{ id: string; reply_to: string | null }>(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, content, context_wamid,
         reply_to, status, status_rank, wamid, created_at, context, referral)
       VALUES ($1, $2, 'inbound', $3, $4, $5, $6, $7::jsonb, $8,
         (SELECT id FROM messages WHERE workspace_id = $1 AND wamid = $8), 'read', 4, $9,
         LEAST(now(), $10::timestamptz + interval '999 milliseconds'), $11::jsonb, $12::jsonb)
       ON CONFLICT (workspace_id, wamid) WHERE wamid IS NOT NULL DO NOTHING
       RETURNING id, reply_to`,
      [
        workspaceId,
        newId('msg'),
        contactId,
        m.from,
        m.type,
        m.text,
        m.content === null ? null : JSON.stringify(m.content),
        m.contextWamid,
        m.wamid,
        m.at,
        m.context === null ? null : JSON.stringify(m.context),
        m.referral === null ? null : JSON.stringify(m.referral),
      ],
    );
    const id = inserted.rows[0]?.id;
    if (!id) return { after: [], media: false, deliveries: [], consent: null };
    const media = await queueInboundMedia(tx, ctx.queue, {
      workspaceId,
      id,
      type: m.type,
      content: m.content,
    });
    const data = {
      id,
      wamid: m.wamid,
      from: m.from,
      contact_id: contactId,
      type: m.type,
      text: m.text,
      content: m.content,
      context:
        m.contextWamid || m.context
          ? { ...forwarding(m.context), wamid: m.contextWamid, message_id: inserted.rows[0]!.reply_to }
          : null,
      referral: m.referral,
      received_at: m.at.toISOString(),
    };
    const deliveries = await recordEvent(tx, workspaceId, 'message.received', id, data);
    const consent = await applyInboundConsent(tx, workspaceId, contactId, id, m);
    // Its subscribers (automation, broadcasts: modules/subscriptions.ts) know what the message did to
    // the contact's consent, and their work commits with the message.
    const after = await publish(ctx, tx, 'message.received', {
      workspaceId,
      contactId,
      at: m.at,
      message: {
        message_id: id,
        type: m.type,
        text: m.text,
        button_payload: buttonPayload(m.content),
        reply_to: inserted.rows[0]!.reply_to,
      },
      consent: consent ? (consent.optedOut ? 'opted_out' : 'opted_in') : null,
    });
    return {
      after,
      media: media !== null,
      deliveries: [...deliveries, ...(consent?.change?.deliveries ?? [])],
      consent,
      id,
    };
  });
  await runAfterCommit(outcome.after);
  if (outcome.media) ctx.queue?.wake('media.download');
  await queueDeliveries(ctx, workspaceId, outcome.deliveries);
  const consent = outcome.consent;
  if (consent?.change && consent.reply)
    confirmConsent(ctx, workspaceId, outcome.id!, consent.change.phone, consent.reply);
}

/**
 * The workspace's confirmation of an opt-out or opt-in, as free text inside the window the keyword
 * just opened. Keyed by the inbound message, so a redelivered webhook never sends it twice; not
 * awaited, so the network's webhook is answered without waiting on a send.
 */
function confirmConsent(
  ctx: AppContext,
  workspaceId: string,
  inboundId: string,
  phone: string,
  text: string,
) {
  sendMessage(
    ctx,
    { workspaceId, defaultCountryCode: null },
    { to: `+${phone}`, type: 'text', text: text.slice(0, 4096) },
    { sourceKey: `consent/${inboundId}` },
  ).catch((err: unknown) =>
    ctx.log.warn({ err, workspaceId, inboundId }, 'the opt-out or opt-in confirmation was not sent'),
  );
}

/** What the event's `context` carries besides the replied-to message: whether it was forwarded, the product asked about. */
function forwarding(context: Record<string, unknown> | null) {
  if (!context) return {};
  const { forwarded, frequently_forwarded, referred_product } = context;
  return { forwarded, frequently_forwarded, referred_product };
}
