import type { FastifyRequest } from 'fastify';
import type { RestApp } from '../../../api/rest-app.js';
import { sendCsv } from '../../../api/send-csv.js';
import { holdHeavyWork } from '../../rate-limit/heavy-work.js';
import { ImportQuery } from './column-mapping.js';
import { contactColumns, contactRecords } from './export-contacts.js';
import { getImport } from './get-import.js';
import { acceptCsvUploads } from './read-upload.js';
import { ImportParams, RefusalPage } from './schemas.js';
import { answerImport } from './start-import.js';

const owner = (request: FastifyRequest) => {
  const { workspaceId, userId } = request.session();
  return { workspaceId, userId };
};

/** The web app's Contacts page: upload a CSV (the browser sends it as text/csv), follow the import, download all. */
export async function appContactCsvRoutes(app: RestApp): Promise<void> {
  await acceptCsvUploads(app);

  app.post('/contacts/import', { schema: { querystring: ImportQuery } }, async (request, reply) =>
    answerImport(app.ctx, owner(request), request, request.query, reply),
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
    const { workspaceId } = request.session();
    holdHeavyWork(app.ctx, reply, owner(request));
    const { columns, traits } = await contactColumns(app.ctx.db, workspaceId);
    return sendCsv(reply, 'contacts', columns, contactRecords(app.ctx.db, workspaceId, traits));
  });
}
