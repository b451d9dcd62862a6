import type { FastifyReply } from 'fastify';
import { attachmentHeader, safeFileName } from './file-name.js';
import type { StoredMedia } from './message-media.js';

// Types a browser shows inline as what they are; anything else (HTML, SVG, PDF...) is a download.
const INLINE = /^(image\/(jpeg|png|webp)|video\/(mp4|3gpp)|audio\/(aac|amr|mpeg|mp4|ogg))$/;

/**
 * Streams a message's stored media with its own type. Stored files come from customers: served with
 * nosniff and a sandboxing Content-Security-Policy so that none can run as a page of this origin, and
 * as a download unless it is a plain image, video or audio.
 */
export function sendMedia(reply: FastifyReply, media: StoredMedia) {
  const inline = INLINE.test(media.mimeType) && media.kind !== 'document';
  const name = safeFileName(media.fileName ?? undefined, media.kind);
  return reply
    .header('content-type', media.mimeType)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', inline ? 'inline' : attachmentHeader(name))
    .send(media.body);
}
