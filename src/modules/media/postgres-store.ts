import { Readable } from 'node:stream';
import type { Db } from '../../db/db.js';
import { newSecret } from '../../lib/ids.js';
import { checkKey, type MediaStore } from './store.js';

const CHUNK_BYTES = 1024 * 1024;

/**
 * Media in the database, in chunks of 1 MiB (media_chunks): for servers whose instances share no
 * disk. A write goes in under a generation of its own and becomes the key's (media_objects) only once
 * whole, so a reader never sees half a file; a failed write removes its chunks. Streams both ways:
 * one chunk is held at a time.
 */
export function postgresStore(db: Db): MediaStore {
  const workspaceOf = (key: string) => checkKey(key).split('/')[0]!;
  const drop = (key: string, generation: string) =>
    db.query('DELETE FROM media_chunks WHERE workspace_id = $1 AND key = $2 AND generation = $3', [
      workspaceOf(key),
      key,
      generation,
    ]);
  return {
    async put(key, body) {
      const ws = workspaceOf(key);
      const generation = newSecret('');
      let seq = 0;
      const write = (bytes: Buffer) =>
        db.query(
          'INSERT INTO media_chunks (workspace_id, key, generation, seq, bytes) VALUES ($1, $2, $3, $4, $5)',
          [ws, key, generation, seq++, bytes],
        );
      try {
        let pending: Buffer[] = [];
        let size = 0;
        for await (const chunk of body) {
          pending.push(Buffer.from(chunk));
          size += chunk.byteLength;
          while (size >= CHUNK_BYTES) {
            const all = Buffer.concat(pending, size);
            await write(all.subarray(0, CHUNK_BYTES));
            pending = [all.subarray(CHUNK_BYTES)];
            size -= CHUNK_BYTES;
          }
        }
        if (size > 0 || seq === 0) await write(Buffer.concat(pending, size));
        const { rows } = await db.query<{ old: string | null }>(
          `WITH prior AS (SELECT generation FROM media_objects WHERE workspace_id = $1 AND key = $2)
           INSERT INTO media_objects AS o (workspace_id, key, generation) VALUES ($1, $2, $3)
           ON CONFLICT (workspace_id, key) DO UPDATE SET generation = EXCLUDED.generation
           RETURNING (SELECT generation FROM prior) AS old`,
          [ws, key, generation],
        );
        if (rows[0]?.old) await drop(key, rows[0].old);
      } catch (err) {
        await drop(key, generation);
        throw err;
      }
    },
    async get(key) {
      const ws = workspaceOf(key);
      const { rows } = await db.query<{ generation: string }>(
        'SELECT generation FROM media_objects WHERE workspace_id = $1 AND key = $2',
        [ws, key],
      );
      const generation = rows[0]?.generation;
      if (!generation) return null;
      async function* chunks() {
        for (let seq = 0; ; seq++) {
          const { rows: found } = await db.query<{ bytes: Uint8Array }>(
            'SELECT bytes FROM media_chunks WHERE workspace_id = $1 AND key = $2 AND generation = $3 AND seq = $4',
            [ws, key, generation, seq],
          );
          if (!found[0]) return;
          yield Buffer.from(found[0].bytes);
        }
      }
      return Readable.from(chunks());
    },
    async delete(key) {
      const ws = workspaceOf(key);
      await db.query('DELETE FROM media_objects WHERE workspace_id = $1 AND key = $2', [ws, key]);
      await db.query('DELETE FROM media_chunks WHERE workspace_id = $1 AND key = $2', [ws, key]);
    },
  };
}
