import type { Queryable } from '../../db/db.js';
import { type Filter, listTables, type TableShape } from './move-tables.js';

/**
 * The jobs that carry on after the move: waiting (created), waiting to be tried again (retry), and
 * running when the server stopped (active: their heartbeat has lapsed, so the new server's monitor
 * hands them out again, as after a crash). Finished ones (completed, failed, cancelled) are history
 * pg-boss deletes after its retention; what they did is in Parley's own tables, which move whole.
 */
const UNFINISHED = ['created', 'retry', 'active'];

export function unfinishedJobs(queues: string[]): Filter {
  return { sql: `state::text = ANY($1) AND name = ANY($2)`, params: [UNFINISHED, queues] };
}

/** pg-boss's job table (partitioned by queue on PostgreSQL), paged by (name, id). */
export async function jobTable(db: Queryable): Promise<TableShape> {
  const job = (await listTables(db, 'pgboss')).find((t) => t.name === 'job');
  if (!job) throw new Error('the job queue has no pgboss.job table');
  return { ...job, key: ['name', 'id'], keyTypes: ['text', 'uuid'] };
}

export async function queueNames(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM pgboss.queue ORDER BY name');
  return rows.map((r) => r.name);
}

/** Unfinished jobs per queue, of the given queues (all of them when none are given). */
export async function countUnfinished(db: Queryable, queues?: string[]): Promise<Record<string, number>> {
  const { rows } = await db.query<{ name: string; n: number }>(
    `SELECT name, count(*)::int AS n FROM pgboss.job
     WHERE state::text = ANY($1) ${queues ? 'AND name = ANY($2)' : ''} GROUP BY name ORDER BY name`,
    queues ? [UNFINISHED, queues] : [UNFINISHED],
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}
