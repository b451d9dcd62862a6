import type { AppContext } from '../../context.js';
import { Batches, batchesOf, type Entry } from '../../db/batches.js';
import type { Db } from '../../db/db.js';
import { queueDeliveries } from '../webhooks/emit.js';
import type { FollowedStatement } from './events.js';
import { ANSWERED, type StatusChange, statusEvents } from './status.js';

/** A row of a batch's statement: the change, its event's deliveries, and `n`, the item's place (from 1). */
export type BatchRow = StatusChange & { n: number; deliveries: string[] };

/**
 * A batch's statement: `head` up to its CTE `m` (the messages it changed: workspace_id, CHANGED,
 * event_id and n), then each change's event and status subscribers (a broadcast's recipient), as
 * changeStatus records one, and a BatchRow per change.
 */
export const batchStatement = (head: string): FollowedStatement => ({
  changed: {
    rows: 'SELECT m.workspace_id, m.id, m.source_key, m.status, m.error_code, m.error_reason FROM m',
    keys: 'ARRAY(SELECT source_key FROM m)',
  },
  sql: (followers) => `${head},
  ${statusEvents('m.workspace_id', 'm.event_id')}${followers}
  SELECT m.n, ${ANSWERED}, ARRAY(SELECT e.id FROM event e WHERE e.event_key = m.id || ':' || m.status) AS deliveries
  FROM m`,
});

/** What a batch of status changes is: how one is recorded, and the message each names. */
export interface StatusBatchKind<T extends { workspaceId: string }> {
  name: string;
  /** Records the items in one statement, returning a row for each item that changed its message. */
  record(db: Db, items: T[]): Promise<BatchRow[]>;
  /** The message an item changes: two changes of one message never share a statement. */
  message(item: T): string;
}

// Batches at once and their largest size: a broadcast's sends, and their status webhooks, come about a
// thousand a second.
const AT_ONCE = 4;
const LARGEST = 100;

/**
 * Records a status change batched with the others arriving meanwhile: one statement (one round trip,
 * one commit) for up to LARGEST, where a statement each queued on their commits and their row locks
 * (docs/benchmarks.md). Resolves once committed, with the change, or null when the message was not
 * moved (a status it has passed). Two changes of one message in a batch go in successive statements,
 * in the order they came, so each has its event. A statement that fails (a deadlock, one item's bad
 * value) is tried again an item at a time, so one item's fault fails only its own caller.
 */
export function recordBatched<T extends { workspaceId: string }>(
  ctx: AppContext,
  kind: StatusBatchKind<T>,
  item: T,
): Promise<StatusChange | null> {
  const batches = batchesOf(
    ctx,
    kind.name,
    () => new Batches<T, StatusChange | null>((b) => recordBatch(ctx, kind, b), AT_ONCE, LARGEST),
  );
  return batches.add(item);
}

async function recordBatch<T extends { workspaceId: string }>(
  ctx: AppContext,
  kind: StatusBatchKind<T>,
  batch: Entry<T, StatusChange | null>[],
) {
  const byPlace = (rows: BatchRow[]) => new Map(rows.map((r) => [r.n, r]));
  for (const round of rounds(batch, (e) => kind.message(e.item))) {
    const rows = await kind
      .record(
        ctx.db,
        round.map((e) => e.item),
      )
      .then(byPlace, () => null);
    await Promise.all(
      round.map(async ({ item, resolve, reject }, i) => {
        try {
          const row = rows ? rows.get(i + 1) : byPlace(await kind.record(ctx.db, [item])).get(1);
          if (!row) return resolve(null);
          const { deliveries, n: _, ...change } = row;
          await queueDeliveries(ctx, item.workspaceId, deliveries);
          resolve(change);
        } catch (err) {
          reject(err);
        }
      }),
    );
  }
}

/** The batch as statements in which no message comes twice, each message's changes in their order. */
function rounds<E>(batch: E[], message: (e: E) => string): E[][] {
  const out: E[][] = [];
  const seen = new Map<string, number>();
  for (const e of batch) {
    const round = seen.get(message(e)) ?? 0;
    seen.set(message(e), round + 1);
    if (round === out.length) out.push([]);
    out[round]!.push(e);
  }
  return out;
}
