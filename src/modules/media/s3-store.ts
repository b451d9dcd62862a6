import { Readable } from 'node:stream';
import { AwsClient } from 'aws4fetch';
import { readCapped } from '../../lib/read-capped.js';
import { checkKey, type MediaStore } from './store.js';

export interface S3Options {
  /** The service's base URL (`https://s3.eu-west-1.amazonaws.com`, `http://minio:9000`); path-style addressing. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Bytes held per part of a multipart upload (S3's least is 5 MiB); 8 MiB unless set. */
  partBytes?: number;
}

const REQUEST_TIMEOUT_MS = 60_000;
// The bucket's own answers (an upload id, an error's XML) are small; a larger one is cut here.
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2...), for servers that share no disk and
 * keep files out of the database. A file up to one part is one PUT; a larger one a multipart upload,
 * one part held at a time, aborted if the stream breaks off: the object exists only once whole.
 */
export function s3Store(options: S3Options): MediaStore {
  const aws = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    service: 's3',
    region: options.region,
    // The media.download job retries; a request here is tried once.
    retries: 0,
  });
  const partBytes = options.partBytes ?? 8 * 1024 * 1024;
  const urlOf = (key: string, query = '') =>
    `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}/${checkKey(key)}${query}`;
  // Bounded in time until the answer's headers, and for `text` its (capped) body too: a file being
  // read out is paced by whoever reads it.
  const call = async (
    url: string,
    init: RequestInit = {},
    ok: (status: number) => boolean = (s) => s < 300,
  ): Promise<{ res: Response; text: string }> => {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error('the media bucket did not answer in time')),
      REQUEST_TIMEOUT_MS,
    );
    try {
      const res = await aws.fetch(url, { ...init, signal: controller.signal });
      const failed = !ok(res.status);
      const text =
        failed || init.method === 'POST'
          ? (await readCapped(res.body, MAX_ANSWER_BYTES)).bytes.toString('utf8')
          : '';
      if (failed) {
        const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
        throw new Error(`the media bucket answered ${res.status}${code ? ` ${code}` : ''}`);
      }
      return { res, text };
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    async put(key, body) {
      const url = urlOf(key);
      const iterator = body[Symbol.asyncIterator]();
      let pending: Buffer[] = [];
      let size = 0;
      // Fills one part from the stream: the part, and whether the stream has more.
      const fill = async (): Promise<{ part: Buffer; more: boolean }> => {
        while (size < partBytes) {
          const next = await iterator.next();
          if (next.done) {
            const part = Buffer.concat(pending, size);
            pending = [];
            size = 0;
            return { part, more: false };
          }
          pending.push(Buffer.from(next.value));
          size += next.value.byteLength;
        }
        const all = Buffer.concat(pending, size);
        pending = [all.subarray(partBytes)];
        size = all.length - partBytes;
        return { part: all.subarray(0, partBytes), more: true };
      };
      let { part, more } = await fill();
      if (!more) {
        await call(url, { method: 'PUT', body: part });
        return;
      }
      const started = (await call(`${url}?uploads`, { method: 'POST' })).text;
      const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(started)?.[1];
      if (!uploadId) throw new Error('the media bucket answered a multipart upload without an UploadId');
      const id = encodeURIComponent(uploadId);
      const etags: string[] = [];
      try {
        for (let n = 1; ; n++) {
          const { res } = await call(`${url}?partNumber=${n}&uploadId=${id}`, { method: 'PUT', body: part });
          etags.push(res.headers.get('etag') ?? '');
          if (!more) break;
          ({ part, more } = await fill());
        }
        const parts = etags.map(
          (etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`,
        );
        const done = await call(`${url}?uploadId=${id}`, {
          method: 'POST',
          body: `<CompleteMultipartUpload>${parts.join('')}</CompleteMultipartUpload>`,
        });
        // S3 may answer 200 and still fail the completion, saying so in the body.
        if (done.text.includes('<Error>')) throw new Error('the media bucket failed to complete the upload');
      } catch (err) {
        await call(`${url}?uploadId=${id}`, { method: 'DELETE' }, () => true).catch(() => {});
        throw err;
      }
    },
    async get(key) {
      const { res } = await call(urlOf(key), {}, (s) => s < 300 || s === 404);
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
    },
    async delete(key) {
      await call(urlOf(key), { method: 'DELETE' }, (s) => s < 300 || s === 404);
    },
  };
}
