/**
 * Every job's name and the data it carries. Senders need only this; the handlers are in catalog.ts,
 * which must cover every name here. Nothing here imports a module, so no module imports the catalog.
 */
export interface JobDataByName {
  'maintenance.cleanup': Record<string, never>;
  'messages.send': { workspaceId: string; messageId: string };
  'messages.sweep': Record<string, never>;
  'webhooks.deliver': { workspaceId: string; deliveryId: string };
  /** Every number's templates (the schedule), or one number's (a send found its copy out of date). */
  'templates.sync': { numberId?: string };
  'automation.start': { workspaceId: string; eventId: string };
  'automation.step': { workspaceId: string; runId: string; stepId: string };
  'maintenance.autovacuum': Record<string, never>;
  /** A CSV import's staged rows, applied in batches. */
  'contacts.import': { workspaceId: string; importId: string };
}

export type JobName = keyof JobDataByName;
export type JobData<N extends JobName> = JobDataByName[N];
