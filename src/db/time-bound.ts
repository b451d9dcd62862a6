import type { Db, Queryable } from './db.js';

const QUERY_CANCELED = '57014';

/** How long a read a person waits on (the dashboard, an audience's count) may run; tests shorten it. */
export const EXPENSIVE_READ = { ms: 5_000 };

/**
 * Runs fn's queries in one transaction whose statements PostgreSQL cancels past `ms` (SET LOCAL, so
 * the pooled connection keeps its own limit afterwards); a cancelled one throws `timedOut(cause)`.
 * PGlite runs queries on this process's thread, where no timer can interrupt them: there the bound
 * is not enforced (docs/DECISIONS.md), and the queries rely on their shape alone.
 */
export async function withinTime<T>(
  db: Db,
  ms: number,
  fn: (tx: Queryable) => Promise<T>,
  timedOut: (cause: unknown) => Error,
): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.trunc(ms))}`);
      return fn(tx);
    });
  } catch (err) {
    if ((err as { code?: unknown })?.code === QUERY_CANCELED) throw timedOut(err);
    throw err;
  }
}
