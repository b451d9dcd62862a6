import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/env.js';
import type { Db } from './db.js';
import type { OutageLog } from './outage.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** The one place that picks the database: a server when DATABASE_URL is set, else embedded PGlite. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: { log?: OutageLog; statementTimeouts?: boolean } = {},
): Promise<Db> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, undefined, options);
  const dir = join(config.dataDir, 'pg');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return openPglite(dir);
}
