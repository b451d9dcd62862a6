import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.js';
import type { RestApp } from '../../../http/rest-app.js';
import { CSV_LIMITS } from './read-csv.js';

const CSV_TYPES = ['text/csv', 'application/csv', 'application/vnd.ms-excel'];

/** The routes of `app` take a CSV body as it streams in (text/csv, or a file in multipart/form-data). */
export function acceptCsvUploads(app: RestApp): void {
  app.addContentTypeParser([...CSV_TYPES, 'multipart/form-data'], (_request, payload, done) =>
    done(null, payload),
  );
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
  if (!isStream(request.body)) {
    throw new ApiError(
      'unsupported_media_type',
      'Send the CSV file as the body with Content-Type: text/csv, or as the "file" part of multipart/form-data',
    );
  }
  if (type !== 'multipart/form-data') return { source: request.body, fileName: null };
  return multipartFile(request, request.body);
}

const unreadable = () =>
  new ApiError('bad_request', 'The multipart form could not be read; send the CSV as its "file" part');

function multipartFile(request: FastifyRequest, body: Readable): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: request.headers,
        limits: { files: 1, fields: 20, parts: 30, fieldSize: 4096, fileSize: CSV_LIMITS.bytes + 1 },
      });
    } catch {
      return reject(unreadable());
    }
    let file: Readable | null = null;
    form.on('file', (_field, stream, info) => {
      file = stream;
      resolve({ source: stream, fileName: info.filename ?? null });
    });
    form.on('error', () => {
      const err = unreadable();
      if (file) file.destroy(err);
      else reject(err);
    });
    form.on('close', () =>
      reject(
        new ApiError('validation_error', 'The form has no file: send the CSV as its "file" part', [
          { field: 'file', message: 'is required' },
        ]),
      ),
    );
    body.pipe(form);
  });
}
