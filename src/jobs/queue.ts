import { setTimeout as sleep } from 'node:timers/promises';
import { type JobWithMetadata, PgBoss, type Queue as QueueDefinition, type SendOptions } from 'pg-boss';
import type { AppContext } from '../context.js';
import type { Db } from '../db/db.js';
import { isDatabaseUnreachable } from '../db/outage.js';
import { jobCatalog } from './catalog.js';
import type { JobQueue } from './enqueue.js';
import type { JobData, JobName } from './job-data.js';
import { moveV10Jobs, setAsideV10Schema } from './pgboss-v10-upgrade.js';

/**
 * A running job's worker refreshes its heartbeat every half of this (pg-boss's least is 10 s); a job
 * not heard from for this long is taken to be a dead worker's and is retried.
 */
const HEARTBEAT_SECONDS = 10;
const MONITOR_SECONDS = 5;
/**
 * pg-boss deletes a job still queued this long after its start time (14 days by default): a server
 * stopped for a fortnight, or a backup restored a month later, would lose its waiting flow steps and
 * queued sends. Every queued job here is a promise to a customer, so it is kept for 400 days.
 */
const QUEUED_RETENTION_SECONDS = 400 * 86_400;

export interface QueueOptions {
  /** Run handlers and the scheduler here (roles `all` and `worker`); the `api` role only sends. */
  work: boolean;
  log: AppContext['log'];
  /** Caps every queue's retry backoff (config.jobRetryDelayMaxSeconds); none when not given. */
  retryDelayMaxSeconds?: number;
}

/**
 * The job queue: pg-boss on the same database, through the Db adapter so it runs on PGlite and on
 * PostgreSQL alike. A running job's worker refreshes its heartbeat; a job whose worker died stops
 * doing so and comes back within seconds, found by the monitor pass that runs every few seconds here.
 */
export class Queue implements JobQueue {
  /** This process's worker per queue, to wake on send instead of waiting for its next poll. */
  readonly #workers = new Map<string, string>();
  /** Each drain loop's wake-up, and the loops themselves, to wait for on stop. */
  readonly #drains = new Map<string, () => void>();
  readonly #loops: Promise<void>[] = [];
  #stopping = false;

  private constructor(
    private readonly boss: PgBoss,
    private readonly options: QueueOptions,
  ) {}

