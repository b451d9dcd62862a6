import { join } from 'node:path';
import type { Config } from '../config/env.js';
import type { Db } from './db.js';
import type { OutageLog } from './outage.js';
import { openPgliteDir } from './pglite-seed.js';
import { openPostgres } from './postgres.js';

/** The one place that picks the database: a server when DATABASE_URL is set, else embedded PGlite. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: { log?: OutageLog; statementTimeouts?: boolean } = {},
): Promise<Db> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, undefined, options);
  return openPgliteDir(join(config.dataDir, 'pg'), options.log);
}
