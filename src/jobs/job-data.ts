/**
 * Every job's name and the data it carries. Senders need only this; the handlers are in catalog.ts,
 * which must cover every name here. Nothing here imports a module, so no module imports the catalog.
 */
export interface JobDataByName {
  'maintenance.cleanup': Record<string, never>;
  'messages.send': { workspaceId: string; messageId: string };
  'messages.sweep': Record<string, never>;
  /** Tells the network a teammate read an inbound message (messaging/mark-read.ts). */
  'messages.mark_read': { workspaceId: string; messageId: string };
  'webhooks.deliver': { workspaceId: string; deliveryId: string };
  /** Every number's templates (the schedule), or one number's (a send found its copy out of date). */
  'templates.sync': { numberId?: string };
  'automation.start': { workspaceId: string; eventId: string };
  /**
   * One visit of a run's step (`visit` 1 when absent). `timeout`: an ask's deadline passed; `retry`:
   * an ask sends its question again after the n-th invalid answer.
   */
  'automation.step': {
    workspaceId: string;
    runId: string;
    stepId: string;
    visit?: number;
    timeout?: boolean;
    retry?: number;
  };
  'maintenance.autovacuum': Record<string, never>;
  /** A CSV import's staged rows, applied in batches. */
  'contacts.import': { workspaceId: string; importId: string };
  /** An inbound message's media, downloaded from the network into the media store. */
  'media.download': { workspaceId: string; mediaId: string };
  /** One e-mail (a password reset, an invitation), sealed: see mail/queue-mail.ts. */
  'mail.send': { sealed: string };
  /** A broadcast's audience snapshotted and released through the send path (broadcasts/deliver-broadcast.ts). */
  'broadcasts.deliver': { workspaceId: string; broadcastId: string };
  /** Broadcasts that should be delivering and have no live delivery get a job again. */
  'broadcasts.sweep': Record<string, never>;
  /** Once a day: what is past each workspace's data retention is removed (modules/retention). */
  'maintenance.retention': Record<string, never>;
}

export type JobName = keyof JobDataByName;
export type JobData<N extends JobName> = JobDataByName[N];
