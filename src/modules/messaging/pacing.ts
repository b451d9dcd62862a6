import { setTimeout as sleep } from 'node:timers/promises';
import type { Queryable } from '../../db/db.js';
import { onReachingNetwork } from './cloud-api/network-moment.js';

export type SendSlot =
  | {
      granted: true;
      waitMs: number;
      /** The slot, in ms since the epoch on the database's clock. */
      at: number;
    }
  | { granted: false; retryInMs: number };

interface PacedNumber {
  workspaceId: string;
  id: string;
  messagesPerSecond: number;
}

/**
 * Takes the connected number's next send slot, if it comes within `maxWaitMs`: the sender waits
 * `waitMs`, then sends. Slots are 1/messages_per_second apart and kept in the database (one row per
 * number, on the database's clock), so every API and worker process sharing it paces together. A
 * slot that is too far off is not taken (nothing is reserved); `retryInMs` says when one frees up.
 */
export async function takeSendSlot(db: Queryable, number: PacedNumber, maxWaitMs: number): Promise<SendSlot> {
  const { rows } = await db.query<SlotRow>(
    slotStatement(1, 'VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))'),
    slotParams(number, maxWaitMs),
  );
  return granted(rows[0]) ?? refusedSlot(db, number);
}

/**
 * The statement that takes a slot, its parameters (slotParams) numbered from $first, so that a
 * statement storing a message can take its slot too. `row` is the VALUES or SELECT giving the row
 * to insert: the workspace, the number, clock_timestamp() + the step. Returns wait_ms and at (of the
 * first slot, when `advance` takes several: an expression of how far the number's next slot moves).
 */
export function slotStatement(first: number, row: string, advance = `$${first + 2}`): string {
  return `INSERT INTO message_pacing AS p (workspace_id, number_id, next_slot_at) ${row}
     ON CONFLICT (workspace_id, number_id) DO UPDATE
       SET next_slot_at = GREATEST(p.next_slot_at, clock_timestamp()) + make_interval(secs => ${advance})
       WHERE p.next_slot_at <= clock_timestamp() + make_interval(secs => $${first + 3})
     RETURNING (extract(epoch FROM next_slot_at - clock_timestamp()) - ${advance})::float8 * 1000 AS wait_ms,
       (extract(epoch FROM next_slot_at) - ${advance})::float8 * 1000 AS at`;
}

export type SlotRow = { wait_ms: number | null; at: number | null };

/** The parameters of slotStatement: workspace, number, the step between slots (s), the longest wait (s). */
export function slotParams(number: PacedNumber, maxWaitMs: number): unknown[] {
  return [number.workspaceId, number.id, 1 / number.messagesPerSecond, maxWaitMs / 1000];
}

/** The slot a statement returned, if it took one. */
export function granted(row: SlotRow | undefined): SendSlot | undefined {
  if (!row || row.wait_ms === null) return undefined;
  return { granted: true, waitMs: Math.max(0, Number(row.wait_ms)), at: Number(row.at) };
}

/** No slot within the wait: when one frees up. */
export async function refusedSlot(db: Queryable, number: PacedNumber): Promise<SendSlot> {
  const later = await db.query<{ wait_ms: number }>(
    `SELECT extract(epoch FROM next_slot_at - clock_timestamp())::float8 * 1000 AS wait_ms
     FROM message_pacing WHERE workspace_id = $1 AND number_id = $2`,
    [number.workspaceId, number.id],
  );
  return { granted: false, retryInMs: Math.max(0, Number(later.rows[0]?.wait_ms ?? 0)) };
}

/** Sends of each number this process let go: when each reached the network, how many are on their way, and its bucket. */
interface Released {
  reached: number[];
  onTheirWay: number;
  tokens: number;
  filledAt: number;
}
const released = new Map<string, Released>();

// The second a number's rate holds over, as the network counts sends, with a 2% margin for the
// network's own jitter in when it sees each send: at 1% the simulator, its receive times late by tens
// of ms behind a busy core, counted up to 1,013 in one second at 1,000 (docs/benchmarks.md).
const SECOND_MS = 1_020;
// The largest burst, in seconds of the rate: sends let go together (after a stall, or slots falling
// due at once) reach the network's counter spread over its queue, so its second holds more than the
// rate (bursts of 100 at 1,000 a second put 1,039 in one second of the simulator's clock).
const BURST_S = 0.01;
// How much faster than the rate the bucket fills: a send that woke late leaves the next its place (a
// bucket filled at the rate itself, holding one send at 50/s, pushed every late send's lateness onto
// the next: 45.3/s on the embedded database). The sliding second keeps the rate.
const CATCH_UP = 1.25;

/**
 * Waits for a granted slot, then sends, keeping to the number's rate as the network sees it. The
 * database's slots space sends across processes, but a stalled event loop (a long query on the
 * embedded database) wakes several waiting sends at once, and a send let go before the stall may
 * reach the network only after it. So the decision is taken at release and counted at the moment
 * the send reaches the network: a send may go only while fewer than the rate's sends reached it in
 * the last second or are still on their way (a sliding window, so that a send that woke late may
 * still go at once and lateness never adds up into a slower rate), and while the number's bucket
 * holds a send (filled a quarter faster than the rate, holding BURST_S of it), so that a stall delays sends instead of
 * bunching them.
 */
export async function releaseSend<T>(
  number: PacedNumber,
  waitMs: number,
  send: () => Promise<T>,
): Promise<T> {
  if (waitMs > 0) await sleep(waitMs);
  const rate = number.messagesPerSecond;
  let sends = released.get(number.id);
  if (!sends) {
    sends = { reached: [], onTheirWay: 0, tokens: burst(rate), filledAt: performance.now() };
    released.set(number.id, sends);
  }
  for (;;) {
    const wait = placeIn(sends, rate, performance.now());
    if (wait === 0) break;
    await sleep(wait);
  }
  const mine = sends;
  mine.tokens--;
  mine.onTheirWay++;
  let counted = false;
  const reached = () => {
    if (counted) return;
    counted = true;
    mine.onTheirWay--;
    mine.reached.push(performance.now());
  };
  // A send that never reached the network (or whose moment went unseen) counts from when it ended.
  return onReachingNetwork(reached, send).finally(reached);
}

const burst = (rate: number) => Math.max(1, Math.floor(rate * BURST_S));

/** 0 when a send may go now, else how long until there may be room. */
function placeIn(sends: Released, rate: number, now: number): number {
  sends.reached.splice(0, firstAfter(sends.reached, now - SECOND_MS));
  if (sends.reached.length + sends.onTheirWay >= rate) {
    // Every place may be held by sends on their way: one frees a place once it reaches the network.
    return sends.reached.length ? Math.max(1, sends.reached[0]! + SECOND_MS - now) : 1;
  }
  sends.tokens = Math.min(burst(rate), sends.tokens + ((now - sends.filledAt) * rate * CATCH_UP) / 1000);
  sends.filledAt = now;
  return sends.tokens >= 1 ? 0 : Math.max(1, ((1 - sends.tokens) * 1000) / (rate * CATCH_UP));
}

/** The index of the first time after `t` in ascending `times` (their length if none). */
function firstAfter(times: number[], t: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (times[mid]! > t) high = mid;
    else low = mid + 1;
  }
  return low;
}
