import { Type } from 'typebox';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { sendCsv } from '../../http/send-csv.js';
import { IdParams } from '../accounts/schemas.js';
import { listRuns } from '../automation/list-runs.js';
import { LEAD_COLUMNS, leadRecords } from './export-leads.js';
import { getLead } from './get-lead.js';
import { listLeads } from './list-leads.js';
import { setLeadStatus } from './set-lead-status.js';

const STATUSES = ['new', 'contacted', 'qualified', 'won', 'lost'] as const;
const Status = Type.Unsafe<(typeof STATUSES)[number]>({ type: 'string', enum: [...STATUSES] });

const ListQuery = Type.Object({
  status: Type.Optional(Status),
  source: Type.Optional(Type.Union([Type.Literal('form'), Type.Literal('webhook')])),
  q: Type.Optional(Text({ maxLength: 200 })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});

/** Leads: the list with filters, one lead with all its fields and runs, status changes. */
export function registerAppLeadRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/leads', { schema: { querystring: ListQuery } }, async (request) => {
    const { status, source, q, limit, offset } = request.query;
    const options = { status, source, search: q, limit, offset };
    const page = await listLeads(ctx.db, request.session().workspaceId, options);
    return { result: true, leads: page.leads, has_next_page: page.hasNextPage, limit, offset };
  });

  app.get('/leads/export', async (request, reply) =>
    sendCsv(reply, 'leads', LEAD_COLUMNS, leadRecords(ctx.db, request.session().workspaceId)),
  );

  app.get('/leads/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    const lead = await getLead(ctx.db, s.workspaceId, request.params.id);
    const runs = await listRuns(ctx, s.workspaceId, { leadId: request.params.id, limit: 20 });
    return { result: true, lead, runs };
  });

  app.patch(
    '/leads/:id',
    { schema: { params: IdParams, body: Type.Object({ status: Status }, { additionalProperties: false }) } },
    async (request) => {
      await setLeadStatus(ctx.db, request.session().workspaceId, request.params.id, request.body.status);
      return { result: true };
    },
  );
}
