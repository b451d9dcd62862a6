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
}

/**
 * Moves the jobs that had not finished (waiting, to be retried, or running when their process
 * stopped: they run again, as after any crash) into the queues of the same name, each with this
 * version's retry policy, and drops the old schema in the same transaction. Returns how many moved.
 */
export async function moveV10Jobs(db: Db, boss: PgBoss, queues: readonly string[]): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [LOCK]);
    const { rows } = await tx.query<{ present: boolean }>(
      'SELECT to_regnamespace($1) IS NOT NULL AS present',
      [OLD_SCHEMA],
    );
    if (!rows[0]!.present) return 0;
    const { rows: jobs } = await tx.query<V10Job>(
      `SELECT id, name, priority, data, start_after, singleton_key FROM ${OLD_SCHEMA}.job
       WHERE state IN ('created', 'retry', 'active') AND name = ANY($1)`,
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
          ...(j.singleton_key ? { singletonKey: j.singleton_key } : {}),
        }));
      if (batch.length > 0) await boss.insert(name, batch, inTx);
    }
    await tx.query(`DROP SCHEMA ${OLD_SCHEMA} CASCADE`);
    return jobs.length;
  });
}
