import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { newId } from '../../lib/ids.js';
import { CloudApiError } from '../messaging/cloud-api/client.js';
import { clientFor, numberOfWorkspace } from '../messaging/connected-numbers.js';
import { safeFileName } from './file-name.js';
import { describeLimit, type MediaKind, SNIFF_BYTES, sniffMedia } from './media-types.js';
import { meter, readHead, TooLarge } from './metered.js';

export interface UploadInput {
  file: AsyncIterable<Uint8Array>;
  fileName: string | undefined;
  /** The MIME type the sender declared (the `type` field, or the file part's own), if any. */
  declared: string | undefined;
}

export interface UploadedMedia {
  id: string;
  kind: MediaKind;
  mime_type: string;
  file_size: number;
  sha256: string;
}

const UPLOAD_TIMEOUT_MS = 120_000;

/** An upload read and kept in the store, not yet passed to the network. */
export interface KeptUpload {
  id: string;
  key: string;
  kind: MediaKind;
  mimeType: string;
  fileName: string;
  size: number;
  sha256: string;
}

/**
 * POST /media, first half: the file's type from its bytes (415 when WhatsApp does not take it or it
 * is not what was declared), its size against Meta's limit for that type (413, read no further), kept
 * in the media store. 409 first when there is no number to pass it to.
 */
export async function keepUpload(
  ctx: AppContext,
  workspaceId: string,
  input: UploadInput,
): Promise<KeptUpload> {
  await numberOf(ctx, workspaceId);
  const { head, stream } = await readHead(input.file, SNIFF_BYTES);
  if (head.length === 0) throw ApiError.validation('file', 'is empty');
  const sniffed = await sniffMedia(head, input.declared);
  if (!sniffed.ok) throw wrongType(sniffed.message);
  const id = newId('med');
  const key = `${workspaceId}/${id}`;
  const metered = meter(stream, sniffed.maxBytes);
  try {
    await ctx.media.put(key, metered.stream);
  } catch (err) {
    if (err instanceof TooLarge)
      throw new ApiError(
        'payload_too_large',
        `The file is larger than WhatsApp takes for ${sniffed.mime} (${describeLimit(sniffed.maxBytes)})`,
      );
    throw err;
  }
  const { size, sha256 } = metered.totals.done!;
  return {
    id,
    key,
    kind: sniffed.kind,
    mimeType: sniffed.mime,
    fileName: safeFileName(input.fileName, sniffed.kind),
    size,
    sha256,
  };
}

export const wrongType = (message: string) =>
  new ApiError('unsupported_media_type', message, [{ field: 'file', message }]);

/**
 * POST /media, second half: the kept file passed to the Graph API's media endpoint of the workspace's
 * number. Answers the network's media id, which messages and template headers take as `{id}`; the
 * file stays in the store so the app can show what was sent.
 */
export async function passUpload(
  ctx: AppContext,
  workspaceId: string,
  kept: KeptUpload,
): Promise<UploadedMedia> {
  let networkId: string;
  try {
    const number = await numberOf(ctx, workspaceId);
    const bytes = await ctx.media.get(kept.key);
    if (!bytes) throw new Error(`media ${kept.key} vanished from the store`);
    networkId = await clientFor(ctx, number, UPLOAD_TIMEOUT_MS).uploadMedia(number.phoneNumberId, {
      stream: bytes,
      mimeType: kept.mimeType,
      fileName: kept.fileName,
    });
  } catch (err) {
    await ctx.media.delete(kept.key);
    throw refusal(err);
  }
  await ctx.db.query(
    `INSERT INTO media (workspace_id, id, direction, network_id, kind, mime_type, file_name, size, sha256,
       storage_key, state)
     VALUES ($1, $2, 'outbound', $3, $4, $5, $6, $7, $8, $9, 'stored')`,
    [
      workspaceId,
      kept.id,
      networkId,
      kept.kind,
      kept.mimeType,
      kept.fileName,
      kept.size,
      kept.sha256,
      kept.key,
    ],
  );
  return {
    id: networkId,
    kind: kept.kind,
    mime_type: kept.mimeType,
    file_size: kept.size,
    sha256: kept.sha256,
  };
}

async function numberOf(ctx: AppContext, workspaceId: string) {
  const number = await numberOfWorkspace(ctx, ctx.db, workspaceId);
  if (!number)
    throw new ApiError(
      'no_connected_number',
      'The workspace has no connected WhatsApp number; connect one in Settings',
    );
  return number;
}

/** The network's answer to an upload, as a send's: a refusal names the file, anything else is ours to retry. */
function refusal(err: unknown): unknown {
  if (!(err instanceof CloudApiError)) return err;
  if (err.transient || err.httpStatus < 400 || err.httpStatus >= 500)
    return new ApiError('unavailable', `The network did not take the file (${err.message}); try again`);
  const message = `The network refused the file: ${err.message}${err.code ? ` (code ${err.code})` : ''}`;
  return new ApiError('validation_error', message, [{ field: 'file', message }]);
}
