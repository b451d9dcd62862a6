import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { Batches, batchesOf, type Entry } from '../../db/batches.js';
import type { Queryable } from '../../db/db.js';
import { allOrOneByOne } from '../../db/limited-batches.js';

// Batches at once and the most leads in one.
const AT_ONCE = 4;
const LARGEST = 100;

/**
 * Counts a lead in the plan's month before it is stored, together with the workspace's other leads
 * arriving meanwhile: one statement, one commit for them. Counted in each lead's transaction, the
 * month's row stayed locked to its commit and a workspace's submissions queued on it one commit at a
 * time (docs/benchmarks.md). Past the plan's month: 402, exactly (db/limited-batches.ts). Answers the
 * month counted, for giveBackLead.
 */
export function reserveLead(ctx: AppContext, workspaceId: string): Promise<string> {
  const batches = batchesOf(
    ctx,
    'lead-reservations',
    () =>
      new Batches<string, string>(
        allOrOneByOne(
          (workspace) => workspace,
          (entries) => reserve(ctx.db, entries),
          () =>
            new ApiError(
              'plan_limit_reached',
              "The plan's monthly lead limit is reached; no more leads can be taken this month",
            ),
        ),
        AT_ONCE,
        LARGEST,
      ),
  );
  return batches.add(workspaceId);
}

async function reserve(db: Queryable, entries: Entry<string, string>[]): Promise<boolean> {
  const { rows } = await db.query<{ month: string }>(
    `WITH plan AS (
       SELECT p.monthly_leads_limit AS lead_limit FROM workspaces w JOIN plans p ON p.name = w.plan WHERE w.id = $1)
     INSERT INTO lead_usage AS u (workspace_id, month, created)
     SELECT $1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, $2 FROM plan WHERE plan.lead_limit >= $2
     ON CONFLICT (workspace_id, month) DO UPDATE SET created = u.created + EXCLUDED.created
       WHERE u.created + EXCLUDED.created <= (SELECT lead_limit FROM plan)
     RETURNING month::text`,
    [entries[0]!.item, entries.length],
  );
  const month = rows[0]?.month;
  if (!month) return false;
  for (const e of entries) e.resolve(month);
  return true;
}

/** A counted lead that was not stored: its place in the month goes back to the plan. */
export async function giveBackLead(db: Queryable, workspaceId: string, month: string): Promise<void> {
  await db.query(
    'UPDATE lead_usage SET created = created - 1 WHERE workspace_id = $1 AND month = $2::date AND created > 0',
    [workspaceId, month],
  );
}
