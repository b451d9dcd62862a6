import { setTimeout as sleep } from 'node:timers/promises';
import type { Queryable } from '../../db/db.js';

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
 * to insert: the workspace, the number, clock_timestamp() + the step. Returns wait_ms and at.
 */
export function slotStatement(first: number, row: string): string {
  const step = `$${first + 2}`;
  return `INSERT INTO message_pacing AS p (workspace_id, number_id, next_slot_at) ${row}
     ON CONFLICT (workspace_id, number_id) DO UPDATE
       SET next_slot_at = GREATEST(p.next_slot_at, clock_timestamp()) + make_interval(secs => ${step})
       WHERE p.next_slot_at <= clock_timestamp() + make_interval(secs => $${first + 3})
     RETURNING (extract(epoch FROM next_slot_at - clock_timestamp()) - ${step})::float8 * 1000 AS wait_ms,
       (extract(epoch FROM next_slot_at) - ${step})::float8 * 1000 AS at`;
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

/** When this process last let sends of each number go: a ring of the last messages_per_second. */
const recent = new Map<string, { at: number[]; next: number }>();

/**
 * Waits for a granted slot. A stalled event loop (a long query on the embedded database) wakes
 * several waiting sends at once, so this process also keeps to the number's rate in any one second
 * on its own clock. A sliding second, not a fixed gap: a send that woke late may still go at once
 * when the last second has room, so lateness never adds up into a slower rate.
 */
export async function waitForSlot(number: PacedNumber, waitMs: number): Promise<void> {
  if (waitMs > 0) await sleep(waitMs);
  const rate = number.messagesPerSecond;
  let ring = recent.get(number.id);
  if (!ring || ring.at.length !== rate) {
    ring = { at: new Array<number>(rate).fill(Number.NEGATIVE_INFINITY), next: 0 };
    recent.set(number.id, ring);
  }
  for (;;) {
    // The oldest of the last `rate` sends must be a second old before another may go.
    const free = ring.at[ring.next]! + 1000;
    const now = performance.now();
    if (now >= free) {
      ring.at[ring.next] = now;
      ring.next = (ring.next + 1) % rate;
      return;
    }
    await sleep(free - now);
  }
}
