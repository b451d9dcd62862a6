import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../context.js';
import { removeDeliveryLogs } from './delivery-logs.js';
import { removeFinishedRuns } from './finished-runs.js';
import { removeMedia } from './media.js';
import { removeMessageContent } from './message-content.js';
import { everyRetention, type RetentionKind } from './settings.js';

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
  const cutoff = (days: number) => new Date(now - days * 86_400_000);
  const total: RetentionCounts = { message_content: 0, media: 0, finished_runs: 0, delivery_logs: 0 };
  const counted = (n: number) => ({ passed: n, done: n });
  for (const w of await everyRetention(ctx.db)) {
    const done: RetentionCounts = { message_content: 0, media: 0, finished_runs: 0, delivery_logs: 0 };
    if (w.message_content_days !== null) {
      const before = cutoff(w.message_content_days);
      done.message_content = await allBatches(ctx, size, async () => {
        const r = await removeMessageContent(ctx.db, w.id, before, size);
        return { passed: r.passed, done: r.blanked };
      });
    }
    if (w.media_days !== null) {
      const before = cutoff(w.media_days);
      done.media = await allBatches(ctx, size, async () =>
        counted(await removeMedia(ctx, w.id, before, size)),
      );
    }
    if (w.finished_runs_days !== null) {
      const before = cutoff(w.finished_runs_days);
      done.finished_runs = await allBatches(ctx, size, async () =>
        counted(await removeFinishedRuns(ctx.db, w.id, before, size)),
      );
    }
    if (w.delivery_logs_days !== null) {
      const before = cutoff(w.delivery_logs_days);
      done.delivery_logs = await allBatches(ctx, size, async () =>
        counted(await removeDeliveryLogs(ctx.db, w.id, before, size)),
      );
    }
    if (Object.values(done).some((n) => n > 0)) {
      ctx.log.info({ workspaceId: w.id, ...done }, 'data past its retention removed');
    }
    for (const k of Object.keys(total) as RetentionKind[]) total[k] += done[k];
  }
  return total;
}
