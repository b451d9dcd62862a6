import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { safeEqual } from '../lib/constant-time.js';
import { sniffMedia } from '../modules/media/media-types.js';
import { graphError } from './graph-error.js';
import type { SimNumber, SimState, SimUpload } from './state.js';

const MB = 1_000_000;

/** What Meta's Resumable Upload API takes for a template's header sample, and its size limit. */
export const SAMPLE_TYPES: Readonly<Record<string, number>> = {
  'image/jpeg': 5 * MB,
  'image/png': 5 * MB,
  'video/mp4': 16 * MB,
  'application/pdf': 100 * MB,
};

/** The Meta app a number's token belongs to: one per business account, a numeric id as Meta's are. */
export function simAppId(number: Pick<SimNumber, 'businessAccountId'>): string {
  const n = createHash('sha256').update(number.businessAccountId).digest().readUIntBE(0, 6);
  return String(100_000_000_000_000 + n);
}

const MAX_UPLOAD_ID = 200;

/**
 * Meta's Resumable Upload API, as templates' media header samples use it: `GET /app` (the token's
 * app), `POST /{app-id}/uploads` (a session), `POST /{upload-id}` with `file_offset` (the bytes, from
 * where the network has them; answers the handle `h` once all are in), `GET /{upload-id}` (the
 * offset to resume from; answered in plugin.ts's `GET /{id}`). Control: break the next upload.
 */
export async function uploadRoutes(parent: FastifyInstance, state: SimState): Promise<void> {
  parent.get('/:version/app', { config: { graph: true } }, async (request) => {
    const number = numberOfToken(state, request.headers.authorization)!;
    return { id: simAppId(number), name: 'Parley Simulator' };
  });

  parent.post<{
    Params: { version: string; appId: string };
    Querystring: { file_name?: string; file_length?: string; file_type?: string };
  }>('/:version/:appId/uploads', { config: { graph: true } }, async (request, reply) => {
    const { file_name: fileName = '', file_length: length = '', file_type: fileType = '' } = request.query;
    const max = SAMPLE_TYPES[fileType];
    if (max === undefined)
      return graphError(
        reply,
        400,
        100,
        `Param file_type must be one of ${Object.keys(SAMPLE_TYPES).join(', ')}`,
      );
    const fileLength = /^\d{1,12}$/.test(length) ? Number(length) : 0;
    if (fileLength < 1) return graphError(reply, 400, 100, 'Param file_length must be a positive integer');
    if (fileLength > max)
      return graphError(
        reply,
        400,
        100,
        `Param file_length is too big: at most ${max} bytes for ${fileType}`,
      );
    const upload: SimUpload = {
      id: `upload:${randomBytes(18).toString('base64url')}`,
      appId: request.params.appId,
      fileName: fileName.slice(0, 255),
      fileType,
      fileLength,
      chunks: [],
      received: 0,
      handle: null,
    };
    state.uploads.set(upload.id, upload);
    return { id: upload.id };
  });

  // The bytes come raw (application/octet-stream, or anything), never parsed: in a scope of their own.
  await parent.register(async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 100 * MB + 1 }, (_req, body, done) =>
      done(null, body),
    );
    app.post<{ Params: { version: string; uploadId: string }; Body: Buffer | undefined }>(
      '/:version/:uploadId',
      { config: { graph: true } },
      async (request, reply) => {
        const upload = state.uploads.get(request.params.uploadId)!;
        const offset = String(request.headers.file_offset ?? '');
        if (!/^\d{1,12}$/.test(offset))
          return graphError(reply, 400, 100, 'Header file_offset must be the byte offset to upload from');
        if (upload.handle)
          return graphError(reply, 400, 100, 'This upload session is complete; start a new one');
        if (Number(offset) !== upload.received)
          return graphError(
            reply,
            400,
            100,
            `file_offset ${offset} is not where this upload stands (${upload.received}): resume from GET /${upload.id}`,
          );
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (upload.received + bytes.length > upload.fileLength)
          return graphError(reply, 400, 100, `More bytes than file_length (${upload.fileLength})`);
        const breakAfter = state.breakNextUploadAfter;
        if (breakAfter !== null && breakAfter < bytes.length) {
          // A connection cut mid-file: the network keeps what arrived, and the client hears nothing.
          state.breakNextUploadAfter = null;
          keep(upload, bytes.subarray(0, breakAfter));
          reply.hijack();
          request.raw.socket.destroy();
          return;
        }
        keep(upload, bytes);
        if (upload.received < upload.fileLength) return { id: upload.id, file_offset: upload.received };
        const file = Buffer.concat(upload.chunks);
        const sniffed = await sniffMedia(file, upload.fileType);
        if (!sniffed.ok || sniffed.mime !== upload.fileType)
          return graphError(reply, 400, 100, `The file is not ${upload.fileType}`);
        upload.handle = `4::${Buffer.from(upload.fileType).toString('base64')}:${randomBytes(24).toString('base64url')}`;
        upload.chunks = [];
        state.handles.set(upload.handle, upload.appId);
        return { h: upload.handle };
      },
    );
  });

  parent.post<{ Body: { after_bytes?: unknown } }>('/uploads/break-next', async (request, reply) => {
    const after = request.body?.after_bytes;
    if (!Number.isSafeInteger(after) || (after as number) < 0)
      return reply.code(400).send({ error: 'after_bytes: a whole number of bytes' });
    state.breakNextUploadAfter = after as number;
    return { after_bytes: after };
  });
}

function keep(upload: SimUpload, bytes: Buffer) {
  upload.chunks.push(bytes);
  upload.received += bytes.length;
}

/** `GET /{upload-id}`: where the upload stands, to resume from. */
export function uploadStatus(upload: SimUpload) {
  return { id: upload.id, file_offset: upload.received };
}

export const isUploadId = (id: string | undefined) =>
  typeof id === 'string' && id.startsWith('upload:') && id.length <= MAX_UPLOAD_ID;

function numberOfToken(state: SimState, authorization: string | undefined): SimNumber | undefined {
  const token = /^(?:Bearer|OAuth) (\S+)$/i.exec(authorization ?? '')?.[1];
  return [...state.numbers.values()].find((n) => safeEqual(token ?? '', n.accessToken));
}

/** A header_handle this account may use: issued by an upload to its own app. */
export function handleIssuedTo(state: SimState, handle: unknown, wabaId: string): boolean {
  const appId = typeof handle === 'string' ? state.handles.get(handle) : undefined;
  return appId !== undefined && appId === simAppId({ businessAccountId: wabaId });
}

export const unknownHandle = (reply: FastifyReply) =>
  graphError(
    reply,
    400,
    100,
    'header: example.header_handle is not a handle this app uploaded (Resumable Upload API)',
  );
