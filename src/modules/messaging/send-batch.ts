import type { AppContext } from '../../context.js';
import { newId } from '../../lib/ids.js';
import type { OutboundMessage } from './cloud-api/send-body.js';
import type { ConnectedNumber } from './connected-numbers.js';
import { granted, refusedSlot, slotParams, slotStatement } from './pacing.js';
import { attemptInSlot, deferSend, sendDeadlineWaitMs } from './send-message.js';
import { leaseSeconds } from './send-schedule.js';

// The batch's slots: one step per message stored.
const ADVANCE = '$3::float8 * (SELECT count(*) FROM message)';

/** One template message of a batch, its parameters already checked against the template. */
export interface BatchItem<T> {
  sourceKey: string;
  contactId: string;
  message: Extract<OutboundMessage, { type: 'template' }>;
  bodyValues: string[];
  /** The caller's own reference, handed back with the outcome. */
  ref: T;
}

export interface StoredBatch<T> {
  /** Each stored message's attempt, in its own send slot: settled once its outcome is recorded. */
  attempts: Promise<unknown>[];
  /** Items the batch did not store (already stored, opted out, past the plan): the one-by-one path decides. */
  rest: BatchItem<T>[];
  /** When the batch's last slot comes, in ms from now. */
  lastSlotInMs: number;
}

/**
 * Stores a batch of template messages to known contacts in one statement (the month's count, the
 * messages and their send slots, each taking its shared row's lock once for the batch instead of once
 * per message), then lets each go in its slot through the ordinary attempt. One statement per batch
 * is what lets a broadcast reach its number's throughput: per message, the count's and the pacing's
 * row locks are held through each commit's WAL flush, and sends queue on them one at a time.
 * Messages already stored under their source key, to opted-out contacts (a MARKETING template), or
 * that the plan's month cannot take whole are not stored here: they come back in `rest`.
 */
export async function sendTemplateBatch<T>(
  ctx: AppContext,
  number: ConnectedNumber,
  template: { name: string; language: string; category: string },
  items: BatchItem<T>[],
): Promise<StoredBatch<T>> {
  const maxWaitMs = sendDeadlineWaitMs(ctx);
  const ids = items.map(() => newId('msg'));
  const { rows } = await ctx.db.query<{ ord: number; wait_ms: number | null; at: number | null }>(
    `WITH input AS (
       SELECT * FROM unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::jsonb[], $10::jsonb[])
         WITH ORDINALITY AS i(id, contact_id, phone, source_key, template_values, components, ord)),
     fresh AS (
       SELECT i.* FROM input i
       WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.workspace_id = $1 AND m.source_key = i.source_key)
         AND NOT ($11 AND EXISTS (SELECT 1 FROM contacts c
                                  WHERE c.workspace_id = $1 AND c.id = i.contact_id AND c.opted_out))),
     n AS (SELECT count(*)::int AS n FROM fresh),
     plan AS (SELECT p.messages_per_month_limit AS month_limit FROM workspaces w
              JOIN plans p ON p.name = w.plan WHERE w.id = $1),
     usage AS (
       INSERT INTO message_usage AS u (workspace_id, month, sent)
       SELECT $1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, n.n
       FROM n, plan WHERE n.n > 0 AND plan.month_limit >= n.n
       ON CONFLICT (workspace_id, month) DO UPDATE SET sent = u.sent + EXCLUDED.sent
         WHERE u.sent + EXCLUDED.sent <= (SELECT month_limit FROM plan)
       RETURNING sent),
     message AS (
       INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, template_name, template_language,
         template_values, status, status_rank, sending_until, unconfirmed_since, source_key, template_components)
       SELECT $1, f.id, 'outbound', f.contact_id, f.phone, 'template', $12, $13, f.template_values, 'queued', 0,
         now() + make_interval(secs => $14 + $3::float8 * f.ord), now(), f.source_key, f.components
       FROM fresh f, usage
       ON CONFLICT (workspace_id, source_key) WHERE source_key IS NOT NULL DO NOTHING
       RETURNING id),
     slot AS (${slotStatement(1, `SELECT $1, $2, clock_timestamp() + make_interval(secs => ${ADVANCE}) FROM message LIMIT 1`, ADVANCE)})
     SELECT f.ord::int, slot.wait_ms, slot.at FROM fresh f JOIN message ON message.id = f.id LEFT JOIN slot ON true
     ORDER BY f.ord`,
    [
      ...slotParams(number, maxWaitMs),
      ids,
      items.map((i) => i.contactId),
      items.map((i) => i.message.to),
      items.map((i) => i.sourceKey),
      items.map((i) => JSON.stringify(i.bodyValues)),
      items.map((i) => JSON.stringify(i.message.components)),
      template.category.toUpperCase() === 'MARKETING',
      template.name,
      template.language,
      leaseSeconds(maxWaitMs),
    ],
  );
  const stored = new Set(rows.map((r) => r.ord - 1));
  const rest = items.filter((_, i) => !stored.has(i));
  const slot = granted(rows[0]) ?? (rows.length ? await refusedSlot(ctx.db, number) : undefined);
  const step = 1000 / number.messagesPerSecond;
  const attempts = rows.map(({ ord }, k) => {
    const i = ord - 1;
    const job = { workspaceId: number.workspaceId, messageId: ids[i]! };
    if (!slot?.granted) return deferSend(ctx, job, slot?.retryInMs ?? 0);
    return attemptInSlot(ctx, number, job.messageId, items[i]!.message, slot.waitMs + k * step);
  });
  const lastSlotInMs = slot?.granted ? slot.waitMs + Math.max(0, rows.length - 1) * step : 0;
  return { attempts, rest, lastSlotInMs };
}
