import type { AppContext } from '../../context.js';
import { newId } from '../../lib/ids.js';
import { applyTemplateStatus } from '../templates/apply-template-status.js';
import { emitEvent, queueDeliveries, recordEvent } from '../webhooks/emit.js';
import type { WebhookMessage, WebhookPayload, WebhookStatus } from './cloud-api/types.js';
import type { ConnectedNumber } from './connected-numbers.js';
import { advanceStatus, confirmByCallback, type MessageStatus, STATUS_RANK } from './status.js';

/**
 * Applies one verified webhook from the network. Idempotent: a redelivered inbound message is
 * stored once (unique wamid), statuses only move forward, a template's review sets its status.
 */
export async function receiveWebhook(
  ctx: AppContext,
  number: ConnectedNumber,
  payload: WebhookPayload,
): Promise<void> {
  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      const value = change.value;
      if (change.field === 'message_template_status_update' && entry.id === number.businessAccountId) {
        await applyTemplateStatus(ctx, number, value ?? {});
        continue;
      }
      if (change.field !== 'messages' || value?.metadata?.phone_number_id !== number.phoneNumberId) continue;
      for (const m of value.messages ?? []) {
        const name = value.contacts?.find((c) => c.wa_id === m.from)?.profile?.name ?? null;
        await storeInbound(ctx, number.workspaceId, m, name);
      }
      for (const s of value.statuses ?? []) await applyStatus(ctx, number.workspaceId, s);
    }
  }
}

async function storeInbound(ctx: AppContext, workspaceId: string, m: WebhookMessage, name: string | null) {
  const at = new Date(Number(m.timestamp) * 1000);
  const deliveries = await ctx.db.transaction(async (tx) => {
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
      [workspaceId, newId('ct'), m.from, name, at],
    );
    const contactId = rows[0]!.id;
    await tx.query(
      `UPDATE contacts SET last_inbound_at = GREATEST(last_inbound_at, $3), updated_at = now()
       WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, contactId, at],
    );
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, status, status_rank, wamid, created_at)
       VALUES ($1, $2, 'inbound', $3, $4, $5, $6, 'read', 4, $7, $8)
       ON CONFLICT (workspace_id, wamid) WHERE wamid IS NOT NULL DO NOTHING
       RETURNING id`,
      [workspaceId, newId('msg'), contactId, m.from, m.type, m.text?.body ?? null, m.id, at],
    );
    const id = inserted.rows[0]?.id;
    if (!id) return [];
    const data = {
      id,
      wamid: m.id,
      from: m.from,
      contact_id: contactId,
      type: m.type,
      text: m.text?.body ?? null,
      received_at: at.toISOString(),
    };
    return recordEvent(tx, workspaceId, 'message.received', id, data);
  });
  await queueDeliveries(ctx, workspaceId, deliveries);
}

async function applyStatus(ctx: AppContext, workspaceId: string, s: WebhookStatus) {
  if (!Object.hasOwn(STATUS_RANK, s.status)) return;
  const error = s.errors?.[0];
  const status = s.status as MessageStatus;
  const failure =
    s.status === 'failed' && error
      ? { code: error.code, reason: error.error_data?.details ?? error.message ?? error.title ?? '' }
      : undefined;
  const moved =
    (await advanceStatus(ctx.db, workspaceId, s.id, status, failure)) ??
    (typeof s.biz_opaque_callback_data === 'string'
      ? await confirmByCallback(ctx.db, workspaceId, s.biz_opaque_callback_data, s.id, status, failure)
      : null);
  if (!moved) return;
  await emitEvent(ctx, workspaceId, 'message.status', `${moved.id}:${s.status}`, {
    id: moved.id,
    wamid: s.id,
    status: s.status,
    callback_data: moved.callback_data,
    ...(s.status === 'failed' && error
      ? { error: { code: error.code, reason: error.error_data?.details ?? error.title ?? '' } }
      : {}),
  });
}
