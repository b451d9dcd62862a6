import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../context.js';
import { removeDeliveryLogs } from './delivery-logs.js';
import { removeFinishedRuns } from './finished-runs.js';
import { removeMedia } from './media.js';
import { removeMessageContent } from './message-content.js';
import { everyRetention, RETENTION_KINDS, type RetentionKind } from './settings.js';

/**
 * Rows per batch, each batch one statement committed on its own. PGlite runs one statement at a time
 * for the whole process, so a send waits for the batch in front of it: batches there are small and
 * followed by a pause (docs/DECISIONS.md, "Retention", has the measured times). On PostgreSQL a batch
 * locks only old rows that nothing else writes, so it can be larger.
 */
export const RETENTION_BATCH = { pglite: 25, postgres: 1000 } as const;
const PAUSE_MS = { pglite: 10, postgres: 5 } as const;

export type RetentionCounts = Record<RetentionKind, number>;

/** One kind's batches until one comes back short; answers the rows done. */
async function allBatches(
  ctx: AppContext,
  size: number,
  batch: () => Promise<{ passed: number; done: number }>,
): Promise<number> {
  let done = 0;
  for (;;) {
    const step = await batch();
    done += step.done;
    if (step.passed < size) return done;
    await sleep(PAUSE_MS[ctx.db.kind]);
  }
}

const counted = (n: number) => ({ passed: n, done: n });

/** One batch of each kind: how many rows it passed over (to know the last batch) and how many it removed. */
const BATCHES: Record<
  RetentionKind,
  (
    ctx: AppContext,
    workspaceId: string,
    before: Date,
    size: number,
  ) => Promise<{ passed: number; done: number }>
> = {
  message_content: async (ctx, id, before, size) => {
    const r = await removeMessageContent(ctx.db, id, before, size);
    return { passed: r.passed, done: r.blanked };
  },
  media: async (ctx, id, before, size) => counted(await removeMedia(ctx, id, before, size)),
  finished_runs: async (ctx, id, before, size) => counted(await removeFinishedRuns(ctx.db, id, before, size)),
  delivery_logs: async (ctx, id, before, size) => counted(await removeDeliveryLogs(ctx.db, id, before, size)),
};

/**
 * The daily retention pass (job maintenance.retention): for every workspace, what is past the days its
 * settings keep is removed, kind by kind, oldest first, in batches. Idempotent: run again, it finds only
 * what is newly past its time; killed, it goes on from where it was.
 */
export async function runRetention(
  ctx: AppContext,
  size: number = RETENTION_BATCH[ctx.db.kind],
): Promise<RetentionCounts> {
  const { rows } = await ctx.db.query<{ now: Date }>('SELECT now() AS now');
  const now = rows[0]!.now.getTime();
  const total: RetentionCounts = { message_content: 0, media: 0, finished_runs: 0, delivery_logs: 0 };
  for (const w of await everyRetention(ctx.db)) {
    const done: RetentionCounts = { message_content: 0, media: 0, finished_runs: 0, delivery_logs: 0 };
    for (const kind of RETENTION_KINDS) {
      const days = w[`${kind}_days`];
      if (days === null) continue;
      const before = new Date(now - days * 86_400_000);
      done[kind] = await allBatches(ctx, size, () => BATCHES[kind](ctx, w.id, before, size));
      total[kind] += done[kind];
    }
    if (Object.values(done).some((n) => n > 0)) {
      ctx.log.info({ workspaceId: w.id, ...done }, 'data past its retention removed');
    }
  }
  return total;
}
