import type { RestApp } from '../../api/rest-app.js';
import { IdParams } from '../accounts/schemas.js';
import { messageMedia } from './message-media.js';
import { acceptMediaUploads, receiveUpload } from './receive-upload.js';
import { sendMedia } from './send-media.js';

/**
 * POST /media: a file to attach to a reply (the answer's id goes in the reply's `attachment`).
 * GET /messages/:id/media: the file of a message, for the conversation view (`<img src=...>`).
 * Served as send-media.ts says (never run as a page of this origin).
 */
export async function registerAppMediaRoutes(app: RestApp): Promise<void> {
  // The inbox's attachments: the REST API's upload, for the session's workspace.
  await app.register(async (scope: RestApp) => {
    await acceptMediaUploads(scope);
    scope.post('/media', async (request) => ({
      result: true,
      ...(await receiveUpload(scope.ctx, request, request.session().workspaceId)),
    }));
  });
  app.get('/messages/:id/media', { schema: { params: IdParams } }, async (request, reply) => {
    const media = await messageMedia(app.ctx, request.session().workspaceId, request.params.id);
    return sendMedia(reply, media);
  });
}
