import type { Queryable } from '../../src/db/db.js';
import type { JobName } from '../../src/jobs/job-data.js';
import { until } from './until.js';

/**
 * Waits until no job of these queues is running or due: from then on nothing in flight can add an
 * effect, so "it happened once" can be asserted without sleeping on a guess. Jobs deliberately set
 * for later (the backstop a send queues for after its lease, a retry's backoff) are not waited for:
 * they may be a minute away, and what they do is tested where they are the subject.
 * Reads pg-boss's job table, which has these columns in pg-boss 10 and 12 alike.
 */
export async function queueIdle(db: Queryable, queues: JobName[], ms = 30_000): Promise<void> {
  await until(async () => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job
       WHERE name = ANY($1::text[])
         AND (state = 'active' OR (state IN ('created', 'retry') AND start_after <= now()))`,
      [queues],
    );
    return rows[0]!.n === 0;
  }, ms);
}

/** Jobs of these queues not finished, due now or later: after queueIdle, what could still act. */
export async function unfinishedJobs(db: Queryable, queues: JobName[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pgboss.job
     WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active')`,
    [queues],
  );
  return rows[0]!.n;
}
