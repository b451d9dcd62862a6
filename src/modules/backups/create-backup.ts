import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fromSocketError, sendToControlSocket } from '../../cli/control-socket.js';
import type { Config } from '../../config/env.js';
import { openPglite } from '../../db/pglite.js';
import { DataDirBusyError, lockDataDir } from '../../runtime/data-dir-lock.js';
import { BackupError, type BackupManifest, MANIFEST_FILE, parleyVersion } from './manifest.js';
import { mediaFiles } from './media-files.js';
import { type DatabaseSnapshot, snapshotDatabase } from './snapshot-database.js';
import { removeStaleBackups } from './staging.js';
import { writeArchive } from './write-archive.js';

const WAIT_FOR_SERVER_MS = 30_000;

export interface BackupResult {
  file: string;
  bytes: number;
  migrations: number;
  media_files: number;
  media_bytes: number;
  /** How long the server's queries waited for the database copy. */
  held_ms: number;
}

/**
 * `parley backup`: the database is copied by whoever owns it (the running server, over its control
 * socket, or this process under the data directory's lock), then the media files, the secrets and
 * the manifest join it in an archive written here, outside any lock.
 */
export async function createBackup(
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'mediaStore'>,
  outPath: string,
): Promise<BackupResult> {
  if (config.databaseUrl) {
    throw new BackupError(
      'parley backup copies the embedded database; with DATABASE_URL set, back up PostgreSQL with pg_dump (docs/operations.md, "Backups")',
    );
  }
  const out = resolve(outPath);
  if (!existsSync(dirname(out))) throw new BackupError(`the folder ${dirname(out)} does not exist`);
  removeStaleBackups(config.dataDir, out);
  const snapshot = await takeSnapshot(config.dataDir);
  try {
    // After the snapshot: every media file a row in it points to was stored before the row was written.
    const media =
      config.mediaStore === 'filesystem'
        ? await stageMedia(config.dataDir, snapshot.staging)
        : { files: 0, bytes: 0 };
    for (const name of ['secret.key', 'simulator.token']) {
      if (existsSync(join(config.dataDir, name)))
        await copyFile(join(config.dataDir, name), join(snapshot.staging, name));
    }
    const manifest: BackupManifest = {
      format: 1,
      parley_version: parleyVersion(),
      created_at: new Date().toISOString(),
      migrations: snapshot.migrations,
      postgres_major: Number((await readFile(join(snapshot.staging, 'pg', 'PG_VERSION'), 'utf8')).trim()),
      media,
    };
    await writeFile(join(snapshot.staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });
    await writeArchive(snapshot.staging, out).catch((err: NodeJS.ErrnoException) => {
      // The disk or the folder, not Parley: say which file and why.
      if (err.syscall) throw new BackupError(`cannot write ${out}: ${err.message}`);
      throw err;
    });
    return {
      file: out,
      bytes: (await stat(out)).size,
      migrations: snapshot.migrations.length,
      media_files: media.files,
      media_bytes: media.bytes,
      held_ms: snapshot.held_ms,
    };
  } finally {
    await rm(snapshot.staging, { recursive: true, force: true });
  }
}

/** The running server copies its database; with none running, this process opens it (no migrations). */
async function takeSnapshot(dataDir: string): Promise<DatabaseSnapshot> {
  const deadline = Date.now() + WAIT_FOR_SERVER_MS;
  for (;;) {
    const reply = await sendToControlSocket(dataDir, 'backup.snapshot', { pid: process.pid });
    if (reply && 'error' in reply) throw fromSocketError(reply.error);
    if (reply) return reply.result as DatabaseSnapshot;
    let unlock: () => void;
    try {
      unlock = lockDataDir(dataDir);
    } catch (err) {
      // A server is starting on this data directory and has not opened its socket yet.
      if (!(err instanceof DataDirBusyError) || Date.now() > deadline) throw err;
      await sleep(250);
      continue;
    }
    try {
      if (!existsSync(join(dataDir, 'pg', 'PG_VERSION')))
        throw new BackupError(`${dataDir} holds no database to back up (set DATA_DIR to the data directory)`);
      const db = await openPglite(join(dataDir, 'pg'));
      try {
        return await snapshotDatabase(db, dataDir, process.pid);
      } finally {
        await db.close();
      }
    } finally {
      unlock();
    }
  }
}

/** Hard links (the store writes each file once, never in place) or copies where links cannot be made. */
async function stageMedia(dataDir: string, staging: string): Promise<{ files: number; bytes: number }> {
  const root = join(dataDir, 'media');
  let bytes = 0;
  const files = await mediaFiles(root);
  for (const f of files) {
    const to = join(staging, 'media', f);
    await mkdir(dirname(to), { recursive: true, mode: 0o700 });
    try {
      await link(join(root, f), to);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // deleted since it was listed
      if (code !== 'EXDEV' && code !== 'EPERM') throw err;
      await copyFile(join(root, f), to);
    }
    bytes += (await stat(to)).size;
  }
  return { files: (await mediaFiles(join(staging, 'media'))).length, bytes };
}
