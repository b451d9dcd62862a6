import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { nanoid } from 'nanoid';
import { checkKey, type MediaStore } from './store.js';

/**
 * Media as files under `<DATA_DIR>/media`: written to a temporary name and renamed into place, so a
 * reader never sees half a file and a failed write leaves nothing behind.
 */
export function filesystemStore(root: string): MediaStore {
  const pathOf = (key: string) => join(root, ...checkKey(key).split('/'));
  return {
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const partial = `${path}.${nanoid(8)}.partial`;
      try {
        await pipeline(Readable.from(body), createWriteStream(partial, { mode: 0o600 }));
        await rename(partial, path);
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
    },
    async get(key) {
      const stream = createReadStream(pathOf(key));
      return new Promise((resolve, reject) => {
        stream.once('open', () => resolve(stream));
        stream.once('error', (err: NodeJS.ErrnoException) =>
          err.code === 'ENOENT' ? resolve(null) : reject(err),
        );
      });
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
