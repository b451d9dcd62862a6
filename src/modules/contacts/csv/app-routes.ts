import type { RestApp } from '../../../http/rest-app.js';
import { sendCsv } from '../../../http/send-csv.js';
import { ImportQuery } from './column-mapping.js';
import { contactColumns, contactRecords } from './export-contacts.js';
import { getImport } from './get-import.js';
import { acceptCsvUploads, uploadOf } from './read-upload.js';
import { ImportParams, RefusalPage } from './schemas.js';
import { startImport } from './start-import.js';

/** The web app's Contacts page: upload a CSV (the browser sends it as text/csv), follow the import, download all. */
export async function appContactCsvRoutes(app: RestApp): Promise<void> {
  acceptCsvUploads(app);

  app.post('/contacts/import', { schema: { querystring: ImportQuery } }, async (request, reply) => {
    const upload = await uploadOf(request);
    const started = await startImport(app.ctx, request.session().workspaceId, upload, request.query);
    return reply.code(202).send({ result: true, ...started });
  });

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
