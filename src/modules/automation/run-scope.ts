import type { Queryable } from '../../db/db.js';
import type { Definition } from './definition.js';
import type { Scope } from './interpolate.js';

export interface RunRow {
  automation_id: string;
  status: string;
  contact_id: string | null;
  lead_id: string | null;
  trigger_data: { event?: Record<string, unknown> };
  definition: Definition;
}

/**
 * The contact, lead, event, variables and earlier steps' findings a step reads, loaded fresh: earlier
 * steps may have changed them. A step visited more than once is read at its latest finished visit; an
 * http_request's answer is read as `status` and `body`.
 */
export async function loadScope(
  db: Queryable,
  workspaceId: string,
  runId: string,
  run: Pick<RunRow, 'contact_id' | 'lead_id' | 'trigger_data'>,
): Promise<Scope> {
  const scope: Scope = { event: run.trigger_data.event ?? {} };
  const vars = await db.query<{ variables: Record<string, unknown> }>(
    'SELECT variables FROM runs WHERE workspace_id = $1 AND id = $2',
    [workspaceId, runId],
  );
  scope.vars = vars.rows[0]?.variables ?? {};
  const found = await db.query<{ step_id: string; type: string; outcome: Record<string, unknown> }>(
    `SELECT DISTINCT ON (step_id) step_id, type, outcome FROM run_steps
     WHERE workspace_id = $1 AND run_id = $2 AND status IN ('done', 'skipped')
     ORDER BY step_id, visit DESC`,
    [workspaceId, runId],
  );
  scope.steps = Object.fromEntries(
    found.rows.map((r) => [
      r.step_id,
      r.type === 'http_request' ? { ...r.outcome, status: r.outcome.status_code } : r.outcome,
    ]),
  );
  if (run.contact_id) {
    const { rows } = await db.query(
      'SELECT id, phone, name, email, tags, traits FROM contacts WHERE workspace_id = $1 AND id = $2',
      [workspaceId, run.contact_id],
    );
    scope.contact = rows[0] ?? {};
  }
  if (run.lead_id) {
    const { rows } = await db.query(
      'SELECT id, name, email, phone, status, source, fields FROM leads WHERE workspace_id = $1 AND id = $2',
      [workspaceId, run.lead_id],
    );
    scope.lead = rows[0] ?? {};
  }
  return scope;
}
