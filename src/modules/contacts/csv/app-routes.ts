import type { RestApp } from '../../../http/rest-app.js';
import { sendCsv } from '../../../http/send-csv.js';
import { ImportQuery } from './column-mapping.js';
import { contactColumns, contactRecords } from './export-contacts.js';
import { getImport } from './get-import.js';
import { acceptCsvUploads } from './read-upload.js';
import { ImportParams, RefusalPage } from './schemas.js';
import { answerImport } from './start-import.js';

/** The web app's Contacts page: upload a CSV (the browser sends it as text/csv), follow the import, download all. */
export async function appContactCsvRoutes(app: RestApp): Promise<void> {
  await acceptCsvUploads(app);

  app.post('/contacts/import', { schema: { querystring: ImportQuery } }, async (request, reply) =>
    answerImport(app.ctx, request.session().workspaceId, request, request.query, reply),
  );

  app.get(
    '/contacts/imports/:id',
    { schema: { params: ImportParams, querystring: RefusalPage } },
    async (request) => ({
      result: true,
      ...(await getImport(app.ctx.db, request.session().workspaceId, request.params.id, request.query)),
    }),
  );

  app.get('/contacts/export', async (request, reply) => {
    const workspaceId = request.session().workspaceId;
    const { columns, traits } = await contactColumns(app.ctx.db, workspaceId);
    return sendCsv(reply, 'contacts', columns, contactRecords(app.ctx.db, workspaceId, traits));
  });
}
