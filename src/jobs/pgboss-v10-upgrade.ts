import type { JobInsert, PgBoss } from 'pg-boss';
import type { Db } from '../db/db.js';

/**
 * pg-boss 11 rewrote its schema without a migration from pg-boss 10's (schema version 24), and pg-boss
 * 12 migrates only from 11's on. Its author's advice is a fresh schema and moving the waiting jobs
 * across: a version-10 `pgboss` schema is renamed out of the way before pg-boss starts (it then
 * installs its own), and its waiting jobs move into the new queues once they exist.
 */
const V10_SCHEMA_VERSION = 24;
const OLD_SCHEMA = 'pgboss_v10';
/** Instances starting together on one database take turns: one renames, one moves. */
const LOCK = 'parley.pgboss-v10-upgrade';

/** Whether pg-boss 10's job schema is still the live one (an older Parley's queue). */
export async function hasV10Schema(db: Db): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(
    "SELECT to_regclass('pgboss.version') IS NOT NULL AS present",
  );
  if (!rows[0]!.present) return false;
  const { rows: versions } = await db.query<{ version: number }>('SELECT version FROM pgboss.version');
  return Number(versions[0]?.version) === V10_SCHEMA_VERSION;
}

export async function setAsideV10Schema(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [LOCK]);
    const { rows } = await tx.query<{ present: boolean }>(
      "SELECT to_regclass('pgboss.version') IS NOT NULL AS present",
    );
    if (!rows[0]!.present) return;
    const { rows: versions } = await tx.query<{ version: number }>('SELECT version FROM pgboss.version');
    if (Number(versions[0]?.version) !== V10_SCHEMA_VERSION) return;
    await tx.query(`ALTER SCHEMA pgboss RENAME TO ${OLD_SCHEMA}`);
  });
}

interface V10Job {
  id: string;
  name: string;
  priority: number;
  data: object | null;
  start_after: Date;
  singleton_key: string | null;
  retries_left: number;
}

export interface MovedJobs {
  moved: number;
  /** Unfinished jobs of queues this version no longer has, by name: dropped with the old schema. */
  dropped: Record<string, number>;
}

/**
 * (pg-boss 10 counts a retry when it fetches the job again: one in `retry` or `active` has used one
 * more try than its retry_count says.)
 * Moves the jobs that had not finished (waiting, to be retried, or running when their process
 * stopped: they run again, as after any crash) into the queues of the same name, keeping their
 * start time and the tries they had left, and drops the old schema in the same transaction.
 */
export async function moveV10Jobs(db: Db, boss: PgBoss, queues: readonly string[]): Promise<MovedJobs> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [LOCK]);
    const { rows } = await tx.query<{ present: boolean }>(
      'SELECT to_regnamespace($1) IS NOT NULL AS present',
      [OLD_SCHEMA],
    );
    if (!rows[0]!.present) return { moved: 0, dropped: {} };
    const { rows: jobs } = await tx.query<V10Job>(
      `SELECT id, name, priority, data, start_after, singleton_key,
         greatest(retry_limit - retry_count - CASE WHEN state = 'created' THEN 0 ELSE 1 END, 0)::int
           AS retries_left FROM ${OLD_SCHEMA}.job
       WHERE state IN ('created', 'retry', 'active') AND name = ANY($1)`,
      [queues],
    );
    const { rows: others } = await tx.query<{ name: string; count: number }>(
      `SELECT name, count(*)::int AS count FROM ${OLD_SCHEMA}.job
       WHERE state IN ('created', 'retry', 'active') AND NOT name = ANY($1) AND name NOT LIKE '__pgboss__%'
       GROUP BY name`,
      [queues],
    );
    const inTx = { db: { executeSql: (text: string, values?: unknown[]) => tx.query(text, values) } };
    for (const name of queues) {
      const batch: JobInsert[] = jobs
        .filter((j) => j.name === name)
        .map((j) => ({
          id: j.id,
          data: j.data ?? {},
          priority: j.priority,
          startAfter: j.start_after,
          retryLimit: j.retries_left,
          ...(j.singleton_key ? { singletonKey: j.singleton_key } : {}),
        }));
      if (batch.length > 0) await boss.insert(name, batch, inTx);
    }
    await tx.query(`DROP SCHEMA ${OLD_SCHEMA} CASCADE`);
    return { moved: jobs.length, dropped: Object.fromEntries(others.map((o) => [o.name, o.count])) };
  });
}
