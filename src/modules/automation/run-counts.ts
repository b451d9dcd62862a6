import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';

export interface RunCount {
  runs: number;
  last_run_at: string | null;
}

/** How many runs each of the workspace's automations has had, and when the last one started. */
export async function runCounts(db: Queryable, workspaceId: string): Promise<Map<string, RunCount>> {
  const { rows } = await db.query<{ automation_id: string; runs: string; last_run_at: string }>(
    `SELECT automation_id, count(*) AS runs, to_char(max(started_at) AT TIME ZONE 'UTC', ${ISO}) AS last_run_at FROM runs
     WHERE workspace_id = $1 GROUP BY automation_id`,
    [workspaceId],
  );
  return new Map(rows.map((r) => [r.automation_id, { runs: Number(r.runs), last_run_at: r.last_run_at }]));
}
