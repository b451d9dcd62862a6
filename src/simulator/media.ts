import { createHash, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  canonicalMime,
  MAX_MEDIA_BYTES,
  SNIFF_BYTES,
  sniffMedia,
  supportedMime,
} from '../modules/media/media-types.js';
import { graphError } from './graph-error.js';
import type { SimMedia, SimState } from './state.js';

const newMediaId = () => String(1_000_000_000_000_000 + randomInt(1, 281_474_976_710_655));

/** A file the simulated network holds for a number, as Meta keeps an uploaded or received one. */
export function keepMedia(state: SimState, phoneNumberId: string, mimeType: string, bytes: Buffer): SimMedia {
  const media: SimMedia = {
    id: newMediaId(),
    phoneNumberId,
    mimeType,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
  state.media.set(media.id, media);
  return media;
}

/**
 * Meta's media endpoints: upload (`POST /{phone-number-id}/media`, multipart), retrieve a media URL
 * (`GET /{media-id}`, shared with the phone number read in plugin.ts), delete, and the download URL,
 * which like Meta's answers only with the owning number's access token.
 */
export async function mediaRoutes(parent: FastifyInstance, state: SimState): Promise<void> {
  // Multipart for the upload alone, in a scope of its own.
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: MAX_MEDIA_BYTES + 1, files: 1, fields: 4, parts: 6 },
    });
    uploadRoute(app, state);
  });

  parent.delete<{
    Params: { version: string; phoneNumberId: string };
    Querystring: { phone_number_id?: string };
  }>('/:version/:phoneNumberId', { config: { graph: true } }, async (request, reply) => {
    const media = namedMedia(state, request.params.phoneNumberId, request.query.phone_number_id);
    if (!media) return noSuchMedia(reply, request.params.phoneNumberId);
    state.media.delete(media.id);
    return { success: true };
  });

  parent.get<{ Params: { mediaId: string } }>(
    '/media-download/:mediaId',
    { config: { graph: true } },
    async (request, reply) => {
      const media = state.media.get(request.params.mediaId)!;
      if (state.faults.mediaLatencyMs) await sleep(state.faults.mediaLatencyMs);
      return reply
        .header('content-type', media.mimeType)
        .header('content-length', media.bytes.length)
        .send(media.bytes);
    },
  );
}

/** `POST /{phone-number-id}/media`: Meta's checks and error codes, the file kept in memory. */
function uploadRoute(app: FastifyInstance, state: SimState) {
  app.post<{
    Params: { version: string; phoneNumberId: string };
    Querystring: { messaging_product?: string };
  }>('/:version/:phoneNumberId/media', { config: { graph: true } }, async (request, reply) => {
    if (!request.isMultipart()) return graphError(reply, 400, 100, 'Param file is required');
    const fields: Record<string, string> = {};
    let file: { bytes: Buffer; mimetype: string; truncated: boolean } | undefined;
    for await (const part of request.parts({ limits: { fileSize: MAX_MEDIA_BYTES + 1 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer().catch(() => null);
        file = { bytes: bytes ?? Buffer.alloc(0), mimetype: part.mimetype, truncated: bytes === null };
      } else fields[part.fieldname] = String(part.value);
    }
    const product = fields.messaging_product ?? request.query.messaging_product;
    if (product !== 'whatsapp')
      return graphError(reply, 400, 100, 'Param messaging_product must be whatsapp');
    if (!file || file.bytes.length === 0) return graphError(reply, 400, 100, 'Param file is required');
    const type = canonicalMime(fields.type ?? file.mimetype ?? '');
    if (!supportedMime(type))
      return graphError(
        reply,
        400,
        100,
        `Param file must be a file with one of the supported types, not ${type}`,
      );
    const sniffed = await sniffMedia(file.bytes.subarray(0, SNIFF_BYTES), type);
    if (!sniffed.ok) return graphError(reply, 400, 131053, sniffed.message);
    if (file.truncated || file.bytes.length > sniffed.maxBytes)
      return graphError(
        reply,
        400,
        131053,
        `Media file size too big. Max file size for ${type} is ${sniffed.maxBytes} bytes`,
      );
    return { id: keepMedia(state, request.params.phoneNumberId, sniffed.mime, file.bytes).id };
  });
}

/** The media a Graph route's id names, when it is one; `?phone_number_id` must own it, as Meta checks. */
export function namedMedia(state: SimState, id: string, owner: string | undefined): SimMedia | undefined {
  const media = state.media.get(id);
  return media && (owner === undefined || owner === media.phoneNumberId) ? media : undefined;
}

export const noSuchMedia = (reply: FastifyReply, id: string) =>
  graphError(
    reply,
    400,
    100,
    `Unsupported request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
  );

/** `GET /{media-id}`: Meta's media URL answer, the URL good with the owner's token. */
export function mediaInfo(request: FastifyRequest, prefix: string, media: SimMedia) {
  return {
    messaging_product: 'whatsapp',
    url: `${request.protocol}://${request.host}${prefix}/media-download/${media.id}?hash=${media.sha256.slice(0, 16)}`,
    mime_type: media.mimeType,
    sha256: media.sha256,
    file_size: media.bytes.length,
    id: media.id,
  };
}
