import multipart from '@fastify/multipart';
import type { FastifyError, FastifyRequest } from 'fastify';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import type { AppContext } from '../../context.js';
import { canonicalMime, MAX_MEDIA_BYTES } from './media-types.js';
import { type KeptUpload, keepUpload, passUpload, type UploadedMedia, wrongType } from './upload-media.js';

/**
 * Multipart for the routes of `app` alone (every other route still answers it 415); the file streams
 * through busboy, nothing else reads the body.
 */
export async function acceptMediaUploads(app: RestApp): Promise<void> {
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
}

/**
 * A form busboy cannot read (no boundary, cut off, not multipart at all) is the sender's fault: 400.
 * The plugin's own refusals (413 past a limit) and ours keep their status.
 */
function formError(err: unknown): unknown {
  const status = (err as FastifyError | undefined)?.statusCode;
  if (err instanceof ApiError || (status && status >= 400 && status < 500)) return err;
  const message = 'The multipart form could not be read; send the file as its `file` part';
  return new ApiError('bad_request', message, undefined, { cause: err });
}

/** The form's parts, or a part's bytes, with busboy's failures part way said to be the form's. */
async function* readable<T>(source: AsyncIterable<T>): AsyncIterable<T> {
  try {
    for await (const item of source) yield item;
  } catch (err) {
    throw formError(err);
  }
}

/**
 * POST /media (REST v1 and the web app): the form's `file`, and `type` if declared, kept in the store
 * and passed to the network; a file kept before a later part is refused is deleted again.
 */
export async function receiveUpload(
  ctx: AppContext,
  request: FastifyRequest,
  workspaceId: string,
): Promise<UploadedMedia> {
  if (!request.isMultipart())
    throw new ApiError(
      'unsupported_media_type',
      'Send the file as multipart/form-data, in a field named `file`',
    );
  let declared: string | undefined;
  let kept: KeptUpload | undefined;
  try {
    for await (const part of readable(request.parts())) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file')
          throw ApiError.validation(part.fieldname, 'is not a known field; send the file as `file`');
        const own = part.mimetype && part.mimetype !== 'application/octet-stream' ? part.mimetype : undefined;
        kept = await keepUpload(ctx, workspaceId, {
          file: readable(part.file),
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
    if (kept) await ctx.media.delete(kept.key);
    throw err;
  }
  if (!kept) throw ApiError.validation('file', 'is required: the file to upload');
  return passUpload(ctx, workspaceId, kept);
}
