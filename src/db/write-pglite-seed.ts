import { rmSync } from 'node:fs';
import { Queue } from '../jobs/queue.js';
import { createLogger } from '../runtime/logger.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { SEED_DIR } from './pglite-seed.js';

/** `npm run build`: the migrated database, with the job queue's schema and queues (src/db/pglite-seed.ts). */
export async function writePgliteSeed(): Promise<void> {
  rmSync(SEED_DIR, { recursive: true, force: true });
  const db = await openPglite(SEED_DIR);
  await migrate(db);
  const queue = await Queue.start(db, { work: false, log: createLogger('warn') });
  await queue.stop();
  await db.close();
}
