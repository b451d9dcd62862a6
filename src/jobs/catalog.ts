import type { AppContext } from '../context.js';
import { pgliteAutovacuum } from '../db/pglite-autovacuum.js';
import { forgetOldAddresses } from '../modules/accounts/known-addresses.js';
import { forgetQuietLoginAttempts } from '../modules/accounts/login-throttle.js';
import { forgetOldPasswordResets } from '../modules/accounts/reset-tokens.js';
import { drainEventOutbox, OUTBOX_BATCH } from '../modules/automation/event-outbox.js';
import { runStep, type StepJob } from '../modules/automation/run-step.js';
import { startEventRuns } from '../modules/automation/start-runs.js';
import {
  deliverBroadcast,
  reviveLapsedDeliveries,
  sweepBroadcasts,
} from '../modules/broadcasts/deliver-broadcast.js';
import { forgetAbandonedUploads } from '../modules/contacts/csv/abandoned-uploads.js';
import { runImport } from '../modules/contacts/csv/run-import.js';
import { deleteExpiredKeys } from '../modules/idempotency/store.js';
import { forgetSeenBodies } from '../modules/leads/replay-guard.js';
import { deliverMail } from '../modules/mail/queue-mail.js';
import { downloadMedia } from '../modules/media/download-media.js';
import { allNumbers, numberById } from '../modules/messaging/connected-numbers.js';
import { sendReadMark } from '../modules/messaging/mark-read.js';
import { retrySend } from '../modules/messaging/retry-send.js';
import { sweepAbandonedSends } from '../modules/messaging/sweep-sends.js';
import { runRetention } from '../modules/retention/run-retention.js';
import { syncTemplates } from '../modules/templates/sync-templates.js';
import { deliverWebhook } from '../modules/webhooks/deliver.js';
import type { JobData, JobName } from './job-data.js';

/** A job: its queue name, its retry and expiry policy, an optional schedule, and its handler. */
export interface JobDefinition<Data extends object = object> {
  retryLimit: number;
  retryDelaySeconds: number;
  /**
   * A job still running after this long is taken to be stuck and is retried. A dead worker's job comes
   * back sooner, when its heartbeat stops (jobs/queue.ts), so this bounds a live handler, not a crash.
   */
  expireInSeconds: number;
  cron?: string;
  /** Jobs fetched and run at once (each retried on its own); 1 when not set. */
  batchSize?: number;
  /** Fetch loops per process, so one fetches while another's batch is still running; 1 when not set. */
  workers?: number;
  handler: (ctx: AppContext, data: Data, attempt: { lastTry: boolean }) => Promise<void>;
  /**
   * Work a worker process also does in a loop of its own, not from jobs: again at once while it says
   * more may be waiting, else on `wake` for this queue or after a second.
   */
  drain?: (ctx: AppContext) => Promise<boolean>;
}

function defineJob<Data extends object>(definition: JobDefinition<Data>): JobDefinition<Data> {
  return definition;
}

