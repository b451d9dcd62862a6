import type { Queryable } from '../../db/db.js';

export interface RunCount {
  runs: number;
  last_run_at: Date | null;
}

/** How many runs each of the workspace's automations has had, and when the last one started. */
export async function runCounts(db: Queryable, workspaceId: string): Promise<Map<string, RunCount>> {
  const { rows } = await db.query<{ automation_id: string; runs: string; last_run_at: Date }>(
    `SELECT automation_id, count(*) AS runs, max(started_at) AS last_run_at FROM runs
     WHERE workspace_id = $1 GROUP BY automation_id`,
    [workspaceId],
  );
  return new Map(rows.map((r) => [r.automation_id, { runs: Number(r.runs), last_run_at: r.last_run_at }]));
}
