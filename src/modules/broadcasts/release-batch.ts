import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { normalizePhone } from '../../lib/phone.js';
import type { ConnectedNumber } from '../messaging/connected-numbers.js';
import { freeAt } from '../messaging/retry-send.js';
import { type BatchItem, sendTemplateBatch } from '../messaging/send-batch.js';
import { sendMessage } from '../messaging/send-message.js';
import { type TemplateValues, templateComponents } from '../messaging/template-parameters.js';
import type { ApprovedTemplate } from './approved-template.js';
import { fillValues, type ValueContact } from './fill-values.js';
import { followMessages, recipientKey } from './recipient-follow.js';
import type { PausedReason, Values } from './schemas.js';

export interface Claimed {
  contact_id: string;
  phone: string;
  /** Left releasing by a delivery that died. */
  leftover: boolean;
  contact: ValueContact | null;
}

/** Errors after which the broadcast cannot go on until someone acts: it is paused. */
const STOPPING = new Set<string>([
  'no_connected_number',
  'plan_limit_reached',
  'number_paused',
] satisfies PausedReason[]);

/**
 * Up to `limit` recipients not yet released, marked releasing, with the contact each value is read
 * from. `leftovers`, at a delivery's start: first those a delivery that died left releasing; never
 * later, when the releasing ones are this delivery's own, on their way. Rows another statement holds
 * (a dead delivery's sends, moved by their status webhooks) are passed over, not waited for: waiting,
 * the claim and those updates locked rows in different orders and deadlocked, failing the delivery
 * after a kill (a 5 s retry each time, in the bench); a later delivery's claim takes them. The
 * claimed rows are chosen once (MATERIALIZED): as a subquery joined to the update, the choice was
 * made again for rows the update had just changed, and claimed past the limit (the tier's cap).
 */
export async function claimRecipients(
  ctx: AppContext,
  workspaceId: string,
  broadcastId: string,
  limit: number,
  leftovers: boolean,
) {
  const { rows } = await ctx.db.query<{ contact_id: string; phone: string; leftover: boolean }>(
    `WITH next AS MATERIALIZED (
       SELECT contact_id, state FROM broadcast_recipients
       WHERE workspace_id = $1 AND broadcast_id = $2 AND state IN (${leftovers ? `'releasing', 'pending'` : `'pending'`})
       ORDER BY state DESC LIMIT $3 FOR UPDATE SKIP LOCKED)
     UPDATE broadcast_recipients r SET state = 'releasing', released_at = coalesce(r.released_at, now())
     FROM next WHERE r.workspace_id = $1 AND r.broadcast_id = $2 AND r.contact_id = next.contact_id
     RETURNING r.contact_id, r.phone, next.state = 'releasing' AS leftover`,
    [workspaceId, broadcastId, limit],
  );
  const { rows: contacts } = await ctx.db.query<ValueContact & { id: string }>(
    'SELECT id, phone, name, email, traits FROM contacts WHERE workspace_id = $1 AND id = ANY ($2::text[])',
    [workspaceId, rows.map((r) => r.contact_id)],
  );
  const byId = new Map(contacts.map((c) => [c.id, c]));
  return rows.map((r): Claimed => ({ ...r, contact: byId.get(r.contact_id) ?? null }));
}

/** A recipient with the values its message was filled with. */
type Ref = { claimed: Claimed; values: TemplateValues };

/** What a delivery keeps between batches: when the next chunk is to be stored. */
export interface Feed {
  nextStoreAt: number;
}

// A chunk is about a fifth of a second of sends at the number's rate, stored in one statement.
const chunkSize = (messagesPerSecond: number) =>
  Math.max(1, Math.min(200, Math.round(messagesPerSecond / 5)));
// The next chunk is stored this long before the last slot of the one before: sends never wait for a
// store, and a pause stops what is not yet stored (at most this long of sends goes out after it).
const STORE_AHEAD_MS = 300;

export interface Released {
  /** Why the broadcast cannot go on (the plan's month used up, the number gone), found while storing. */
  stopped: ApiError | null;
  /** Settles once every message of the batch has its outcome recorded and the recipients follow them. */
  settled: Promise<void>;
}

/**
 * Stores the claimed recipients' messages a chunk at a time (messaging/send-batch.ts: the send path
 * of POST /messages, batched) under their source keys, so pacing, retries, status webhooks and the
 * message log all apply, and a recipient released again after a crash finds its message instead of a
 * second send; chunks are stored just ahead of their slots, so the next batch is stored while this
 * one's sends are on their way. What a chunk cannot store goes one by one through sendMessage. Once
 * all have their outcome, each recipient takes its message's state; one refused before a message was
 * stored (opted out since the snapshot, a value empty for them) is skipped with the reason.
 */
export async function releaseBatch(
  ctx: AppContext,
  b: { workspaceId: string; id: string; values: Values },
  number: ConnectedNumber,
  template: ApprovedTemplate,
  claimed: Claimed[],
  going: () => Promise<boolean>,
  feed: Feed,
): Promise<Released> {
  const skipped: { contact_id: string; reason: string }[] = [];
  const items: BatchItem<Ref>[] = [];
  for (const r of claimed) {
    const item = batchItem(b, template, r);
    if (typeof item === 'string') skipped.push({ contact_id: r.contact_id, reason: item });
    else items.push(item);
  }
  const attempts: Promise<unknown>[] = [];
  const unattempted: string[] = [];
  let stopped: ApiError | null = null;
  const size = chunkSize(number.messagesPerSecond);
  for (let at = 0; at < items.length; at += size) {
    const wait = feed.nextStoreAt - Date.now();
    if (wait > 0) await sleep(wait);
    if (stopped || !(await going())) {
      unattempted.push(...items.slice(at).map((i) => i.ref.claimed.contact_id));
      break;
    }
    const batch = await sendTemplateBatch(ctx, number, template, items.slice(at, at + size));
    attempts.push(...batch.attempts);
    feed.nextStoreAt = Date.now() + batch.lastSlotInMs - STORE_AHEAD_MS;
    for (const item of await handOnStored(ctx, b.workspaceId, batch.rest)) {
      stopped ??= await sendOne(ctx, b.workspaceId, item, skipped);
      if (stopped) unattempted.push(item.ref.claimed.contact_id);
    }
  }
  const settled = Promise.allSettled(attempts).then(() => follow(ctx, b, claimed, skipped, unattempted));
  return { stopped, settled };
}