/** Every job the system runs, with its handler: the one place that knows them all (names and data: job-data.ts). */
export const jobCatalog = {
  'maintenance.cleanup': defineJob<Record<string, never>>({
    retryLimit: 3,
    retryDelaySeconds: 30,
    expireInSeconds: 600,
    cron: '*/10 * * * *',
    handler: async (ctx) => {
      let deleted = 0;
      for (let n = await deleteExpiredKeys(ctx.db); n > 0; n = await deleteExpiredKeys(ctx.db)) deleted += n;
      if (deleted > 0) ctx.log.info({ deleted }, 'expired idempotency records removed');
      const forgotten = await forgetSeenBodies(ctx.db);
      if (forgotten > 0) ctx.log.info({ forgotten }, 'signed webhook bodies older than 24 hours forgotten');
      const quiet = await forgetQuietLoginAttempts(ctx.db);
      if (quiet > 0) ctx.log.info({ quiet }, 'sign-in attempt counts quiet for a day forgotten');
      const unseen = await forgetOldAddresses(ctx.db);
      if (unseen > 0) ctx.log.info({ unseen }, 'sign-in addresses unseen for 180 days forgotten');
      const abandoned = await forgetAbandonedUploads(ctx.db);
      if (abandoned > 0) ctx.log.info({ abandoned }, 'contact imports whose upload was cut off removed');
      const resets = await forgetOldPasswordResets(ctx.db);
      if (resets > 0) ctx.log.info({ resets }, 'password reset links expired a day ago forgotten');
    },
  }),
  'messages.send': defineJob<{ workspaceId: string; messageId: string }>({
    retryLimit: 8,
    retryDelaySeconds: 2,
    expireInSeconds: 300,
    // A burst deferred past a number's throughput drains at the paced rate, not one job per poll:
    // batches wait for their send slots, and a second loop fetches while the first one waits.
    batchSize: 100,
    workers: 2,
    handler: (ctx, data, attempt) => retrySend(ctx, data, attempt.lastTry),
  }),
  'messages.sweep': defineJob<Record<string, never>>({
    retryLimit: 0,
    retryDelaySeconds: 60,
    expireInSeconds: 300,
    cron: '* * * * *',
    handler: async (ctx) => {
      const found = await sweepAbandonedSends(ctx);
      if (found > 0) ctx.log.warn({ found }, 'queued messages whose sender died were handed to the send job');
    },
  }),
  'messages.mark_read': defineJob<{ workspaceId: string; messageId: string }>({
    retryLimit: 3,
    retryDelaySeconds: 10,
    expireInSeconds: 120,
    handler: (ctx, data, attempt) => sendReadMark(ctx, data, attempt.lastTry),
  }),
  'webhooks.deliver': defineJob<{ workspaceId: string; deliveryId: string }>({
    retryLimit: 10,
    retryDelaySeconds: 5,
    expireInSeconds: 300,
    handler: (ctx, data, attempt) => deliverWebhook(ctx, data, attempt.lastTry),
  }),
  'templates.sync': defineJob<{ numberId?: string }>({
    retryLimit: 1,
    retryDelaySeconds: 60,
    expireInSeconds: 1800,
    cron: '*/15 * * * *',
    handler: async (ctx, data) => {
      if (data.numberId) {
        const number = await numberById(ctx, data.numberId);
        if (number) await syncTemplates(ctx, number);
        return;
      }
      for (const number of await allNumbers(ctx)) {
        await syncTemplates(ctx, number).catch((err) =>
          ctx.log.warn({ err, numberId: number.id }, 'periodic template sync failed'),
        );
      }
    },
  }),
  'automation.start': defineJob<{ workspaceId: string; eventId: string }>({
    retryLimit: 10,
    retryDelaySeconds: 1,
    expireInSeconds: 300,
    batchSize: 20,
    // Events stored by an earlier version each queued this job; events now wait in the outbox.
    handler: (ctx, data) => startEventRuns(ctx, data),
    drain: async (ctx) => (await drainEventOutbox(ctx)) === OUTBOX_BATCH,
  }),
  'automation.step': defineJob<StepJob>({
    retryLimit: 6,
    retryDelaySeconds: 2,
    expireInSeconds: 300,
    batchSize: 20,
    handler: (ctx, data, attempt) => runStep(ctx, data, attempt.lastTry),
  }),
  'maintenance.autovacuum': defineJob<Record<string, never>>({
    retryLimit: 0,
    retryDelaySeconds: 60,
    expireInSeconds: 900,
    cron: '* * * * *',
    handler: async (ctx) => {
      // A PostgreSQL server runs its own autovacuum; only the embedded engine needs this.
      if (ctx.db.kind !== 'pglite') return;
      const done = await pgliteAutovacuum(ctx.db);
      if (done.analyzed.length + done.vacuumed.length > 0) ctx.log.debug(done, 'embedded autovacuum');
    },
  }),
  'contacts.import': defineJob<{ workspaceId: string; importId: string }>({
    retryLimit: 5,
    retryDelaySeconds: 5,
    // Each batch commits on its own: a job that outlives this (a very large file) resumes where it was.
    expireInSeconds: 1800,
    handler: (ctx, data) => runImport(ctx, data),
  }),
  'media.download': defineJob<{ workspaceId: string; mediaId: string }>({
    // 30 s, 1 min, 2 min... about half an hour in all: a media id from a webhook stays good for days.
    retryLimit: 6,
    retryDelaySeconds: 30,
    expireInSeconds: 300,
    batchSize: 4,
    handler: (ctx, data, attempt) => downloadMedia(ctx, data, attempt.lastTry),
  }),
  'mail.send': defineJob<{ sealed: string }>({
    // 10 s, 20 s, 40 s... about 20 minutes in all; a reset link lives an hour.
    retryLimit: 7,
    retryDelaySeconds: 10,
    expireInSeconds: 60,
    handler: (ctx, data, attempt) => deliverMail(ctx, data, attempt.lastTry),
  }),
  'broadcasts.deliver': defineJob<{ workspaceId: string; broadcastId: string }>({
    retryLimit: 20,
    retryDelaySeconds: 5,
    // A delivery hands on to a fresh job every few minutes (deliver-broadcast.ts), well within this.
    expireInSeconds: 900,
    batchSize: 4,
    handler: (ctx, data) => deliverBroadcast(ctx, data),
  }),
  'broadcasts.sweep': defineJob<Record<string, never>>({
    retryLimit: 0,
    retryDelaySeconds: 60,
    expireInSeconds: 300,
    cron: '* * * * *',
    handler: async (ctx) => {
      const found = await sweepBroadcasts(ctx);
      if (found > 0) ctx.log.warn({ found }, 'broadcasts without a live delivery were given a job again');
    },
    drain: reviveLapsedDeliveries,
  }),
  'maintenance.retention': defineJob<Record<string, never>>({
    retryLimit: 2,
    retryDelaySeconds: 300,
    // Batches commit one by one: a run that outlives this, or is killed, goes on from where it was.
    expireInSeconds: 3600,
    cron: '17 3 * * *',
    handler: async (ctx) => {
      await runRetention(ctx);
    },
  }),
} satisfies { [N in JobName]: JobDefinition<JobData<N>> };
