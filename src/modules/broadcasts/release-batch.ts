import type { AppContext } from '../../context.js';
import { ApiError } from '../../http/errors.js';
import { sendMessage } from '../messaging/send-message.js';
import type { ApprovedTemplate } from './approved-template.js';
import { fillValues, type ValueContact } from './fill-values.js';
import { followMessages, recipientKey } from './recipient-follow.js';
import type { PausedReason, Values } from './schemas.js';

export interface Claimed {
  contact_id: string;
  phone: string;
  contact: ValueContact | null;
}

/** Errors after which the broadcast cannot go on until someone acts: it is paused. */
const STOPPING = new Set<string>(['no_connected_number', 'plan_limit_reached'] satisfies PausedReason[]);

export class BroadcastStopped extends Error {
  constructor(
    readonly reason: PausedReason,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Up to `limit` recipients not yet released (first those a crashed delivery left half way), marked
 * releasing, with the contact each value is read from.
 */
export async function claimRecipients(
  ctx: AppContext,
  workspaceId: string,
  broadcastId: string,
  limit: number,
) {
  const { rows } = await ctx.db.query<{ contact_id: string; phone: string }>(
    `UPDATE broadcast_recipients r SET state = 'releasing', released_at = coalesce(r.released_at, now())
     FROM (SELECT contact_id FROM broadcast_recipients
           WHERE workspace_id = $1 AND broadcast_id = $2 AND state IN ('releasing', 'pending')
           ORDER BY state DESC LIMIT $3) AS next
     WHERE r.workspace_id = $1 AND r.broadcast_id = $2 AND r.contact_id = next.contact_id
     RETURNING r.contact_id, r.phone`,
    [workspaceId, broadcastId, limit],
  );
  const { rows: contacts } = await ctx.db.query<ValueContact & { id: string }>(
    'SELECT id, phone, name, email, traits FROM contacts WHERE workspace_id = $1 AND id = ANY ($2::text[])',
    [workspaceId, rows.map((r) => r.contact_id)],
  );
  const byId = new Map(contacts.map((c) => [c.id, c]));
  return rows.map((r): Claimed => ({ ...r, contact: byId.get(r.contact_id) ?? null }));
}

/** Runs `work` over `items`, `size` at a time. */
async function inPool<T>(items: T[], size: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
}

/**
 * Hands each claimed recipient's message to the ordinary send path (POST /messages' own function)
 * under its source key, so pacing, retries, status webhooks and the message log all apply, and a
 * recipient released again after a crash finds its message instead of a second send. Then each
 * recipient takes its message's state; one the send path refused before storing a message (opted
 * out since the snapshot, a value empty for them) is skipped with the reason.
 */
export async function releaseBatch(
  ctx: AppContext,
  b: { workspaceId: string; id: string; values: Values },
  template: ApprovedTemplate,
  claimed: Claimed[],
  concurrency: number,
  going: () => Promise<boolean>,
): Promise<void> {
  const skipped: { contact_id: string; reason: string }[] = [];
  const unattempted: string[] = [];
  let stop: ApiError | null = null;
  let paused = false;
  await inPool(claimed, concurrency, async (r) => {
    if (stop || paused || !(await going())) {
      paused = true;
      unattempted.push(r.contact_id);
      return;
    }
    if (!r.contact) {
      skipped.push({ contact_id: r.contact_id, reason: 'The contact was deleted' });
      return;
    }
    const filled = fillValues(template.needs, b.values, r.contact);
    if (filled.empty.length) {
      skipped.push({
        contact_id: r.contact_id,
        reason: `No value for ${filled.empty.join(', ')} and no fallback`,
      });
      return;
    }
    try {
      await sendMessage(
        ctx,
        { workspaceId: b.workspaceId, defaultCountryCode: null },
        {
          to: `+${r.phone}`,
          type: 'template',
          template: { name: template.name, language: template.language, ...filled.template },
        },
        { sourceKey: recipientKey(b.id, r.contact_id) },
      );
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (STOPPING.has(err.code)) stop = err;
      else skipped.push({ contact_id: r.contact_id, reason: err.message });
    }
  });
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
  if (stop) throw new BroadcastStopped((stop as ApiError).code as PausedReason, (stop as ApiError).message);
}

export const CANCELLED = 'The broadcast was cancelled before it was sent';
