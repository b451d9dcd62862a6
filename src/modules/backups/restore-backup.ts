import { existsSync, readdirSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../../config/env.js';
import { knownMigrations } from '../../db/migrate.js';
import { DataDirBusyError, lockDataDir } from '../../runtime/data-dir-lock.js';
import { extractBackup } from './extract-backup.js';
import { BackupError, type RestoreResult } from './manifest.js';
import { mediaFiles } from './media-files.js';
import { restoreIntoPostgres } from './restore-into-postgres.js';
import { removeLeftovers, restoreAside } from './staging.js';
import { syncDir } from './write-archive.js';

/**
 * `parley restore` into an empty embedded data directory. The archive is extracted and checked
 * aside, inside the data directory, then renamed into place with the database last: a restore cut
 * short leaves no database for `serve` to start on (at worst, between two renames, the media
 * folder, which the next restore names). With DATABASE_URL, into an empty PostgreSQL database instead.
 */
export async function restoreBackup(
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'secretKey' | 'mediaStore'>,
  inPath: string,
  log?: (line: string) => void,
): Promise<RestoreResult> {
  if (config.databaseUrl) return restoreIntoPostgres(config, inPath, log);
  const file = resolve(inPath);
  const dataDir = config.dataDir;
  let unlock: () => void;
  try {
    unlock = lockDataDir(dataDir);
  } catch (err) {
    if (!(err instanceof DataDirBusyError)) throw err;
    throw new BackupError(
      `a Parley server (process ${err.pid}) is running on ${dataDir}; stop it, or restore into another DATA_DIR`,
    );
  }
  try {
    await refuseNonEmpty(dataDir);
    removeLeftovers(dataDir, 'restore-');
    const aside = restoreAside(dataDir, process.pid);
    await rm(aside, { recursive: true, force: true });
    const manifest = await extractBackup(file, aside);
    try {
      for (const name of ['secret.key', 'simulator.token', 'media', 'pg']) {
        if (!existsSync(join(aside, name))) continue;
        // What refuseNonEmpty allowed there (empty folders, a media write's partial file) makes way.
        if (name === 'media' || name === 'pg')
          await rm(join(dataDir, name), { recursive: true, force: true });
        await rename(join(aside, name), join(dataDir, name));
      }
      await syncDir(dataDir);
    } finally {
      await rm(aside, { recursive: true, force: true });
    }
    const done = new Set(manifest.migrations);
    return {
      data_dir: dataDir,
      parley_version: manifest.parley_version,
      created_at: manifest.created_at,
      media_files: manifest.media.files,
      migrations_to_apply: knownMigrations().filter((m) => !done.has(m)).length,
    };
  } finally {
    unlock();
  }
}

async function refuseNonEmpty(dataDir: string): Promise<void> {
  const pg = join(dataDir, 'pg');
  if (existsSync(pg) && readdirSync(pg).length > 0) {
    throw new BackupError(
      `${dataDir} already holds a database (pg/); restore into an empty DATA_DIR, or move this one away first`,
    );
  }
  if ((await mediaFiles(join(dataDir, 'media'))).length > 0) {
    throw new BackupError(
      `${dataDir} already holds media files (media/); restore into an empty DATA_DIR, or move this one away first`,
    );
  }
}
