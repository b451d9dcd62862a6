import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type Config, decodeKey } from '../../config/env.js';
import { extractBackup } from './extract-backup.js';
import { BackupError, type RestoreResult } from './manifest.js';
import { mediaFiles } from './media-files.js';
import { moveDataDirToPostgres } from './move-data-dir.js';
import { removeLeftovers, restoreAside } from './staging.js';

/**
 * `parley restore` with DATABASE_URL: an extracted backup is a data directory, so it goes into the
 * empty database the way `parley move` takes one, its media files into DATA_DIR/media or the
 * database as MEDIA_STORE says. The server then needs the backup's own secret key, so a different
 * PARLEY_SECRET_KEY is refused before anything is written.
 */
export async function restoreIntoPostgres(
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'secretKey' | 'mediaStore'>,
  inPath: string,
  log?: (line: string) => void,
): Promise<RestoreResult> {
  const databaseUrl = config.databaseUrl!;
  if (config.mediaStore === 's3') {
    throw new BackupError(
      'MEDIA_STORE=s3: a restore puts media files under DATA_DIR/media or into the database; set MEDIA_STORE to filesystem or postgres',
    );
  }
  const mediaDir = join(config.dataDir, 'media');
  if (config.mediaStore === 'filesystem' && (await mediaFiles(mediaDir)).length > 0) {
    throw new BackupError(
      `${mediaDir} already holds media files; restore with an empty DATA_DIR for the backup's files, or MEDIA_STORE=postgres`,
    );
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  removeLeftovers(config.dataDir, 'restore-');
  const aside = restoreAside(config.dataDir, process.pid);
  await rm(aside, { recursive: true, force: true });
  const manifest = await extractBackup(resolve(inPath), aside);
  try {
    const key = decodeKey(readFileSync(join(aside, 'secret.key'), 'utf8').trim(), 'the backup’s secret.key');
    if (!key.equals(config.secretKey)) {
      throw new BackupError(
        `PARLEY_SECRET_KEY is not the key this backup's secrets were encrypted with: set it to the backup's own (tar -xzOf ${inPath} secret.key) and restore again`,
      );
    }
    const report = await moveDataDirToPostgres({
      dataDir: aside,
      databaseUrl,
      media: config.mediaStore === 'postgres' ? 'postgres' : 'filesystem',
      log,
    });
    if (!report.ok) {
      throw new BackupError(
        'the counts differ between the backup and the database after the restore: drop the database, create it again and restore again',
      );
    }
    if (config.mediaStore === 'filesystem' && existsSync(join(aside, 'media'))) {
      await rm(mediaDir, { recursive: true, force: true });
      await rename(join(aside, 'media'), mediaDir);
    }
    return {
      data_dir: config.dataDir,
      parley_version: manifest.parley_version,
      created_at: manifest.created_at,
      media_files: manifest.media.files,
      migrations_to_apply: 0,
    };
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
}
