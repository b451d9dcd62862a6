import { Type } from 'typebox';
import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { listRuns } from '../automation/list-runs.js';

const STATUSES = ['new', 'contacted', 'qualified', 'won', 'lost'] as const;
const Status = Type.Unsafe<(typeof STATUSES)[number]>({ type: 'string', enum: [...STATUSES] });

const ListQuery = Type.Object({
  status: Type.Optional(Status),
  source: Type.Optional(Type.Union([Type.Literal('form'), Type.Literal('webhook')])),
  q: Type.Optional(Text({ maxLength: 200 })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// Where a lead came from, by name: the form's or the sequence's.
const SOURCE_NAME = `CASE l.source
  WHEN 'form' THEN (SELECT f.name FROM forms f WHERE f.workspace_id = l.workspace_id AND f.id = l.source_id)
  ELSE (SELECT a.name FROM automations a WHERE a.workspace_id = l.workspace_id AND a.id = l.source_id) END`;

/** Leads: the list with filters, one lead with all its fields and runs, status changes. */
export function registerAppLeadRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/leads', { schema: { querystring: ListQuery } }, async (request) => {
    const s = request.session();
    const { status, source, q, limit, offset } = request.query;
    const { rows } = await ctx.db.query(
      `SELECT l.id, l.name, l.email, l.phone, l.status, l.source, l.source_id, ${SOURCE_NAME} AS source_name,
         l.contact_id, l.created_at FROM leads l
       WHERE l.workspace_id = $1 AND ($2::text IS NULL OR l.status = $2) AND ($3::text IS NULL OR l.source = $3)
         AND ($4::text IS NULL OR l.name ILIKE $4 OR l.email ILIKE $4 OR l.phone LIKE $4)
       ORDER BY l.created_at DESC, l.id DESC LIMIT $5 OFFSET $6`,
      [
        s.workspaceId,
        status ?? null,
        source ?? null,
        q?.trim() ? likePattern(q.trim()) : null,
        limit + 1,
        offset,
      ],
    );
    return { result: true, leads: rows.slice(0, limit), has_next_page: rows.length > limit, limit, offset };
  });

  app.get('/leads/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    const { rows } = await ctx.db.query(
      `SELECT l.id, l.name, l.email, l.phone, l.status, l.source, l.source_id, ${SOURCE_NAME} AS source_name,
         l.contact_id, l.fields, l.created_at, l.updated_at FROM leads l WHERE l.workspace_id = $1 AND l.id = $2`,
      [s.workspaceId, request.params.id],
    );
    if (!rows[0]) throw new ApiError('not_found', 'No lead with that id');
    const runs = await listRuns(ctx, s.workspaceId, { leadId: request.params.id, limit: 20 });
    return { result: true, lead: rows[0], runs };
  });

  app.patch(
    '/leads/:id',
    { schema: { params: IdParams, body: Type.Object({ status: Status }, { additionalProperties: false }) } },
    async (request) => {
      const s = request.session();
      const { rows } = await ctx.db.query(
        'UPDATE leads SET status = $3, updated_at = now() WHERE workspace_id = $1 AND id = $2 RETURNING id',
        [s.workspaceId, request.params.id, request.body.status],
      );
      if (!rows[0]) throw new ApiError('not_found', 'No lead with that id');
      return { result: true };
    },
  );
}
