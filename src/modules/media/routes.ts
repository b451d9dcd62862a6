import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { errorResponses } from '../../http/schema.js';
import { canonicalMime, MAX_MEDIA_BYTES } from './media-types.js';
import { type KeptUpload, keepUpload, passUpload, wrongType } from './upload-media.js';

const UploadResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String({ description: "The network's media id: send it as `image: {id}` (or video, audio...)" }),
  kind: Type.Union([
    Type.Literal('image'),
    Type.Literal('video'),
    Type.Literal('audio'),
    Type.Literal('document'),
    Type.Literal('sticker'),
  ]),
  mime_type: Type.String(),
  file_size: Type.Integer(),
  sha256: Type.String(),
});

/** POST /media: a file to send, passed to the Graph API's media endpoint of the workspace's number. */
export async function registerMediaRoutes(parent: RestApp): Promise<void> {
  // Multipart in a scope of this route alone (every other v1 route still answers it 415); the file
  // streams through busboy, nothing else reads the body.
  await parent.register(async (app: RestApp) => {
    await app.register(multipart, {
      limits: {
        fileSize: MAX_MEDIA_BYTES + 1,
        files: 1,
        fields: 4,
        fieldSize: 256,
        parts: 6,
        headerPairs: 20,
      },
    });
    registerUpload(app);
  });
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
        tags: ['messages'],
        consumes: ['multipart/form-data'],
        response: { 200: UploadResult, ...errorResponses(401, 409, 413, 415, 422, 429, 503) },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      if (!request.isMultipart())
        throw new ApiError(
          'unsupported_media_type',
          'Send the file as multipart/form-data, in a field named `file`',
        );
      let declared: string | undefined;
      let kept: KeptUpload | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file')
              throw ApiError.validation(part.fieldname, 'is not a known field; send the file as `file`');
            const own =
              part.mimetype && part.mimetype !== 'application/octet-stream' ? part.mimetype : undefined;
            kept = await keepUpload(app.ctx, workspaceId, {
              file: part.file,
              fileName: part.filename,
              declared: declared ?? own,
            });
          } else if (part.fieldname === 'type') {
            declared = String(part.value);
            if (kept && canonicalMime(declared) !== kept.mimeType)
              throw wrongType(
                `The file's content is ${kept.mimeType}, not the declared ${canonicalMime(declared)}`,
              );
          } else if (part.fieldname !== 'messaging_product') {
            throw ApiError.validation(
              part.fieldname,
              'is not a known field (send `file`, and `type` if you wish)',
            );
          }
        }
      } catch (err) {
        if (kept) await app.ctx.media.delete(kept.key);
        throw err;
      }
      if (!kept) throw ApiError.validation('file', 'is required: the file to upload');
      return { result: true as const, ...(await passUpload(app.ctx, workspaceId, kept)) };
    },
  );
}
