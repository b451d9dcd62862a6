import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { sendCsv } from '../../api/send-csv.js';
import { IdParams } from '../accounts/schemas.js';
import { audited, changedFields, keyActor } from '../audit/record-audit.js';
import { registerV1ArchiveRoutes } from '../audit/v1-archive-routes.js';
import { answerWriter } from '../idempotency/outcome.js';
import { holdHeavyWork } from '../rate-limit/heavy-work.js';
import {
  ApiLeadExportQuery,
  ApiLeadList,
  ApiLeadPatch,
  ApiLeadQuery,
  ApiLeadResult,
  ApiNoteBody,
  ApiNoteList,
  ApiNoteQuery,
  ApiNoteResult,
  LEADS_CSV_EXAMPLE,
} from './api-schemas.js';
import { changeLead } from './change-lead.js';
import { LEAD_COLUMNS, leadRecords } from './export-leads.js';
import { getLead } from './get-lead.js';
import { addLeadNote, listLeadNotePage } from './lead-notes.js';
import { listLeadPage } from './list-leads.js';
import type { LeadNote } from './schemas.js';

const tags = ['leads'];
const NOT_FOUND = 'No lead with that id';

/** REST v1: the leads the app lists and exports, one lead, its status and owner, its notes; archive, restore. */
export function registerLeadRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get(
    '/leads',
    {
      schema: {
        operationId: 'listLeads',
        summary: 'List leads, newest first',
        description:
          'Archived leads are left out (DELETE /leads/{id} archives one). Filters combine: `form_id` (its submissions), ' +
          "`automation_id` (leads that came in through the sequence's webhook or that it ran for), `status`, " +
          '`since` (created at or after) and `until` (created before). Pages follow `next_cursor` (null on the ' +
          'last page): send it back as `cursor`; leads that arrive meanwhile come before the first page, so a ' +
          'walk sees each lead once.',
        tags,
        querystring: ApiLeadQuery,
        response: { 200: ApiLeadList, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const { form_id, automation_id, ...rest } = request.query;
      const page = await listLeadPage(ctx.db, request.principal().workspaceId, {
        ...rest,
        formId: form_id,
        automationId: automation_id,
      });
      return { result: true as const, ...page };
    },
  );

  app.get(
    '/leads/export',
    {
      schema: {
        operationId: 'exportLeads',
        summary: 'Export leads as CSV',
        description:
          "Streams text/csv, as the app's export: id, name, email, phone, status, source, source_name, " +
          'contact_id, created_at and `fields` (what was submitted, as one JSON cell), in id order. The filters ' +
          'are those of GET /leads (`status`, `form_id`, `automation_id`, `since`, `until`), and archived leads ' +
          'are left out as there. A cell that a spreadsheet would run as a formula (starting with = + - @, their ' +
          "full-width forms, a tab or a carriage return) is prefixed with '. A workspace runs two exports and " +
          'import uploads at once: past them 429 with Retry-After. A filter that is not valid is a 422.',
        tags,
        produces: ['text/csv'],
        querystring: ApiLeadExportQuery,
        response: {
          200: {
            description: 'The CSV file, as a download',
            content: {
              'text/csv': {
                schema: { type: 'string', examples: [LEADS_CSV_EXAMPLE] },
                example: LEADS_CSV_EXAMPLE,
              },
            },
          },
          ...errorResponses(401, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { workspaceId, keyId } = request.principal();
      const { form_id, automation_id, ...rest } = request.query;
      holdHeavyWork(ctx, reply, { workspaceId, keyId });
      const filters = { ...rest, formId: form_id, automationId: automation_id };
      return sendCsv(reply, 'leads', LEAD_COLUMNS, leadRecords(ctx.db, workspaceId, filters));
    },
  );

  app.get(
    '/leads/:id',
    {
      schema: {
        operationId: 'getLead',
        summary: 'A lead with every field it was submitted with',
        description:
          "`fields` holds what was submitted; for a form's lead, `labels` gives each field's label on the form. " +
          'Archived leads are found too (`archived_at`). Its notes are GET /leads/{id}/notes.',
        tags,
        params: IdParams,
        response: { 200: ApiLeadResult, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      lead: await getLead(ctx.db, request.principal().workspaceId, request.params.id),
    }),
  );

  app.patch(
    '/leads/:id',
    {
      schema: {
        operationId: 'updateLead',
        summary: "Change a lead's status or owner",
        description:
          '`owner_id` is the user id of a member of the workspace (422 otherwise), or null for nobody. Both ' +
          'change together or neither does. Answers the lead as it now stands.',
        tags,
        params: IdParams,
        body: ApiLeadPatch,
        response: { 200: ApiLeadResult, ...errorResponses(400, 401, 404, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const principal = request.principal();
      const { id } = request.params;
      const change = request.body;
      await audited(
        ctx.db,
        (tx) => changeLead(tx, principal.workspaceId, id, change),
        () => ({
          workspaceId: principal.workspaceId,
          actor: keyActor(principal),
          action: 'update',
          entityType: 'lead',
          entityId: id,
          changes: { ...changedFields(change), ...change },
        }),
      );
      return { result: true as const, lead: await getLead(ctx.db, principal.workspaceId, id) };
    },
  );

  app.get(
    '/leads/:id/notes',
    {
      schema: {
        operationId: 'listLeadNotes',
        summary: "A lead's notes, newest first",
        description:
          "Notes written by teammates in the app and through the API. A note's `author_id` is the teammate " +
          "who wrote it, null for one written through an API key. Pages follow `next_cursor` as GET /leads's.",
        tags,
        params: IdParams,
        querystring: ApiNoteQuery,
        response: { 200: ApiNoteList, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await listLeadNotePage(ctx.db, request.principal().workspaceId, request.params.id, request.query)),
    }),
  );

  const noteAnswer = (note: LeadNote) => ({ status: 201 as const, body: { result: true as const, note } });

  app.post(
    '/leads/:id/notes',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'addLeadNote',
        summary: 'Add a note to a lead',
        description:
          'The note shows on the lead in the app at once, with no author (`author_id` null): the audit log ' +
          'records the API key that wrote it. Leading and trailing spaces are trimmed; a note of spaces is a 422.',
        tags,
        params: IdParams,
        body: ApiNoteBody,
        response: { 201: ApiNoteResult, ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const principal = request.principal();
      const { id } = request.params;
      const text = request.body.text.trim();
      if (!text) throw ApiError.invalid('text', 'Write something in the note.');
      const writer = answerWriter(request, noteAnswer);
      const note = await audited(
        ctx.db,
        async (tx) => {
          const note = await addLeadNote(tx, principal.workspaceId, id, null, text);
          await writer?.(tx, note);
          return note;
        },
        (note) => ({
          workspaceId: principal.workspaceId,
          actor: keyActor(principal),
          action: 'update',
          entityType: 'lead',
          entityId: id,
          changes: { fields: ['notes'], note_id: note.id },
        }),
      );
      const answer = noteAnswer(note);
      return reply.code(answer.status).send(answer.body);
    },
  );

  registerV1ArchiveRoutes(app, {
    path: '/leads',
    tags,
    change: { table: 'leads', entityType: 'lead', notFound: NOT_FOUND },
    archive: {
      operationId: 'archiveLead',
      summary: 'Archive a lead',
      description:
        'The lead leaves GET /leads and its export (GET /leads/{id} still finds it, with `archived_at`); ' +
        'nothing else about it changes, and runs under way for it go on. Archiving again changes nothing ' +
        '(204). POST /leads/{id}/restore brings it back.',
    },
    restore: {
      operationId: 'restoreLead',
      summary: 'Restore an archived lead',
      description:
        'The lead comes back to GET /leads as it was. Restoring one that is not archived changes nothing. ' +
        'Answers the lead as GET /leads/{id} does.',
      response: ApiLeadResult,
    },
    answer: async (workspaceId, id) => ({
      result: true as const,
      lead: await getLead(ctx.db, workspaceId, id),
    }),
  });
}
