import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** The media store's files under root (not the `.partial` ones of a write in progress), relative paths. */
export async function mediaFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    },
  );
  return entries
    .filter((e) => e.isFile() && !e.name.endsWith('.partial'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

export async function countMedia(root: string): Promise<{ files: number; bytes: number }> {
  let bytes = 0;
  const files = await mediaFiles(root);
  for (const f of files) bytes += (await stat(join(root, f))).size;
  return { files: files.length, bytes };
}
