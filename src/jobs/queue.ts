import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import type { AppContext } from '../context.js';
import type { Db } from '../db/db.js';
import { type JobData, type JobName, jobCatalog } from './catalog.js';
import type { JobQueue } from './enqueue.js';

export interface QueueOptions {
  /** Run handlers and the scheduler here (roles `all` and `worker`); the `api` role only sends. */
  work: boolean;
  log: AppContext['log'];
}

/**
 * The job queue: pg-boss on the same database, through the Db adapter so it runs on PGlite and on
 * PostgreSQL alike. pg-boss 10 has no heartbeat: a job whose worker died comes back once its
 * expiry passes, found by the maintenance pass that runs every few seconds here.
 */
export class Queue implements JobQueue {
  /** This process's worker per queue, to wake on send instead of waiting for its next poll. */
  readonly #workers = new Map<string, string>();

  private constructor(
    private readonly boss: PgBoss,
    private readonly options: QueueOptions,
  ) {}

  static async start(db: Db, options: QueueOptions): Promise<Queue> {
    const boss = new PgBoss({
      db: { executeSql: (text, values) => db.executeSql(text, values) as Promise<{ rows: unknown[] }> },
      schema: 'pgboss',
      migrate: true,
      supervise: options.work,
      schedule: options.work,
      maintenanceIntervalSeconds: 5,
    });
    boss.on('error', (err) => options.log.error({ err }, 'job queue error'));
    await boss.start();
    for (const [name, job] of Object.entries(jobCatalog)) {
      await createQueueRetrying(boss, name, {
        name,
        retryLimit: job.retryLimit,
        retryDelay: job.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: job.expireInSeconds,
      });
    }
    return new Queue(boss, options);
  }

  async startWorkers(ctx: AppContext): Promise<void> {
    if (!this.options.work) return;
    for (const [name, job] of Object.entries(jobCatalog)) {
      const handler = job.handler as (
        ctx: AppContext,
        data: object,
        attempt: { lastTry: boolean },
      ) => Promise<void>;
      const batchSize = job.batchSize ?? 1;
      for (let w = 0; w < (job.workers ?? 1); w++) {
        let workerId = '';
        workerId = await this.boss.work<object>(
          name,
          { includeMetadata: true, pollingIntervalSeconds: 1, batchSize },
          async (jobs) => {
            const results = await Promise.allSettled(
              jobs.map((j) => handler(ctx, j.data, { lastTry: j.retryCount >= j.retryLimit })),
            );
            const failed = jobs.filter((_, i) => results[i]!.status === 'rejected');
            if (jobs.length === 1 && failed.length === 1) throw (results[0] as PromiseRejectedResult).reason;
            // In a batch each job fails (and is retried) on its own; pg-boss then completes the rest.
            for (const j of failed) {
              const reason = (results[jobs.indexOf(j)] as PromiseRejectedResult).reason;
              await this.boss.fail(name, j.id, { message: String(reason?.message ?? reason) });
            }
            // A full batch means more are waiting: fetch again at once instead of sleeping a poll.
            if (batchSize > 1 && jobs.length === batchSize) this.boss.notifyWorker(workerId);
          },
        );
        this.#workers.set(name, workerId);
      }
      if (job.cron) await this.boss.schedule(name, job.cron);
    }
  }

  async send<N extends JobName>(
    name: N,
    data: JobData<N>,
    options: PgBoss.SendOptions = {},
  ): Promise<string | null> {
    return this.boss.send(name, data, options);
  }

  /** Wakes this process's worker for a queue now instead of at its next poll (after a commit that queued work). */
  wake(name: JobName): void {
    const workerId = this.#workers.get(name);
    if (workerId) this.boss.notifyWorker(workerId);
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}

/**
 * Instances started together on a fresh database create the same queues at once, and pg-boss's
 * create_queue (a table attached as a partition per queue) can deadlock between them, which stopped
 * a worker at start. The call is idempotent (ON CONFLICT DO NOTHING), so the loser tries again.
 */
async function createQueueRetrying(boss: PgBoss, name: string, options: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(name, options);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 10) throw err;
      await sleep(20 * attempt + Math.random() * 100);
    }
  }
}
