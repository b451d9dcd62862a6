import type { Readable } from 'node:stream';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { MEDIA_KINDS, type MediaKind } from './media-types.js';

export interface StoredMedia {
  kind: string;
  mimeType: string;
  fileName: string | null;
  body: Readable;
}

const REMOVED =
  'The media was removed: it was older than the workspace keeps media (Settings › Workspace › Data retention)';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The network's media id a message carries: its media object, or a template's header parameter. */
function mediaOf(m: { type: string; content: unknown; template_components: unknown }) {
  if (MEDIA_KINDS.includes(m.type as MediaKind) && isObject(m.content))
    return { id: m.content.id, link: m.content.link };
  if (m.type !== 'template' || !Array.isArray(m.template_components)) return undefined;
  const header = m.template_components.find((c) => isObject(c) && c.type === 'header');
  const param = isObject(header) && Array.isArray(header.parameters) ? header.parameters[0] : undefined;
  const media = isObject(param) && typeof param.type === 'string' ? param[param.type] : undefined;
  return isObject(media) ? { id: media.id, link: media.link } : undefined;
}

/**
 * The stored bytes of a message's media, in the workspace given (404 for another workspace's message,
 * as for one that does not exist). 404 media_not_stored while it is not kept: still downloading,
 * refused (with the reason), or sent by link (Parley keeps no copy of a linked file).
 */
export async function messageMedia(
  ctx: AppContext,
  workspaceId: string,
  messageId: string,
): Promise<StoredMedia> {
  const { rows } = await ctx.db.query<{
    type: string;
    content: unknown;
    template_components: unknown;
    content_removed_at: Date | null;
  }>(
    'SELECT type, content, template_components, content_removed_at FROM messages WHERE workspace_id = $1 AND id = $2',
    [workspaceId, messageId],
  );
  if (!rows[0]) throw new ApiError('not_found', `No message ${messageId}`);
  if (rows[0].content_removed_at) throw new ApiError('media_not_stored', REMOVED);
  const carried = mediaOf(rows[0]);
  if (!carried) throw new ApiError('not_found', `Message ${messageId} carries no media`);
  if (typeof carried.id !== 'string')
    throw new ApiError(
      'media_not_stored',
      'The media was sent by link: Parley keeps no copy; open the link itself',
    );
  const { rows: found } = await ctx.db.query<{
    kind: string;
    mime_type: string | null;
    file_name: string | null;
    state: string;
    storage_key: string | null;
    reason: string | null;
  }>(
    `SELECT kind, mime_type, file_name, state, storage_key, reason FROM media
     WHERE workspace_id = $1 AND (message_id = $2 OR network_id = $3)
     ORDER BY (message_id = $2) DESC NULLS LAST, (state = 'stored') DESC, created_at DESC LIMIT 1`,
    [workspaceId, messageId, carried.id],
  );
  const media = found[0];
  if (!media)
    throw new ApiError(
      'media_not_stored',
      'Parley holds no copy of this media (it was not uploaded through Parley)',
    );
  if (media.state === 'pending')
    throw new ApiError('media_not_stored', 'The media is still being downloaded; try again shortly');
  if (media.state === 'removed') throw new ApiError('media_not_stored', REMOVED);
  if (media.state === 'refused' || !media.storage_key)
    throw new ApiError(
      'media_not_stored',
      `The media could not be kept: ${media.reason ?? 'no reason recorded'}`,
    );
  const body = await ctx.media.get(media.storage_key);
  if (!body) throw new ApiError('media_not_stored', 'The media is no longer in the media store');
  return {
    kind: media.kind,
    mimeType: media.mime_type ?? 'application/octet-stream',
    fileName: media.file_name,
    body,
  };
}
