import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
import type { AppContext } from '../../context.js';
import { ISO } from '../contacts/list-contacts.js';
import type { Definition } from './definition.js';
import { publishedDefinition } from './published-definition.js';
import type { Run, RunStep } from './schemas.js';

// Times as ISO 8601 text, as the answers carry them.
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', ${ISO})`;

// `first` puts columns of the caller's before the run's.
const selectRuns = (
  first = '',
) => `SELECT ${first}r.id, r.automation_id, a.name AS automation_name, r.version, r.contact_id,
    c.name AS contact_name, c.phone AS contact_phone, r.lead_id, r.event_id, r.status, r.current_step, r.error,
    (SELECT count(*)::int FROM run_steps s
      WHERE s.workspace_id = r.workspace_id AND s.run_id = r.id AND s.status = 'skipped') AS skipped_steps,
    (SELECT s.outcome ->> 'reason' FROM run_steps s
      WHERE s.workspace_id = r.workspace_id AND s.run_id = r.id AND s.status = 'skipped'
      ORDER BY s.seq LIMIT 1) AS skipped_reason,
    ${iso('r.started_at')} AS started_at, ${iso('r.finished_at')} AS finished_at
  FROM runs r LEFT JOIN automations a ON a.workspace_id = r.workspace_id AND a.id = r.automation_id
    LEFT JOIN contacts c ON c.workspace_id = r.workspace_id AND c.id = r.contact_id`;
const RUNS = selectRuns();

interface RunFilter {
  automationId?: string;
  contactId?: string;
  leadId?: string;
  status?: Run['status'];
}

// The filters as $2..$5 after the workspace ($1).
const FILTERED = `WHERE r.workspace_id = $1
  AND ($2::text IS NULL OR r.automation_id = $2) AND ($3::text IS NULL OR r.contact_id = $3)
  AND ($4::text IS NULL OR r.lead_id = $4) AND ($5::text IS NULL OR r.status = $5)`;

const filterValues = (workspaceId: string, filter: RunFilter) => [
  workspaceId,
  filter.automationId ?? null,
  filter.contactId ?? null,
  filter.leadId ?? null,
  filter.status ?? null,
];

/** Newest first; filtered by automation, contact, lead or status when given. */
export async function listRuns(
  ctx: AppContext,
  workspaceId: string,
  filter: RunFilter & { limit?: number; offset?: number } = {},
): Promise<Run[]> {
  const { rows } = await ctx.db.query<Run>(
    `${RUNS} ${FILTERED} ORDER BY r.started_at DESC, r.id LIMIT $6 OFFSET $7`,
    [...filterValues(workspaceId, filter), filter.limit ?? 50, filter.offset ?? 0],
  );
  return rows;
}

// A run's place in the newest-first order: the microsecond it started, then its id.
const STARTED_MICROS = '(extract(epoch FROM r.started_at) * 1000000)::bigint';

/**
 * A page of runs in the order of listRuns, after `cursor` (the `next_cursor` of the page before): a run
 * is never shown twice nor skipped while new runs start between pages (they start after the first page).
 */
export async function listRunPage(
  ctx: AppContext,
  workspaceId: string,
  filter: RunFilter & { limit: number; cursor?: string },
): Promise<{ runs: Run[]; next_cursor: string | null }> {
  const after = filter.cursor ? decodeCursor(filter.cursor) : null;
  const { rows } = await ctx.db.query<Run & { micros: string }>(
    `${selectRuns(`${STARTED_MICROS}::text AS micros, `)} ${FILTERED}
       AND ($6::bigint IS NULL OR ${STARTED_MICROS} < $6::bigint
         OR (${STARTED_MICROS} = $6::bigint AND r.id > $7::text))
     ORDER BY r.started_at DESC, r.id LIMIT $8`,
    [...filterValues(workspaceId, filter), after?.micros ?? null, after?.id ?? null, filter.limit + 1],
  );
  const page = rows.slice(0, filter.limit).map(({ micros: _micros, ...run }) => run);
  const last = rows[filter.limit - 1];
  return {
    runs: page,
    next_cursor:
      rows.length > filter.limit && last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}

/** A run and each step's outcome, in the order they ran, with the version's definition that ran. */
export async function getRun(
  ctx: AppContext,
  workspaceId: string,
  runId: string,
): Promise<(Run & { steps: RunStep[]; definition: Definition | null }) | null> {
  const { rows } = await ctx.db.query<Run>(`${RUNS} WHERE r.workspace_id = $1 AND r.id = $2`, [
    workspaceId,
    runId,
  ]);
  if (!rows[0]) return null;
  const steps = await ctx.db.query<RunStep>(
    `SELECT step_id, visit, type, status, outcome, next_step, ${iso('wait_until')} AS wait_until, attempts, error,
       ${iso('started_at')} AS started_at, ${iso('finished_at')} AS finished_at
     FROM run_steps WHERE workspace_id = $1 AND run_id = $2 ORDER BY seq`,
    [workspaceId, runId],
  );
  const definition = await publishedDefinition(ctx.db, workspaceId, rows[0].automation_id, rows[0].version);
  return { ...rows[0], steps: steps.rows, definition };
}
