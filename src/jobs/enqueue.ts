import type { Queryable } from '../db/db.js';
import type { JobData, JobName } from './job-data.js';

export interface SendOptions {
  /** A deterministic id: a second job with it is not created. */
  id?: string;
  startAfter?: Date;
  /** With singletonSeconds: one job of this name and key per period of that many seconds, across instances. */
  singletonKey?: string;
  singletonSeconds?: number;
  /** The connection to write the job with (see inTransaction). */
  db?: { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };
}

/** What domain code does with the job queue (queue.ts's Queue, given in the context). */
export interface JobQueue {
  send<N extends JobName>(name: N, data: JobData<N>, options?: SendOptions): Promise<string | null>;
  /** Many jobs of one queue in one statement (each with its own id and start), written with `options.db`. */
  insert<N extends JobName>(
    name: N,
    jobs: { data: JobData<N>; id?: string; startAfter?: Date }[],
    options?: Pick<SendOptions, 'db'>,
  ): Promise<void>;
  /** Wakes this process's worker for a queue now instead of at its next poll (after a commit that queued work). */
  wake(name: JobName): void;
}

/** Send options that write the job within the caller's transaction: it exists if and only if that commits. */
export function inTransaction(tx: Queryable): Pick<SendOptions, 'db'> {
  return { db: { executeSql: (text: string, values?: unknown[]) => tx.query(text, values) } };
}
