import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { Done, Text } from '../../api/schema.js';
import { sendCsv } from '../../api/send-csv.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { IdParams } from '../accounts/schemas.js';
import { registerArchiveRoutes } from '../audit/archive-routes.js';
import { audited, changedFields, userActor } from '../audit/record-audit.js';
import { listRuns } from '../automation/list-runs.js';
import { holdHeavyWork } from '../rate-limit/heavy-work.js';
import { changeLead } from './change-lead.js';
import { LEAD_COLUMNS, leadRecords } from './export-leads.js';
import { getLead } from './get-lead.js';
import { addLeadNote, listLeadNotes } from './lead-notes.js';
import { listLeads } from './list-leads.js';
import { LeadListResult, LeadNoteResult, LeadResult } from './schemas.js';

const STATUSES = ['new', 'contacted', 'qualified', 'won', 'lost'] as const;
const Status = Type.Unsafe<(typeof STATUSES)[number]>({ type: 'string', enum: [...STATUSES] });

const ListQuery = Type.Object({
  status: Type.Optional(Status),
  source: Type.Optional(Type.Union([Type.Literal('form'), Type.Literal('webhook')])),
  q: Type.Optional(Text({ maxLength: FIELD_LIMITS.leadSearch })),
  form_id: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
  owner: Type.Optional(Text({ minLength: 1, maxLength: 64, description: "a member's user id, or none" })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
  archived: Type.Boolean({ default: false }),
});

const ChangeBody = Type.Object(
  {
    status: Type.Optional(Status),
    owner_id: Type.Optional(Type.Union([Text({ minLength: 1, maxLength: 64 }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
const NoteBody = Type.Object(
  { body: Text({ minLength: 1, maxLength: FIELD_LIMITS.leadNote }) },
  { additionalProperties: false },
);

/** Leads: the list with filters and search, one lead with its fields, runs and notes, status and owner. */
export function registerAppLeadRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get(
    '/leads',
    { schema: { querystring: ListQuery, response: { 200: LeadListResult } } },
    async (request) => {
      const { status, source, q, form_id, owner, limit, offset, archived } = request.query;
      const options = { status, source, search: q, formId: form_id, owner, limit, offset, archived };
      const page = await listLeads(ctx.db, request.session().workspaceId, options);
      return { result: true as const, leads: page.leads, has_next_page: page.hasNextPage, limit, offset };
    },
  );

  app.get('/leads/export', async (request, reply) => {
    const { workspaceId, userId } = request.session();
    holdHeavyWork(ctx, reply, { workspaceId, userId });
    return sendCsv(reply, 'leads', LEAD_COLUMNS, leadRecords(ctx.db, workspaceId));
  });

  app.get('/leads/:id', { schema: { params: IdParams, response: { 200: LeadResult } } }, async (request) => {
    const s = request.session();
    const lead = await getLead(ctx.db, s.workspaceId, request.params.id);
    const runs = await listRuns(ctx, s.workspaceId, { leadId: request.params.id, limit: 20 });
    const notes = await listLeadNotes(ctx.db, s.workspaceId, request.params.id);
    return { result: true as const, lead, runs, notes };
  });

  app.post(
    '/leads/:id/notes',
    { schema: { params: IdParams, body: NoteBody, response: { 201: LeadNoteResult } } },
    async (request, reply) => {
      const s = request.session();
      const body = request.body.body.trim();
      if (!body)
        throw new ApiError('validation_error', 'Write something in the note.', [
          { field: 'body', message: 'Write something in the note.' },
        ]);
      const note = await addLeadNote(ctx.db, s.workspaceId, request.params.id, s.userId, body);
      return reply.code(201).send({ result: true as const, note });
    },
  );

  app.patch(
    '/leads/:id',
    { schema: { params: IdParams, body: ChangeBody, response: { 200: Done } } },
    async (request) => {
      const s = request.session();
      const change = request.body;
      await audited(
        ctx.db,
        (tx) => changeLead(tx, s.workspaceId, request.params.id, change),
        () => ({
          workspaceId: s.workspaceId,
          actor: userActor(s),
          action: 'update',
          entityType: 'lead',
          entityId: request.params.id,
          changes: { ...changedFields(change), ...change },
        }),
      );
      return { result: true as const };
    },
  );

  // Any teammate works the leads, so any teammate may archive one (and bring it back).
  registerArchiveRoutes(
    app,
    '/leads',
    { table: 'leads', entityType: 'lead', notFound: 'No lead with that id' },
    false,
  );
}
