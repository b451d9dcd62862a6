import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import type { Definition } from './definition.js';
import { type AutomationView, getAutomation, statusOf, webhookLinks } from './list-automations.js';
import type { ApiAutomation } from './schemas.js';
import { sendWarnings } from './send-warnings.js';

type Status = 'draft' | 'published' | 'archived';

interface SummaryRow {
  id: string;
  name: string;
  kind: 'flow' | 'sequence';
  trigger: Definition['trigger'];
  published_version: number | null;
  draft_version: number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  micros: string;
}

const summary = ({ micros: _micros, archived_at, ...row }: SummaryRow) => {
  const status = statusOf({ archived_at, published_version: row.published_version });
  return { ...row, status, published: status === 'published' };
};

/**
 * A page of the workspace's automations, newest first, after `cursor`; without `status`, the
 * archived ones are left out (DELETE archives).
 */
export async function listApiAutomations(
  db: Queryable,
  workspaceId: string,
  options: { status?: Status; limit: number; cursor?: string },
) {
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const { rows } = await db.query<SummaryRow>(
    `SELECT id, name, kind, draft->'trigger' AS trigger, published_version, draft_version,
       to_char(archived_at AT TIME ZONE 'UTC', ${ISO}) AS archived_at,
       to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
       to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_at,
       (extract(epoch FROM created_at) * 1000000)::bigint::text AS micros
     FROM automations
     WHERE workspace_id = $1
       AND CASE $2::text WHEN 'archived' THEN archived_at IS NOT NULL
         WHEN 'published' THEN archived_at IS NULL AND published_version IS NOT NULL
         WHEN 'draft' THEN archived_at IS NULL AND published_version IS NULL
         ELSE archived_at IS NULL END
       AND ($3::bigint IS NULL OR ((extract(epoch FROM created_at) * 1000000)::bigint, id) < ($3::bigint, $4::text))
     ORDER BY automations.created_at DESC, automations.id DESC LIMIT $5`,
    [workspaceId, options.status ?? null, after?.micros ?? null, after?.id ?? null, options.limit + 1],
  );
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    automations: page.map(summary),
    next_cursor:
      rows.length > options.limit && last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}

/** One automation as REST v1 shows it: both definitions, its versions and its runs; null if not the workspace's. */
export async function getApiAutomation(
  ctx: AppContext,
  workspaceId: string,
  id: string,
): Promise<ApiAutomation | null> {
  const a = await getAutomation(ctx, workspaceId, id);
  return a ? detail(ctx, workspaceId, a) : null;
}

async function detail(ctx: AppContext, workspaceId: string, a: AutomationView): Promise<ApiAutomation> {
  const [versions, runs] = await Promise.all([
    ctx.db.query<{ version: number; published_at: string; definition: Definition | null }>(
      `SELECT version, to_char(published_at AT TIME ZONE 'UTC', ${ISO}) AS published_at,
         CASE WHEN version = $3 THEN definition END AS definition
       FROM automation_versions WHERE workspace_id = $1 AND automation_id = $2 ORDER BY version DESC`,
      [workspaceId, a.id, a.published_version],
    ),
    ctx.db.query<{ status: string; runs: number; last_run_at: string }>(
      `SELECT status, count(*)::int AS runs,
         to_char(max(max(started_at)) OVER () AT TIME ZONE 'UTC', ${ISO}) AS last_run_at
       FROM runs WHERE workspace_id = $1 AND automation_id = $2 GROUP BY status`,
      [workspaceId, a.id],
    ),
  ]);
  const count = (status: string) => runs.rows.find((r) => r.status === status)?.runs ?? 0;
  const status = statusOf(a);
  const link = webhookLinks(ctx, a);
  return {
    id: a.id,
    name: a.name,
    kind: a.kind,
    trigger: a.draft.trigger,
    status,
    published: status === 'published',
    published_version: a.published_version,
    draft_version: a.draft_version,
    created_at: a.created_at,
    updated_at: a.updated_at,
    archived_at: a.archived_at,
    unpublished_changes: a.published_version !== null && a.published_version !== a.draft_version,
    draft: a.draft,
    published_definition: versions.rows.find((v) => v.definition)?.definition ?? null,
    versions: versions.rows.map(({ version, published_at }) => ({ version, published_at })),
    runs: {
      total: runs.rows.reduce((n, r) => n + r.runs, 0),
      running: count('running'),
      waiting: count('waiting'),
      completed: count('completed'),
      failed: count('failed'),
      stopped: count('stopped'),
      last_run_at: runs.rows[0]?.last_run_at ?? null,
    },
    warnings: sendWarnings(a.draft),
    webhook: link ? { url_without_secret: link.url_without_secret } : null,
  };
}
