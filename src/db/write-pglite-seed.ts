import { renameSync, writeFileSync } from 'node:fs';
import { Queue } from '../jobs/queue.js';
import { createLogger } from '../runtime/logger.js';
import { migrate } from './migrate.js';
import { createPglite, pgliteDb } from './pglite.js';
import { SEED } from './pglite-seed.js';

/** `npm run build`: the migrated database, with the job queue's schema and queues, as a tar file. */
export async function writePgliteSeed(): Promise<void> {
  const pg = await createPglite(undefined);
  const db = pgliteDb(pg);
  await migrate(db);
  const queue = await Queue.start(db, { work: false, log: createLogger('warn') });
  await queue.stop();
  const dump = await pg.dumpDataDir('none');
  await pg.close();
  // Written aside and renamed: a build stopped half way leaves no truncated seed.
  writeFileSync(`${SEED}.${process.pid}`, Buffer.from(await dump.arrayBuffer()));
  renameSync(`${SEED}.${process.pid}`, SEED);
}