/** A recipient's message, or why it cannot have one. */
function batchItem(
  b: { id: string; values: Values },
  template: ApprovedTemplate,
  r: Claimed,
): BatchItem<Ref> | string {
  if (!r.contact) return 'The contact was deleted';
  const filled = fillValues(template.needs, b.values, r.contact);
  if (filled.empty.length) return `No value for ${filled.empty.join(', ')} and no fallback`;
  const to = normalizePhone(`+${r.phone}`, null);
  if (!to.ok) return to.message;
  try {
    const { components, bodyValues } = templateComponents(template.needs, filled.template);
    return {
      sourceKey: recipientKey(b.id, r.contact_id),
      contactId: r.contact_id,
      message: {
        type: 'template',
        to: to.digits,
        name: template.name,
        language: template.language,
        components,
      },
      bodyValues,
      ref: { claimed: r, values: filled.template },
    };
  } catch (err) {
    if (err instanceof ApiError) return err.message;
    throw err;
  }
}

/**
 * Items whose message is stored already (released by a delivery that died, and released again): each
 * still queued gets its messages.send job for the moment its attempt's lease and confirmation window
 * free it, in one insert for them all. One by one through sendMessage they took a round trip or two
 * each, and their jobs three more on waking early: about 20 s of silence per kill at 1,000 sends in
 * flight. Answers the items with no message, for the one-by-one path.
 */
async function handOnStored<T>(ctx: AppContext, workspaceId: string, items: BatchItem<T>[]) {
  if (items.length === 0) return items;
  const { rows } = await ctx.db.query<{ source_key: string; id: string; free_at: Date | null }>(
    `SELECT source_key, id, CASE WHEN status_rank = 0 THEN ${freeAt('$3')} END AS free_at
     FROM messages WHERE workspace_id = $1 AND source_key = ANY ($2::text[])`,
    [workspaceId, items.map((i) => i.sourceKey), ctx.config.sendConfirmWindowMs / 1000],
  );
  await ctx.queue?.insert(
    'messages.send',
    rows.flatMap((r) =>
      r.free_at
        ? [{ data: { workspaceId, messageId: r.id }, startAfter: new Date(r.free_at.getTime() + 1_000) }]
        : [],
    ),
  );
  const stored = new Set(rows.map((r) => r.source_key));
  return items.filter((i) => !stored.has(i.sourceKey));
}

/** One message the batch did not store, through POST /messages' own function; a stopping refusal is answered. */
async function sendOne(
  ctx: AppContext,
  workspaceId: string,
  item: BatchItem<Ref>,
  skipped: { contact_id: string; reason: string }[],
): Promise<ApiError | null> {
  try {
    await sendMessage(
      ctx,
      { workspaceId, defaultCountryCode: null },
      {
        to: `+${item.message.to}`,
        type: 'template',
        template: { name: item.message.name, language: item.message.language, ...item.ref.values },
      },
      { sourceKey: item.sourceKey },
    );
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (STOPPING.has(err.code)) return err;
    skipped.push({ contact_id: item.ref.claimed.contact_id, reason: err.message });
  }
  return null;
}

async function follow(
  ctx: AppContext,
  b: { workspaceId: string; id: string },
  claimed: Claimed[],
  skipped: { contact_id: string; reason: string }[],
  unattempted: string[],
) {
  const keys = claimed.map((r) => recipientKey(b.id, r.contact_id));
  await ctx.db.query(
    followMessages(
      `SELECT workspace_id, id, source_key, status, error_code, error_reason FROM messages
       WHERE workspace_id = $1 AND source_key = ANY ($2::text[])`,
    ),
    [b.workspaceId, keys],
  );
  // A refusal that stored a failed message (the network's) is that message's; the rest are skipped.
  await ctx.db.query(
    `UPDATE broadcast_recipients r SET state = 'skipped', error_title = x.reason
     FROM jsonb_to_recordset($3::jsonb) AS x(contact_id text, reason text)
     WHERE r.workspace_id = $1 AND r.broadcast_id = $2 AND r.contact_id = x.contact_id AND r.state = 'releasing'`,
    [b.workspaceId, b.id, JSON.stringify(skipped)],
  );
  // Paused or cancelled mid-batch: what was not handed on waits for a resume, or is skipped for good.
  await ctx.db.query(
    `UPDATE broadcast_recipients r SET state = CASE WHEN b.status = 'cancelled' THEN 'skipped' ELSE 'pending' END,
       error_title = CASE WHEN b.status = 'cancelled' THEN $4 END
     FROM broadcasts b
     WHERE r.workspace_id = $1 AND r.broadcast_id = $2 AND r.contact_id = ANY ($3::text[]) AND r.state = 'releasing'
       AND b.workspace_id = $1 AND b.id = $2`,
    [b.workspaceId, b.id, unattempted, CANCELLED],
  );
}

export const CANCELLED = 'The broadcast was cancelled before it was sent';
