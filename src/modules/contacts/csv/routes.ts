import type { RestApp } from '../../../api/rest-app.js';
import { errorResponses } from '../../../api/schema.js';
import { sendCsv } from '../../../api/send-csv.js';
import { holdHeavyWork } from '../../rate-limit/heavy-work.js';
import { ImportQuery } from './column-mapping.js';
import { contactColumns, contactRecords } from './export-contacts.js';
import { getImport } from './get-import.js';
import { acceptCsvUploads } from './read-upload.js';
import { ImportParams, ImportResult, RefusalPage } from './schemas.js';
import { answerImport } from './start-import.js';

const IMPORT = {
  id: 'imp_7Hc3pW9sLq2Xe5RbNz0T',
  file_name: 'contacts.csv',
  total_rows: 1200,
  created_at: '2026-11-20T16:05:12.000Z',
};

/** The import as POST answers it: queued for the job. */
const ImportStarted = {
  ...ImportResult,
  examples: [
    {
      result: true,
      import: {
        ...IMPORT,
        status: 'queued',
        processed_rows: 0,
        created: 0,
        updated: 0,
        refused: 0,
        stopped_reason: null,
        finished_at: null,
      },
      refusals: [],
    },
  ],
};

/** The import as GET reads it back once done, with a refused row. */
const ImportRead = {
  ...ImportResult,
  examples: [
    {
      result: true,
      import: {
        ...IMPORT,
        status: 'completed',
        processed_rows: 1200,
        created: 1150,
        updated: 49,
        refused: 1,
        stopped_reason: null,
        finished_at: '2026-11-20T16:05:31.000Z',
      },
      refusals: [{ row: 418, reason: 'phone: not a phone number' }],
    },
  ],
};

const CSV_EXAMPLE =
  'id,phone,name,email,tags,opted_out,opted_out_at,created_at,updated_at,trait:plan\r\n' +
  'ct_4fQ9zR2mXb7LpT1sVn8K,14155552671,Asha Rao,asha@example.com,"newsletter,vip",false,,' +
  '2026-11-02T09:30:00.000Z,2026-11-20T16:05:12.000Z,pro\r\n';

/** REST v1: CSV import of contacts (a job whose progress is read back) and CSV export. */
export async function contactCsvRoutes(app: RestApp): Promise<void> {
  await acceptCsvUploads(app);

  app.post(
    '/contacts/import',
    {
      schema: {
        operationId: 'importContacts',
        summary: 'Import contacts from a CSV file',
        description:
          'Extension. The body is the CSV (Content-Type: text/csv) or a multipart/form-data form with the CSV as its `file` part; ' +
          'UTF-8 (a BOM is fine), a header row, at most 64 MB, 250,000 rows and 200 columns. Columns named phone, name, ' +
          'email and tags are read as such unless the query names others; `trait:<key>` columns and `trait_columns` become traits. ' +
          'Tags in a cell are separated by commas, semicolons or bars. Rows are applied as POST /contacts would (tags added, traits merged) ' +
          'by a background job: 202 answers the import, whose progress and refused rows (row number and why) GET /contacts/imports/{id} reads. ' +
          "The import stops at the plan's contact limit and says so. A file that cannot be read is refused whole: 422 saying why, 413 past the limits. " +
          'A workspace runs two exports and import uploads at once: past them 429 with Retry-After.',
        tags: ['contacts'],
        consumes: ['text/csv', 'multipart/form-data'],
        querystring: ImportQuery,
        response: { 202: ImportStarted, ...errorResponses(400, 401, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => answerImport(app.ctx, request.principal(), request, request.query, reply),
  );

  app.get(
    '/contacts/imports/:id',
    {
      schema: {
        operationId: 'getContactImport',
        summary: "An import's progress and its refused rows",
        description: 'Extension. `limit` and `offset` page the refused rows.',
        tags: ['contacts'],
        params: ImportParams,
        querystring: RefusalPage,
        response: { 200: ImportRead, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await getImport(app.ctx.db, request.principal().workspaceId, request.params.id, request.query)),
    }),
  );

  app.get(
    '/contacts/export',
    {
      schema: {
        operationId: 'exportContacts',
        summary: 'Export every contact as CSV',
        description:
          'Extension. Streams text/csv: id, phone, name, email, tags, opted_out, opted_out_at, created_at, updated_at and a ' +
          '`trait:<key>` column per trait in use (what POST /contacts/import reads back). A cell that a spreadsheet would ' +
          "run as a formula (starting with = + - @, their full-width forms, a tab or a carriage return) is prefixed with '. " +
          'A workspace runs two exports and import uploads at once: past them 429 with Retry-After.',
        tags: ['contacts'],
        produces: ['text/csv'],
        response: {
          200: {
            description: 'The CSV file, as a download',
            content: {
              'text/csv': { schema: { type: 'string', examples: [CSV_EXAMPLE] }, example: CSV_EXAMPLE },
            },
          },
          ...errorResponses(401, 429),
        },
      },
    },
    async (request, reply) => {
      const { workspaceId, keyId } = request.principal();
      holdHeavyWork(app.ctx, reply, { workspaceId, keyId });
      const { columns, traits } = await contactColumns(app.ctx.db, workspaceId);
      return sendCsv(reply, 'contacts', columns, contactRecords(app.ctx.db, workspaceId, traits));
    },
  );
}
