import type { RestApp } from '../../api/rest-app.js';
import { IdParams } from '../accounts/schemas.js';
import { attachmentHeader, safeFileName } from './file-name.js';
import { messageMedia } from './message-media.js';
import { acceptMediaUploads, receiveUpload } from './receive-upload.js';

// Types a browser shows inline as what they are; anything else (HTML, SVG, PDF...) is a download.
const INLINE = /^(image\/(jpeg|png|webp)|video\/(mp4|3gpp)|audio\/(aac|amr|mpeg|mp4|ogg))$/;

/**
 * POST /media: a file to attach to a reply (the answer's id goes in the reply's `attachment`).
 * GET /messages/:id/media: the file of a message, for the conversation view (`<img src=...>`).
 * Stored files come from customers: served with nosniff and a sandboxing Content-Security-Policy so
 * that none can run as a page of this origin, and as a download unless it is a plain image, video or audio.
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
    const inline = INLINE.test(media.mimeType) && media.kind !== 'document';
    const name = safeFileName(media.fileName ?? undefined, media.kind);
    return reply
      .header('content-type', media.mimeType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('content-disposition', inline ? 'inline' : attachmentHeader(name))
      .send(media.body);
  });
}
