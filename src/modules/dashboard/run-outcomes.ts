import type { Queryable } from '../../db/db.js';
import { dayOf, everyDay, SINCE } from './period.js';

interface RunDay {
  day: string;
  completed: number;
  failed: number;
}

/**
 * Per day of the period, the flow and sequence runs that finished, completed or failed: the runs still
 * kept, and those data retention deleted, counted per day as they went (run_outcome_days).
 */
export async function runOutcomes(db: Queryable, workspaceId: string, days: number): Promise<RunDay[]> {
  const { rows } = await db.query<RunDay>(
    everyDay(
      `SELECT day, sum(completed) AS completed, sum(failed) AS failed FROM (
         SELECT ${dayOf('r.finished_at')} AS day,
           count(*) FILTER (WHERE r.status = 'completed') AS completed,
           count(*) FILTER (WHERE r.status = 'failed') AS failed
         FROM runs r WHERE r.workspace_id = $1 AND r.finished_at >= ${SINCE}
         GROUP BY 1
         UNION ALL
         SELECT d.day, d.completed, d.failed FROM run_outcome_days d
         WHERE d.workspace_id = $1 AND d.day >= ${dayOf(SINCE)}) AS both_kinds
       GROUP BY day`,
      ['completed', 'failed'],
    ),
    [workspaceId, days],
  );
  return rows;
}
