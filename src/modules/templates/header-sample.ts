import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { safeFileName } from '../media/file-name.js';
import { describeLimit, SNIFF_BYTES, sniffMedia } from '../media/media-types.js';
import { CloudApiError } from '../messaging/cloud-api/client.js';
import { clientFor, numberOfWorkspace } from '../messaging/connected-numbers.js';

const MB = 1_000_000;

/**
 * What Meta takes as a template header's sample, and at most how large. Documents stop at 16 MB here
 * (Meta's own limit is 100 MB): the sample is held in memory while it goes to Meta.
 */
const SAMPLE_LIMITS: Readonly<Record<string, number>> = {
  'image/jpeg': 5 * MB,
  'image/png': 5 * MB,
  'video/mp4': 16 * MB,
  'application/pdf': 16 * MB,
};
export const MAX_HEADER_SAMPLE_BYTES = 16 * MB;
const UPLOAD_TIMEOUT_MS = 120_000;

const refused = (code: 'unsupported_media_type' | 'payload_too_large', message: string) =>
  new ApiError(code, message, [{ field: 'file', message }]);

/**
 * POST /templates/header-sample (the web app and REST v1): the form's `file`, its type read from its
 * bytes, sent to Meta's Resumable Upload API for the workspace's number; answers the handle.
 */
export async function receiveHeaderSample(ctx: AppContext, request: FastifyRequest, workspaceId: string) {
  const number = await numberOfWorkspace(ctx, ctx.db, workspaceId);
  if (!number)
    throw new ApiError(
      'no_connected_number',
      'The workspace has no connected WhatsApp number; connect one in Settings',
    );
  if (!request.isMultipart())
    throw new ApiError(
      'unsupported_media_type',
      'Send the file as multipart/form-data, in a field named `file`',
    );
  let file: { bytes: Buffer; fileName: string } | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_HEADER_SAMPLE_BYTES + 1, files: 1 } })) {
      if (part.type !== 'file' || part.fieldname !== 'file')
        throw ApiError.validation(part.fieldname, 'is not a known field; send the file as `file`');
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file) {
        size += chunk.length;
        if (size > MAX_HEADER_SAMPLE_BYTES)
          throw refused(
            'payload_too_large',
            `A header sample is at most ${describeLimit(MAX_HEADER_SAMPLE_BYTES)}`,
          );
        chunks.push(chunk);
      }
      file = { bytes: Buffer.concat(chunks), fileName: part.filename };
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(
      'bad_request',
      'The multipart form could not be read; send the file as its `file` part',
      undefined,
      {
        cause: err,
      },
    );
  }
  if (!file) throw ApiError.validation('file', 'is required: the sample image, video or PDF');
  if (file.bytes.length === 0) throw ApiError.validation('file', 'is empty');
  const sniffed = await sniffMedia(file.bytes.subarray(0, SNIFF_BYTES), undefined);
  const limit = sniffed.ok ? SAMPLE_LIMITS[sniffed.mime] : undefined;
  if (!sniffed.ok || limit === undefined)
    throw refused(
      'unsupported_media_type',
      'A header sample is a JPEG or PNG image, an MP4 video or a PDF document',
    );
  if (file.bytes.length > limit)
    throw refused('payload_too_large', `A ${sniffed.mime} sample is at most ${describeLimit(limit)}`);
  let handle: string;
  try {
    handle = await clientFor(ctx, number, UPLOAD_TIMEOUT_MS).uploadHeaderSample({
      bytes: file.bytes,
      mimeType: sniffed.mime,
      fileName: safeFileName(file.fileName, sniffed.kind),
    });
  } catch (err) {
    if (!(err instanceof CloudApiError)) throw err;
    if (err.transient || err.httpStatus < 400 || err.httpStatus >= 500)
      throw new ApiError('unavailable', `The network did not take the file (${err.message}); try again`);
    const message = `The network refused the file: ${err.message}`;
    throw new ApiError('validation_error', message, [{ field: 'file', message }]);
  }
  return { result: true as const, handle, mime_type: sniffed.mime, file_size: file.bytes.length };
}
