import type { Queryable } from '../../db/db.js';
import { inTransaction, type JobQueue } from '../../jobs/enqueue.js';
import { newId } from '../../lib/ids.js';
import { MEDIA_KINDS, type MediaKind } from './media-types.js';

const NETWORK_ID = /^[\w-]{1,128}$/;

/**
 * An inbound image, video, audio, document or sticker: its media is recorded as pending and the
 * media.download job queued, both in the transaction storing the message (one exists if and only if
 * the other does). Returns the media's id, or null for a message without media.
 */
export async function queueInboundMedia(
  tx: Queryable,
  queue: JobQueue | null,
  message: { workspaceId: string; id: string; type: string; content: Record<string, unknown> | null },
): Promise<string | null> {
  const networkId = message.content?.id;
  if (
    !MEDIA_KINDS.includes(message.type as MediaKind) ||
    typeof networkId !== 'string' ||
    !NETWORK_ID.test(networkId)
  )
    return null;
  const declared = message.content?.mime_type;
  const id = newId('med');
  await tx.query(
    `INSERT INTO media (workspace_id, id, direction, network_id, message_id, kind, mime_type, file_name, state)
     VALUES ($1, $2, 'inbound', $3, $4, $5, $6, $7, 'pending')`,
    [
      message.workspaceId,
      id,
      networkId,
      message.id,
      message.type,
      typeof declared === 'string' ? declared.slice(0, 200) : null,
      typeof message.content?.filename === 'string' ? message.content.filename.slice(0, 500) : null,
    ],
  );
  await queue?.send('media.download', { workspaceId: message.workspaceId, mediaId: id }, inTransaction(tx));
  return id;
}
