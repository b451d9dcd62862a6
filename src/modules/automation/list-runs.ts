import type { AppContext } from '../../context.js';

export interface RunView {
  id: string;
  automation_id: string;
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

const RUN_COLUMNS =
  'id, automation_id, version, contact_id, lead_id, event_id, status, current_step, error, started_at, finished_at';

/** Newest first; filtered by automation, contact or lead when given. */
export async function listRuns(
  ctx: AppContext,
  workspaceId: string,
  filter: { automationId?: string; contactId?: string; leadId?: string; limit?: number } = {},
): Promise<RunView[]> {
  const { rows } = await ctx.db.query<RunView>(
    `SELECT ${RUN_COLUMNS} FROM runs WHERE workspace_id = $1
       AND ($2::text IS NULL OR automation_id = $2) AND ($3::text IS NULL OR contact_id = $3)
       AND ($4::text IS NULL OR lead_id = $4)
     ORDER BY started_at DESC, id LIMIT $5`,
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
  const { rows } = await ctx.db.query<RunView>(
    `SELECT ${RUN_COLUMNS} FROM runs WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, runId],
  );
  if (!rows[0]) return null;
  const steps = await ctx.db.query<RunStepView>(
    `SELECT step_id, type, status, outcome, next_step, wait_until, attempts, error, started_at, finished_at
     FROM run_steps WHERE workspace_id = $1 AND run_id = $2 ORDER BY started_at, step_id`,
    [workspaceId, runId],
  );
  return { ...rows[0], steps: steps.rows };
}
