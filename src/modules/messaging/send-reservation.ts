import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { Batches, batchesOf, type Entry } from '../../db/batches.js';
import type { Queryable } from '../../db/db.js';
import { allOrOneByOne } from '../../db/limited-batches.js';
import type { ConnectedNumber } from './connected-numbers.js';
import { granted, refusedSlot, type SendSlot, type SlotRow, slotParams, slotStatement } from './pacing.js';

/** A send's place in the plan's month and its send slot, taken before its message is stored. */
export interface Reservation {
  slot: SendSlot;
  /** When the slot was read: its wait runs from here. */
  at: number;
  /** The month counted, for giving the place back should the message not be stored. */
  month: string;
}

type Item = { number: ConnectedNumber; maxWaitMs: number };

// Batches at once and the most sends in one: concurrent sends of a number take the month's count and
// the number's slots once per batch.
const AT_ONCE = 4;
const LARGEST = 100;

/**
 * Counts a send in the plan's month and takes its send slot, together with the other sends of the
 * number arriving meanwhile: one statement, one commit for them. The month's count and the number's
 * pacing row are every send's shared rows, each held until its commit: taken once per send, sends
 * queued on them one commit at a time, and with either alone taken out nothing changed
 * (docs/benchmarks.md). Past the plan's month: 402, exactly (db/limited-batches.ts).
 */
export function reserveSend(
  ctx: AppContext,
  number: ConnectedNumber,
  maxWaitMs: number,
): Promise<Reservation> {
  const batches = batchesOf(
    ctx,
    'send-reservations',
    () =>
      new Batches<Item, Reservation>(
        allOrOneByOne(
          ({ number: n }) => `${n.workspaceId}\u0000${n.id}`,
          (entries) => reserve(ctx.db, entries),
          () =>
            new ApiError(
              'plan_limit_reached',
              "The plan's messages per month are used up; upgrade the plan to send more",
            ),
        ),
        AT_ONCE,
        LARGEST,
      ),
  );
  return batches.add({ number, maxWaitMs });
}

/** Reserves the whole batch, answering each entry, or nothing (false). */
async function reserve(db: Queryable, batch: Entry<Item, Reservation>[]): Promise<boolean> {
  const { number, maxWaitMs } = batch[0]!.item;
  const advance = '$3::float8 * $5';
  const { rows } = await db.query<SlotRow & { month: string | null }>(
    `WITH plan AS (
       SELECT p.messages_per_month_limit AS month_limit FROM workspaces w JOIN plans p ON p.name = w.plan WHERE w.id = $1),
     usage AS (
       INSERT INTO message_usage AS u (workspace_id, month, sent)
       SELECT $1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, $5 FROM plan WHERE plan.month_limit >= $5
       ON CONFLICT (workspace_id, month) DO UPDATE SET sent = u.sent + EXCLUDED.sent
         WHERE u.sent + EXCLUDED.sent <= (SELECT month_limit FROM plan)
       RETURNING month::text),
     slot AS (${slotStatement(1, `SELECT $1, $2, clock_timestamp() + make_interval(secs => ${advance}) FROM usage`, advance)})
     SELECT usage.month, slot.wait_ms, slot.at FROM usage LEFT JOIN slot ON true`,
    [...slotParams(number, maxWaitMs), batch.length],
  );
  const month = rows[0]?.month;
  if (!month) return false;
  const at = performance.now();
  const first = granted(rows[0]) ?? (await refusedSlot(db, number));
  const step = 1000 / number.messagesPerSecond;
  batch.forEach((entry, k) => {
    const slot: SendSlot = first.granted
      ? { granted: true, waitMs: first.waitMs + k * step, at: first.at + k * step }
      : first;
    entry.resolve({ slot, at, month });
  });
  return true;
}

/** The slot's wait from now. */
export function slotNow({ slot, at }: Reservation): SendSlot {
  return slot.granted ? { ...slot, waitMs: Math.max(0, slot.waitMs - (performance.now() - at)) } : slot;
}

/** A reserved send whose message was not stored: its place in the month goes back to the plan. */
export async function giveBack(db: Queryable, workspaceId: string, r: Reservation): Promise<void> {
  await db.query(
    'UPDATE message_usage SET sent = sent - 1 WHERE workspace_id = $1 AND month = $2::date AND sent > 0',
    [workspaceId, r.month],
  );
}
