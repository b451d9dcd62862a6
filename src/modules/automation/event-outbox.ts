import type { AppContext } from '../../context.js';
import { type StoredEvent, startRunsOfEvents } from './start-runs.js';

/** Events taken per transaction. */
export const OUTBOX_BATCH = 100;

/**
 * Starts the runs of the oldest events still marked `runs_pending` (POST /events marks them), up to
 * OUTBOX_BATCH of them, and unmarks them, in one transaction: a crash leaves them marked for the next
 * pass, and workers draining at once take different events (SKIP LOCKED). Returns how many events.
 */
export async function drainEventOutbox(ctx: AppContext): Promise<number> {
  const { events, runs } = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<StoredEvent>(
      `UPDATE events e SET runs_pending = false
       FROM (SELECT workspace_id, id FROM events WHERE runs_pending ORDER BY created_at LIMIT $1
             FOR UPDATE SKIP LOCKED) pending
       WHERE e.workspace_id = pending.workspace_id AND e.id = pending.id
       RETURNING e.workspace_id, e.id, e.contact_id, e.name, e.properties, e.flows`,
      [OUTBOX_BATCH],
    );
    return { events: rows.length, runs: await startRunsOfEvents(ctx, tx, rows) };
  });
  if (runs > 0) ctx.queue?.wake('automation.step');
  return events;
}
