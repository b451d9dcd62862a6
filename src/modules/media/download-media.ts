import type { AppContext } from '../../context.js';
import { CloudApiError } from '../messaging/cloud-api/client.js';
import { clientFor, numberOfWorkspace } from '../messaging/connected-numbers.js';
import { canonicalMime } from './media-types.js';
import { meter, TooLarge } from './metered.js';

/** How long one download (the media URL, then every byte of the file) may take. */
const DOWNLOAD_TIMEOUT_MS = 60_000;
const MIME = /^[\w.+-]{1,100}\/[\w.+-]{1,100}$/;

interface PendingMedia {
  network_id: string;
  mime_type: string | null;
}

/**
 * The media.download job: an inbound message's media read from the network (`GET /{media-id}`, then
 * its URL with the number's token), bounded in time and in size (MEDIA_MAX_BYTES), and kept in the
 * media store. A transient failure throws for the queue to retry; a refusal, an oversized file or the
 * last try failing records the media as refused with the reason, and it is never tried again.
 */
export async function downloadMedia(
  ctx: AppContext,
  job: { workspaceId: string; mediaId: string },
  lastTry: boolean,
  timeoutMs = DOWNLOAD_TIMEOUT_MS,
): Promise<void> {
  const { rows } = await ctx.db.query<PendingMedia>(
    `UPDATE media SET attempts = attempts + 1, updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND state = 'pending' RETURNING network_id, mime_type`,
    [job.workspaceId, job.mediaId],
  );
  const media = rows[0];
  if (!media) return;
  // A conversation open in a browser draws the file (or says why there is none) once the download ends.
  const announce = () =>
    ctx.db.query(
      `SELECT record_live_event(m.workspace_id, 'status', m.contact_id, m.id, m.direction)
       FROM media d JOIN messages m ON m.workspace_id = d.workspace_id AND m.id = d.message_id
       WHERE d.workspace_id = $1 AND d.id = $2`,
      [job.workspaceId, job.mediaId],
    );
  const refuse = async (reason: string) => {
    await ctx.db.query(
      `UPDATE media SET state = 'refused', reason = $3, updated_at = now()
       WHERE workspace_id = $1 AND id = $2 AND state = 'pending'`,
      [job.workspaceId, job.mediaId, reason.slice(0, 1000)],
    );
    await announce();
  };
  const number = await numberOfWorkspace(ctx, ctx.db, job.workspaceId);
  if (!number) return void (await refuse('the workspace has no connected number to download it with'));
  const max = ctx.config.mediaMaxBytes;
  const key = `${job.workspaceId}/${job.mediaId}`;
  try {
    const client = clientFor(ctx, number, timeoutMs);
    const info = await client.mediaInfo(media.network_id);
    if (info.fileSize !== null && info.fileSize > max)
      return void (await refuse(`the file (${info.fileSize} bytes) is larger than MEDIA_MAX_BYTES (${max})`));
    const res = await client.openMedia(info.url);
    const metered = meter(res.body ?? emptyBody(), max);
    await ctx.media.put(key, metered.stream);
    const { size, sha256 } = metered.totals.done!;
    if (info.sha256 && info.sha256.toLowerCase() !== sha256) {
      await ctx.media.delete(key);
      throw new CloudApiError("the file's SHA-256 is not the one the network announced", 0, 200, true);
    }
    const mime = canonicalMime(info.mimeType ?? media.mime_type ?? '');
    await ctx.db.query(
      `UPDATE media SET state = 'stored', storage_key = $3, size = $4, sha256 = $5, mime_type = $6, reason = NULL,
         updated_at = now()
       WHERE workspace_id = $1 AND id = $2`,
      [job.workspaceId, job.mediaId, key, size, sha256, MIME.test(mime) ? mime : 'application/octet-stream'],
    );
    await announce();
  } catch (err) {
    if (err instanceof TooLarge)
      return void (await refuse(`the file is larger than MEDIA_MAX_BYTES (${max})`));
    // A refusal from the network (an expired or unknown media id, a URL it will not serve) stays one.
    if (err instanceof CloudApiError && !err.transient) return void (await refuse(err.message));
    const what = err instanceof Error ? err.message : String(err);
    if (lastTry) return void (await refuse(`gave up after repeated failures; the last: ${what}`));
    // The queue retries with backoff; the media stays pending meanwhile.
    throw err;
  }
}

async function* emptyBody(): AsyncIterable<Uint8Array> {}
