import { chmod, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { extract } from 'tar';
import { Value } from 'typebox/value';
import { knownMigrations } from '../../db/migrate.js';
import { PGLITE_POSTGRES_MAJOR } from '../../db/pglite.js';
import { BackupError, type BackupManifest, BackupManifestSchema, MANIFEST_FILE } from './manifest.js';
import { countMedia } from './media-files.js';

const TOP_LEVEL = new Set([MANIFEST_FILE, 'secret.key', 'simulator.token', 'pg', 'media']);

/**
 * Extracts a backup into `intoDir` (made here; it must not exist yet) and checks that it is whole
 * and that this version can open it: a Parley manifest, the files it counts, no migration this
 * version does not know, a PostgreSQL major version this PGlite opens. On any failure `intoDir` is
 * removed and a BackupError says why.
 */
export async function extractBackup(file: string, intoDir: string): Promise<BackupManifest> {
  const found = await stat(file).catch(() => null);
  if (!found?.isFile())
    throw new BackupError(`cannot read ${file}: ${found ? 'not a file' : 'no such file'}`);
  await mkdir(intoDir, { mode: 0o700 });
  try {
    unpack(file, intoDir);
    const manifest = await readManifest(file, intoDir);
    await checkContents(file, intoDir, manifest);
    return manifest;
  } catch (err) {
    await rm(intoDir, { recursive: true, force: true });
    throw err;
  }
}

function unpack(file: string, intoDir: string): void {
  try {
    // Synchronous: when it throws, no write of it is still under way in intoDir, which is then removed.
    extract({
      file,
      cwd: intoDir,
      sync: true,
      strict: true,
      preserveOwner: false,
      // Only a data directory's own files and folders: no links, devices or anything outside it.
      filter: (path, entry) =>
        TOP_LEVEL.has(path.replace(/^\.\//, '').split('/')[0]!) &&
        'type' in entry &&
        (entry.type === 'File' || entry.type === 'Directory'),
    });
  } catch (err) {
    // A full disk or a folder we may not write to is no fault of the file's.
    if ((err as NodeJS.ErrnoException).syscall && !(err as Error).message.startsWith('zlib'))
      throw new BackupError(`cannot extract ${file} into ${intoDir}: ${(err as Error).message}`);
    throw new BackupError(
      `${file} is not a complete Parley backup (${(err as Error).message}); take the backup again or use another copy`,
    );
  }
}

async function readManifest(file: string, dir: string): Promise<BackupManifest> {
  const text = await readFile(join(dir, MANIFEST_FILE), 'utf8').catch(() => null);
  let manifest: unknown = null;
  try {
    manifest = text === null ? null : JSON.parse(text);
  } catch {}
  if (!Value.Check(BackupManifestSchema, manifest))
    throw new BackupError(`${file} is not a Parley backup (made by parley backup --out FILE)`);
  return manifest;
}

async function checkContents(file: string, dir: string, manifest: BackupManifest): Promise<void> {
  const known = new Set(knownMigrations());
  const newer = manifest.migrations.filter((m) => !known.has(m));
  if (newer.length > 0) {
    throw new BackupError(
      `${file} was made by a newer Parley (${manifest.parley_version}, migration ${newer[0]}); restore it with that version or later`,
    );
  }
  const pgVersion = await readFile(join(dir, 'pg', 'PG_VERSION'), 'utf8').catch(() => null);
  const secretKey = await stat(join(dir, 'secret.key')).catch(() => null);
  const media = await countMedia(join(dir, 'media'));
  if (
    pgVersion?.trim() !== String(manifest.postgres_major) ||
    !secretKey?.isFile() ||
    secretKey.size === 0 ||
    media.files !== manifest.media.files ||
    media.bytes !== manifest.media.bytes
  ) {
    throw new BackupError(
      `${file} is not a complete Parley backup; take the backup again or use another copy`,
    );
  }
  if (manifest.postgres_major !== PGLITE_POSTGRES_MAJOR) {
    throw new BackupError(
      `${file} holds a PostgreSQL ${manifest.postgres_major} database, which this Parley's embedded PostgreSQL ${PGLITE_POSTGRES_MAJOR} cannot open; restore it with Parley ${manifest.parley_version}`,
    );
  }
  await chmod(join(dir, 'secret.key'), 0o600);
}
