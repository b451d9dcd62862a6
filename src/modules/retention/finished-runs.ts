import type { Queryable } from '../../db/db.js';

/**
 * One batch of a workspace's runs that finished (completed or failed) before `cutoff`, deleted with
 * their steps; a running or waiting run is never touched. Each deleted run is first added to its day's
 * count in run_outcome_days, in the same statement, so the dashboard counts it still. Answers how many went.
 */
export async function removeFinishedRuns(
  db: Queryable,
  workspaceId: string,
  cutoff: Date,
  size: number,
): Promise<number> {
  const { rows } = await db.query<{ deleted: number }>(
    `WITH batch AS (
       SELECT id FROM runs WHERE workspace_id = $1 AND finished_at < $2 AND status IN ('completed', 'failed', 'stopped')
       ORDER BY finished_at LIMIT $3),
     steps AS (DELETE FROM run_steps s USING batch b WHERE s.workspace_id = $1 AND s.run_id = b.id),
     gone AS (
       DELETE FROM runs r USING batch b WHERE r.workspace_id = $1 AND r.id = b.id
         AND r.status IN ('completed', 'failed', 'stopped')
       RETURNING (r.finished_at AT TIME ZONE 'UTC')::date AS day, r.status),
     counted AS (
       INSERT INTO run_outcome_days AS d (workspace_id, day, completed, failed)
       SELECT $1, day, count(*) FILTER (WHERE status = 'completed'), count(*) FILTER (WHERE status = 'failed')
       FROM gone GROUP BY day
       ON CONFLICT (workspace_id, day) DO UPDATE
         SET completed = d.completed + EXCLUDED.completed, failed = d.failed + EXCLUDED.failed)
     SELECT count(*)::int AS deleted FROM gone`,
    [workspaceId, cutoff, size],
  );
  return rows[0]!.deleted;
}
