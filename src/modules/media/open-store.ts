import { join } from 'node:path';
import type { Config } from '../../config/env.js';
import type { Db } from '../../db/db.js';
import { filesystemStore } from './filesystem-store.js';
import { postgresStore } from './postgres-store.js';
import { s3Store } from './s3-store.js';
import type { MediaStore } from './store.js';

/** The media store MEDIA_STORE names: the one place that chooses. */
export function openMediaStore(config: Config, db: Db): MediaStore {
  switch (config.mediaStore) {
    case 'filesystem':
      return filesystemStore(join(config.dataDir, 'media'));
    case 'postgres':
      return postgresStore(db);
    case 's3':
      return s3Store(config.s3!);
  }
}
