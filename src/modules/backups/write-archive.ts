import { createWriteStream, existsSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { create } from 'tar';
import { MANIFEST_FILE } from './manifest.js';
import { partialFile } from './staging.js';

/** The archive's entries, manifest first: extracted, they are a data directory. */
const ENTRIES = [MANIFEST_FILE, 'secret.key', 'simulator.token', 'pg', 'media'];

/**
 * Writes staging's files to `out` as a gzip-compressed tar, owner-only. The archive goes to a
 * partial file that replaces `out` only once it is complete and on disk: a backup killed at any
 * moment leaves the previous file at `out` as it was.
 */
export async function writeArchive(staging: string, out: string): Promise<void> {
  const partial = partialFile(out, process.pid);
  await rm(partial, { force: true });
  try {
    const entries = ENTRIES.filter((e) => existsSync(join(staging, e)));
    await pipeline(
      create({ gzip: true, cwd: staging, portable: true }, entries),
      createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
    );
    await syncFile(partial);
    await rename(partial, out);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  await syncDir(dirname(out));
}

/** Makes a rename in dir survive a power cut. */
export const syncDir = (dir: string): Promise<void> => syncFile(dir);

/** fsync applies to the file, whichever descriptor asks. */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
