import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/env.js';
import type { Db } from './db.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** The one place that picks the database: a server when DATABASE_URL is set, else embedded PGlite. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Db> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  const dir = join(config.dataDir, 'pg');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return openPglite(dir);
}
