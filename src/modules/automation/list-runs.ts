import type { AppContext } from '../../context.js';

export interface RunView {
  id: string;
  automation_id: string;
  automation_name: string | null;
  version: number;
  contact_id: string | null;
  lead_id: string | null;
  event_id: string | null;
  status: 'running' | 'waiting' | 'completed' | 'failed';
  current_step: string | null;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
}

export interface RunStepView {
  step_id: string;
  type: string;
  status: 'started' | 'done' | 'failed' | 'skipped' | 'waiting';
  outcome: Record<string, unknown>;
  next_step: string | null;
  wait_until: Date | null;
  attempts: number;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
}

const RUNS = `SELECT r.id, r.automation_id, a.name AS automation_name, r.version, r.contact_id, r.lead_id,
    r.event_id, r.status, r.current_step, r.error, r.started_at, r.finished_at
  FROM runs r LEFT JOIN automations a ON a.workspace_id = r.workspace_id AND a.id = r.automation_id`;

/** Newest first; filtered by automation, contact or lead when given. */
export async function listRuns(
  ctx: AppContext,
  workspaceId: string,
  filter: { automationId?: string; contactId?: string; leadId?: string; limit?: number } = {},
): Promise<RunView[]> {
  const { rows } = await ctx.db.query<RunView>(
    `${RUNS} WHERE r.workspace_id = $1
       AND ($2::text IS NULL OR r.automation_id = $2) AND ($3::text IS NULL OR r.contact_id = $3)
       AND ($4::text IS NULL OR r.lead_id = $4)
     ORDER BY r.started_at DESC, r.id LIMIT $5`,
    [
      workspaceId,
      filter.automationId ?? null,
      filter.contactId ?? null,
      filter.leadId ?? null,
      filter.limit ?? 50,
    ],
  );
  return rows;
}

/** A run and each step's outcome, in the order they ran. */
export async function getRun(
  ctx: AppContext,
  workspaceId: string,
  runId: string,
): Promise<(RunView & { steps: RunStepView[] }) | null> {
  const { rows } = await ctx.db.query<RunView>(`${RUNS} WHERE r.workspace_id = $1 AND r.id = $2`, [
    workspaceId,
    runId,
  ]);
  if (!rows[0]) return null;
  const steps = await ctx.db.query<RunStepView>(
    `SELECT step_id, type, status, outcome, next_step, wait_until, attempts, error, started_at, finished_at
     FROM run_steps WHERE workspace_id = $1 AND run_id = $2 ORDER BY started_at, step_id`,
    [workspaceId, runId],
  );
  return { ...rows[0], steps: steps.rows };
}
