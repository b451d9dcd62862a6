import { Type } from 'typebox';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { MediaKindSchema } from './media-types.js';
import { messageMedia } from './message-media.js';
import { acceptMediaUploads, receiveUpload } from './receive-upload.js';
import { sendMedia } from './send-media.js';

const UploadResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String({ description: "The network's media id: send it as `image: {id}` (or video, audio...)" }),
  kind: MediaKindSchema,
  mime_type: Type.String(),
  file_size: Type.Integer(),
  sha256: Type.String(),
});

/**
 * POST /media: a file to send, passed to the Graph API's media endpoint of the workspace's number.
 * GET /messages/:id/media: the file a message carries, as Parley keeps it.
 */
export async function registerMediaRoutes(parent: RestApp): Promise<void> {
  await parent.register(async (app: RestApp) => {
    await acceptMediaUploads(app);
    registerUpload(app);
  });
  registerMessageMedia(parent);
}

function registerMessageMedia(app: RestApp): void {
  app.get(
    '/messages/:id/media',
    {
      schema: {
        summary: 'The media file of a message',
        description:
          "Extension. The file of a media message (image, video, audio, document, sticker) or of a template's media " +
          "header, as the app's conversation view shows it: the bytes with their own `Content-Type`, at most 100 MB " +
          '(the largest file WhatsApp takes). Plain images, video and audio come `inline`; anything else as an ' +
          '`attachment` with its file name. Files come from customers: the answer carries `X-Content-Type-Options: ' +
          'nosniff` and a sandboxing `Content-Security-Policy`. 404 `not_found` for a message this workspace does not ' +
          'have or one that carries no media; 404 `media_not_stored` while Parley holds no copy: still downloading ' +
          '(try again shortly), refused (the message says why), sent by link, or removed after the data retention period.',
        operationId: 'getMessageMedia',
        tags: ['messages'],
        params: IdParams,
        produces: ['application/octet-stream'],
        response: {
          200: {
            description: "The file, with the media's own Content-Type (image/jpeg, application/pdf...)",
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request, reply) =>
      sendMedia(reply, await messageMedia(app.ctx, request.principal().workspaceId, request.params.id)),
  );
}

function registerUpload(app: RestApp): void {
  app.post(
    '/media',
    {
      schema: {
        summary: 'Upload a file to send as a media message or template header',
        description:
          'multipart/form-data: `file`, and optionally `type` (its MIME type, as Meta takes it) before the file. ' +
          "The type is read from the file's bytes and must be one WhatsApp takes, and the declared one if given (else 415): " +
          'audio aac, amr, mpeg, mp4, ogg (16 MB); documents text, PDF, Word, Excel, PowerPoint (100 MB); ' +
          'images jpeg, png (5 MB); stickers webp (100 KB static, 500 KB animated); video mp4, 3gpp (16 MB). ' +
          "A larger file is refused with 413 as soon as it passes the limit. The answer `id` is the network's media id: " +
          'use it in POST /messages (`{"type": "image", "image": {"id": "..."}}`) or a template header (`{id}`).',
        operationId: 'uploadMedia',
        tags: ['messages'],
        consumes: ['multipart/form-data'],
        response: {
          200: {
            ...UploadResult,
            examples: [
              {
                result: true,
                id: '1376223850470843',
                kind: 'image',
                mime_type: 'image/jpeg',
                file_size: 48213,
                sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
              },
            ],
          },
          ...errorResponses(401, 409, 413, 415, 422, 429, 503),
        },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await receiveUpload(app.ctx, request, request.principal().workspaceId)),
    }),
  );
}
