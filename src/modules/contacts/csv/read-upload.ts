import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../../api/errors.js';
import type { RestApp } from '../../../api/rest-app.js';
import { CSV_LIMITS } from './read-csv.js';

const CSV_TYPES = ['text/csv', 'application/csv', 'application/vnd.ms-excel'];

/** The routes of `app` take a CSV body as it streams in (text/csv, or a file in multipart/form-data). */
export async function acceptCsvUploads(app: RestApp): Promise<void> {
  app.addContentTypeParser(CSV_TYPES, (_request, payload, done) => done(null, payload));
  // One file; a little past the cap so the CSV reader, which counts, says it is too large.
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { files: 1, fields: 20, parts: 30, fieldSize: 4096, fileSize: CSV_LIMITS.bytes + 1 },
  });
}

export interface Upload {
  source: AsyncIterable<Buffer | string>;
  fileName: string | null;
}

const isStream = (body: unknown): body is Readable =>
  typeof body === 'object' && body !== null && typeof (body as Readable).pipe === 'function';

/** The uploaded file: the body itself for text/csv, the first file part of a multipart form. */
export async function uploadOf(request: FastifyRequest): Promise<Upload> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const declared = Number(request.headers['content-length']);
  if (declared > CSV_LIMITS.bytes + 64 * 1024)
    throw new ApiError(
      'payload_too_large',
      `The file is larger than ${CSV_LIMITS.bytes / 1024 / 1024} MB; split it`,
    );
  if (type === 'multipart/form-data') return multipartFile(request);
  if (!isStream(request.body)) {
    throw new ApiError(
      'unsupported_media_type',
      'Send the CSV file as the body with Content-Type: text/csv, or as the "file" part of multipart/form-data',
    );
  }
  return { source: request.body, fileName: null };
}

const unreadable = () =>
  new ApiError('bad_request', 'The multipart form could not be read; send the CSV as its "file" part');

async function multipartFile(request: FastifyRequest): Promise<Upload> {
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await request.file();
  } catch {
    throw unreadable();
  }
  if (!part) {
    throw new ApiError('validation_error', 'The form has no file: send the CSV as its "file" part', [
      { field: 'file', message: 'Add the CSV file here.' },
    ]);
  }
  return { source: readable(part.file), fileName: part.filename || null };
}

/** The file's bytes; a form that breaks off or is malformed part way is said to be unreadable. */
async function* readable(file: Readable): AsyncIterable<Buffer> {
  try {
    for await (const chunk of file) yield chunk as Buffer;
  } catch {
    throw unreadable();
  }
}
