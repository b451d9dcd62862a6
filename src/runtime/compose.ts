import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/env.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/db.js';
import { migrate, pendingMigrations } from '../db/migrate.js';
import { openDatabase } from '../db/open.js';
import { hasV10Schema } from '../jobs/pgboss-v10-upgrade.js';
import { Queue } from '../jobs/queue.js';
import { SecretBox } from '../lib/secret-box.js';
import { KeyVerifier } from '../modules/api-keys/key-verifier.js';
import { openMediaStore } from '../modules/media/open-store.js';
import type { StoredNumber } from '../modules/messaging/number-types.js';
import { SendingCache } from '../modules/messaging/sending-cache.js';
import { createApiRateLimiter } from '../modules/rate-limit/create-limiter.js';
import type { RateLimiter } from '../modules/rate-limit/limiter.js';
import { wireSubscriptions } from '../modules/subscriptions.js';
import type { StoredTemplate } from '../modules/templates/components.js';
import { lockDataDir } from './data-dir-lock.js';

export type Role = 'all' | 'api' | 'worker' | 'cli';

export interface RuntimeOptions {
  role: Role;
  log: FastifyBaseLogger;
  /** Tests pass their own database and limiter. */
  db?: Db;
  limiter?: RateLimiter;
  /** Start the job queue (default: every role but cli). */
  queue?: boolean;
  /**
   * Apply pending migrations on opening the embedded database (default). `parley migrate` applies them
   * itself, so that it can say which it applied.
   */
  migrate?: boolean;
}

export interface Runtime {
  ctx: AppContext;
  close(): Promise<void>;
}

export class PendingMigrationsError extends Error {}

/**
 * Builds the context for one process: the database, migrations, limiter, key cache and queue; the
 * modules' subscriptions to what messaging publishes.
 */
export async function openRuntime(config: Config, options: RuntimeOptions): Promise<Runtime> {
  wireSubscriptions();
  const unlock = !options.db && !config.databaseUrl ? lockDataDir(config.dataDir) : () => {};
  const closers: (() => Promise<void> | void)[] = [unlock];
  const close = async () => {
    for (let fn = closers.pop(); fn; fn = closers.pop()) await fn();
  };
  try {
    // Operator commands (`parley migrate` above all) may run as long as they need.
    const db =
      options.db ??
      (await openDatabase(config, { log: options.log, statementTimeouts: options.role !== 'cli' }));
    if (!options.db) closers.push(() => db.close());
    if (db.kind === 'pglite') {
      if (options.migrate !== false) await migrate(db);
    } else if (options.role !== 'cli') {
      const pending = await pendingMigrations(db);
      if (pending.length > 0) {
        throw new PendingMigrationsError(
          `database schema is behind (${pending.join(', ')}): run "parley migrate" first`,
        );
      }
      // The job queue's own schema moves in `parley migrate` only, with the older instances stopped:
      // one of them still running would work on jobs that had moved.
      if (await hasV10Schema(db)) {
        throw new PendingMigrationsError(
          'the job queue is still in the schema of Parley before pg-boss 12: stop every instance of the older version, then run "parley migrate"',
        );
      }
    }
    const limiter = options.limiter ?? createApiRateLimiter(config.redisUrl, options.log);
    closers.push(() => limiter.close());
    const log = options.log;
    const keys = new KeyVerifier(db, log);
    if (options.role !== 'cli') {
      await keys.start({ everyMs: config.apiKeyPollMs, listen: db.listen });
      closers.push(() => keys.stop());
    }
    const sending = new SendingCache<StoredNumber, StoredTemplate>(log);
    if (options.role !== 'cli') {
      await sending.start(db.listen);
      closers.push(() => sending.stop());
    }
    const useQueue = options.queue ?? options.role !== 'cli';
    const queue = useQueue
      ? await Queue.start(db, {
          work: options.role === 'all' || options.role === 'worker',
          log,
          retryDelayMaxSeconds: config.jobRetryDelayMaxSeconds,
        })
      : null;
    const ctx: AppContext = {
      config,
      db,
      log,
      limiter,
      keys,
      sending,
      queue,
      secrets: new SecretBox(config.secretKey),
      media: openMediaStore(config, db),
    };
    if (queue) {
      // Stop the queue before the database closes under it.
      closers.push(() => queue.stop());
      await queue.startWorkers(ctx);
    }
    return { ctx, close };
  } catch (err) {
    await close();
    throw err;
  }
}
