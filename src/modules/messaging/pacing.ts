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
  const step = 1 / number.messagesPerSecond;
  const { rows } = await db.query<{ wait_ms: number; at: number }>(
    `INSERT INTO message_pacing AS p (workspace_id, number_id, next_slot_at)
     VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))
     ON CONFLICT (workspace_id, number_id) DO UPDATE
       SET next_slot_at = GREATEST(p.next_slot_at, clock_timestamp()) + make_interval(secs => $3)
       WHERE p.next_slot_at <= clock_timestamp() + make_interval(secs => $4)
     RETURNING (extract(epoch FROM next_slot_at - clock_timestamp()) - $3)::float8 * 1000 AS wait_ms,
       (extract(epoch FROM next_slot_at) - $3)::float8 * 1000 AS at`,
    [number.workspaceId, number.id, step, maxWaitMs / 1000],
  );
  if (rows[0]) return { granted: true, waitMs: Math.max(0, Number(rows[0].wait_ms)), at: Number(rows[0].at) };
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