  static async start(db: Db, options: QueueOptions): Promise<Queue> {
    await setAsideV10Schema(db);
    const boss = new PgBoss({
      db: { executeSql: (text, values) => db.executeSql(text, values) as Promise<{ rows: unknown[] }> },
      backend: db.kind,
      schema: 'pgboss',
      migrate: true,
      supervise: options.work,
      schedule: options.work,
      // The monitor pass fails jobs whose heartbeat went quiet (and those past their expiry): it runs
      // every few seconds so a dead worker's job is handed out again soon after its heartbeat lapses.
      superviseIntervalSeconds: MONITOR_SECONDS,
      monitorIntervalSeconds: MONITOR_SECONDS,
      // Deletes jobs past their retention; it has no hurry.
      maintenanceIntervalSeconds: 300,
    });
    // While the database is away every poll fails: the outage is logged once by the database layer,
    // and the queue polls on until it answers.
    boss.on('error', (err) =>
      options.log[isDatabaseUnreachable(err) ? 'debug' : 'error']({ err }, 'job queue error'),
    );
    // Slow queries, backlogs, a database clock out of step, vacuum falling behind: the operator's to see.
    boss.on('warning', (warning) =>
      options.log.warn({ data: warning.data }, `job queue: ${warning.message}`),
    );
    await boss.start();
    // One read instead of a create and an update per queue (a locked transaction each): at every start
    // of an existing database the queues are already there as this catalog wants them.
    const existing = new Map((await boss.getQueues()).map((q) => [q.name, q]));
    for (const [name, job] of Object.entries(jobCatalog)) {
      const policy = {
        retryLimit: job.retryLimit,
        retryDelay: job.retryDelaySeconds,
        retryBackoff: true,
        retryDelayMax: options.retryDelayMaxSeconds ?? null,
        expireInSeconds: job.expireInSeconds,
        heartbeatSeconds: HEARTBEAT_SECONDS,
        retentionSeconds: QUEUED_RETENTION_SECONDS,
      };
      const current = existing.get(name);
      if (!current) {
        // pg-boss takes no null here (only on update): the key is left out for no cap.
        const { retryDelayMax, ...rest } = policy;
        await createQueueRetrying(boss, name, {
          name,
          ...rest,
          ...(retryDelayMax === null ? {} : { retryDelayMax }),
        });
      }
      // A database from an earlier version (or an earlier catalog) gets this version's policy for the
      // jobs it queues from now on.
      else if (Object.entries(policy).some(([key, value]) => current[key as keyof typeof policy] !== value)) {
        await boss.updateQueue(name, policy);
      }
    }
    const { moved, dropped } = await moveV10Jobs(db, boss, Object.keys(jobCatalog));
    if (moved > 0) options.log.info({ moved }, 'unfinished jobs moved from the pg-boss 10 schema');
    if (Object.keys(dropped).length > 0) {
      options.log.warn({ dropped }, 'unfinished jobs of queues this version no longer has were dropped');
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
        workerId = await this.boss.work(
          name,
          { includeMetadata: true, pollingIntervalSeconds: 1, batchSize },
          async (jobs: JobWithMetadata<object>[]) => {
            const results = await Promise.allSettled(
              jobs.map((j) => handler(ctx, j.data, { lastTry: j.retryCount >= j.retryLimit })),
            );
            const failed = jobs.flatMap((job, i) => {
              const result = results[i]!;
              return result.status === 'rejected' ? [{ job, reason: result.reason }] : [];
            });
            for (const f of failed) this.#logFailure(name, f.job, f.reason);
            if (jobs.length === 1 && failed.length === 1) throw failed[0]!.reason;
            // In a batch each job fails (and is retried) on its own; pg-boss then completes the rest.
            for (const f of failed) {
              await this.boss.fail(name, f.job.id, { message: String(f.reason?.message ?? f.reason) });
            }
            // A full batch means more are waiting: fetch again at once instead of sleeping a poll.
            if (batchSize > 1 && jobs.length === batchSize) this.boss.notifyWorker(workerId);
          },
        );
        this.#workers.set(name, workerId);
      }
      if (job.cron) await this.boss.schedule(name, job.cron);
      const drain = (job as { drain?: (ctx: AppContext) => Promise<boolean> }).drain;
      if (drain) this.#startDrain(name, () => drain(ctx));
    }
  }

  /**
   * A job that threw is retried by pg-boss, which keeps the error with the job; it reaches the log
   * here, at once: as a warning while retries are left, as an error on the last try.
   */
  #logFailure(name: string, job: JobWithMetadata<object>, err: unknown): void {
    const lastTry = job.retryCount >= job.retryLimit;
    const level = isDatabaseUnreachable(err) ? 'debug' : lastTry ? 'error' : 'warn';
    this.options.log[level](
      { err, queue: name, jobId: job.id, retry: job.retryCount },
      lastTry ? 'job failed on its last try' : 'job failed; it will be tried again',
    );
  }

  #startDrain(name: string, drain: () => Promise<boolean>): void {
    let poked = false;
    let wakeUp: (() => void) | undefined;
    this.#drains.set(name, () => {
      poked = true;
      wakeUp?.();
    });
    const loop = async () => {
      while (!this.#stopping) {
        poked = false;
        let more = false;
        try {
          more = await drain();
        } catch (err) {
          this.options.log[isDatabaseUnreachable(err) ? 'debug' : 'error'](
            { err, queue: name },
            'drain failed',
          );
        }
        if (more || poked || this.#stopping) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 1000);
          wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeUp = undefined;
      }
    };
    this.#loops.push(loop());
  }

  async send<N extends JobName>(
    name: N,
    data: JobData<N>,
    options: SendOptions = {},
  ): Promise<string | null> {
    return this.boss.send(name, data, options);
  }

  async insert<N extends JobName>(
    name: N,
    jobs: { data: JobData<N>; id?: string; startAfter?: Date }[],
    options: Pick<SendOptions, 'db'> = {},
  ): Promise<void> {
    if (jobs.length > 0) await this.boss.insert(name, jobs, options);
  }

  /** Wakes this process's worker for a queue now instead of at its next poll (after a commit that queued work). */
  wake(name: JobName): void {
    const workerId = this.#workers.get(name);
    if (workerId) this.boss.notifyWorker(workerId);
    this.#drains.get(name)?.();
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    for (const wake of this.#drains.values()) wake();
    await Promise.all(this.#loops);
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}

/**
 * Instances started together on a fresh database create the same queues at once, and pg-boss's
 * create_queue (a table attached as a partition per queue) can deadlock between them, which stopped
 * a worker at start. The call is idempotent (ON CONFLICT DO NOTHING), so the loser tries again.
 */
async function createQueueRetrying(boss: PgBoss, name: string, options: QueueDefinition): Promise<void> {
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
