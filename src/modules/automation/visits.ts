import type { Queryable } from '../../db/db.js';

/** How often a step may run in one run: the next visit fails the run (a loop that does not end). */
export const MAX_VISITS = 20;

// The job that ends a run whose last step waits (step ids cannot hold a dot).
export const END = '.end';

/** The idempotency key of a visit's side effect: the first visit's is the key runs always had. */
export function stepKey(runId: string, stepId: string, visit: number): string {
  return visit === 1 ? `${runId}/${stepId}` : `${runId}/${stepId}/${visit}`;
}

/** The visit a step of a run is at when reached now: one past its latest (a run goes one step at a time). */
export async function nextVisit(db: Queryable, workspaceId: string, runId: string, stepId: string) {
  const { rows } = await db.query<{ visit: number }>(
    `SELECT COALESCE(max(visit), 0) + 1 AS visit FROM run_steps
     WHERE workspace_id = $1 AND run_id = $2 AND step_id = $3`,
    [workspaceId, runId, stepId],
  );
  return Number(rows[0]!.visit);
}
