import { createReadStream } from 'node:fs';
import { opendir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Db } from '../../db/db.js';
import { postgresStore } from '../media/postgres-store.js';

export interface MediaTotals {
  files: number;
  bytes: number;
}

/** The filesystem store's files (`<root>/<workspace id>/<media id>`), one at a time; unfinished writes left out. */
async function* mediaFiles(root: string): AsyncGenerator<{ key: string; path: string; size: number }> {
  let dir: Awaited<ReturnType<typeof opendir>>;
  try {
    dir = await opendir(root, { recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for await (const entry of dir) {
    if (!entry.isFile() || entry.name.endsWith('.partial')) continue;
    const path = join(entry.parentPath, entry.name);
    yield { key: relative(root, path).split(sep).join('/'), path, size: (await stat(path)).size };
  }
}

export async function countMedia(root: string): Promise<MediaTotals> {
  const totals = { files: 0, bytes: 0 };
  for await (const file of mediaFiles(root)) {
    totals.files++;
    totals.bytes += file.size;
  }
  return totals;
}

/** Streams every file into the PostgreSQL media store (media_objects, media_chunks) under its own key. */
export async function copyMediaToPostgres(
  root: string,
  target: Db,
  progress: (done: number) => void,
): Promise<MediaTotals> {
  const store = postgresStore(target);
  const totals = { files: 0, bytes: 0 };
  for await (const file of mediaFiles(root)) {
    await store.put(file.key, createReadStream(file.path));
    totals.files++;
    totals.bytes += file.size;
    if (totals.files % 100 === 0) progress(totals.files);
  }
  return totals;
}
